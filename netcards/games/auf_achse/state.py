"""Auf Achse's state: plain lists of card ids, so that copying and serializing stay cheap.

Everything a seat may not know sits in per-seat lists (hands, runs, pending choices, the face-down
odometer card) or in the draw pile, so a view can show a seat its own slots and only sizes of
the others'. Simultaneous choices wait in `pending`, one slot per seat, and resolve in seat
order: nothing in the state records which seat answered first. Piles keep their top last.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from netcards.games.auf_achse.cards import Deck, deck_for
from netcards.rng import Rng

RUN = "run"
ODOMETER = "odometer"
FREE_ROAD = "free_road"
OVER = "over"


def _lists(n: int) -> list[list[int]]:
    return [[] for _ in range(n)]


@dataclass(slots=True)
class AAState:
    players: int
    deck_text: str | None
    deck: Deck
    rng: Rng
    first_player: int
    hands: list[list[int]]
    draw: list[int]
    stage: int = 1
    round: int = 1
    phase: str = RUN
    runs: list[list[int]] = field(default_factory=list)
    pending: list[list[int]] = field(default_factory=list)  # chosen, not yet resolved
    need: list[int] = field(default_factory=list)  # cards each seat must choose now (0: none)
    current: int = -1  # the seat to play on the odometer
    odometer_down: list[list[int]] = field(default_factory=list)  # per seat, face down
    reveal_order: list[int] = field(default_factory=list)  # seats still face down, play order
    odometer_km: list[int] = field(default_factory=list)  # revealed km cards of this stage
    total: int = 0
    resolving: list[int] = field(default_factory=list)  # the Free road card being resolved
    discard: list[int] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)  # finished stages (public)
    over: bool = False

    def __post_init__(self) -> None:
        n = self.players
        if not self.runs:
            self.runs = _lists(n)
        if not self.pending:
            self.pending = _lists(n)
        if not self.need:
            self.need = [0] * n
        if not self.odometer_down:
            self.odometer_down = _lists(n)

    def copy(self) -> AAState:
        return AAState(
            players=self.players,
            deck_text=self.deck_text,
            deck=self.deck,
            rng=self.rng.copy(),
            first_player=self.first_player,
            hands=[list(h) for h in self.hands],
            draw=list(self.draw),
            stage=self.stage,
            round=self.round,
            phase=self.phase,
            runs=[list(r) for r in self.runs],
            pending=[list(p) for p in self.pending],
            need=list(self.need),
            current=self.current,
            odometer_down=[list(o) for o in self.odometer_down],
            reveal_order=list(self.reveal_order),
            odometer_km=list(self.odometer_km),
            total=self.total,
            resolving=list(self.resolving),
            discard=list(self.discard),
            history=list(self.history),  # finished stages are never changed again
            over=self.over,
        )

    def to_data(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "deck_text": self.deck_text,
            "rng": self.rng.to_data(),
            "first_player": self.first_player,
            "hands": [list(h) for h in self.hands],
            "draw": list(self.draw),
            "stage": self.stage,
            "round": self.round,
            "phase": self.phase,
            "runs": [list(r) for r in self.runs],
            "pending": [list(p) for p in self.pending],
            "need": list(self.need),
            "current": self.current,
            "odometer_down": [list(o) for o in self.odometer_down],
            "reveal_order": list(self.reveal_order),
            "odometer_km": list(self.odometer_km),
            "total": self.total,
            "resolving": list(self.resolving),
            "discard": list(self.discard),
            "history": [copy_stage(h) for h in self.history],
            "over": self.over,
        }

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> AAState:
        return cls(
            players=d["players"],
            deck_text=d["deck_text"],
            deck=deck_for(d["deck_text"]),
            rng=Rng.from_data(d["rng"]),
            first_player=d["first_player"],
            hands=[list(h) for h in d["hands"]],
            draw=list(d["draw"]),
            stage=d["stage"],
            round=d["round"],
            phase=d["phase"],
            runs=[list(r) for r in d["runs"]],
            pending=[list(p) for p in d["pending"]],
            need=list(d["need"]),
            current=d["current"],
            odometer_down=[list(o) for o in d["odometer_down"]],
            reveal_order=list(d["reveal_order"]),
            odometer_km=list(d["odometer_km"]),
            total=d["total"],
            resolving=list(d["resolving"]),
            discard=list(d["discard"]),
            history=[copy_stage(h) for h in d["history"]],
            over=d["over"],
        )


def copy_stage(stage: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of one finished stage's record, so callers cannot change the state's."""
    out = dict(stage)
    out["scores"] = list(stage["scores"])
    out["runs"] = [
        {**r, "cards": list(r["cards"]), "breaks": list(r["breaks"])} for r in stage["runs"]
    ]
    return out
