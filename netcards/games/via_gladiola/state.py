"""Via Gladiola's state: plain lists of card ids, so that copying and serializing stay cheap.

Piles are lists whose *last* element is the top card (draws pop from the end). Logs and views
that show a pile's order say "top last" explicitly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from netcards.games.via_gladiola.cards import Deck, deck_for
from netcards.rng import Rng


@dataclass(slots=True)
class VGState:
    players: int
    variant_last_card: bool
    deck_text: str | None
    deck: Deck
    rng: Rng
    hands: list[list[int]]
    draw: list[int]
    day: int
    walk: list[int]
    finished: list[list[int] | None]  # day 1.. piles once finished; None once reshuffled
    gladiolas: list[int]
    current: int
    first_player: int
    idle_rests: int = 0
    over: bool = False
    end_reason: str | None = None
    day_ends: list[dict[str, Any]] = field(default_factory=list)
    turns: int = 0

    def copy(self) -> VGState:
        return VGState(
            players=self.players,
            variant_last_card=self.variant_last_card,
            deck_text=self.deck_text,
            deck=self.deck,
            rng=self.rng.copy(),
            hands=[list(h) for h in self.hands],
            draw=list(self.draw),
            day=self.day,
            walk=list(self.walk),
            finished=[None if p is None else list(p) for p in self.finished],
            gladiolas=list(self.gladiolas),
            current=self.current,
            first_player=self.first_player,
            idle_rests=self.idle_rests,
            over=self.over,
            end_reason=self.end_reason,
            day_ends=[dict(d) for d in self.day_ends],
            turns=self.turns,
        )

    def to_data(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "variant_last_card": self.variant_last_card,
            "deck_text": self.deck_text,
            "rng": self.rng.to_data(),
            "hands": [list(h) for h in self.hands],
            "draw": list(self.draw),
            "day": self.day,
            "walk": list(self.walk),
            "finished": [None if p is None else list(p) for p in self.finished],
            "gladiolas": list(self.gladiolas),
            "current": self.current,
            "first_player": self.first_player,
            "idle_rests": self.idle_rests,
            "over": self.over,
            "end_reason": self.end_reason,
            "day_ends": [dict(d) for d in self.day_ends],
            "turns": self.turns,
        }

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> VGState:
        return cls(
            players=d["players"],
            variant_last_card=d["variant_last_card"],
            deck_text=d["deck_text"],
            deck=deck_for(d["deck_text"]),
            rng=Rng.from_data(d["rng"]),
            hands=[list(h) for h in d["hands"]],
            draw=list(d["draw"]),
            day=d["day"],
            walk=list(d["walk"]),
            finished=[None if p is None else list(p) for p in d["finished"]],
            gladiolas=list(d["gladiolas"]),
            current=d["current"],
            first_player=d["first_player"],
            idle_rests=d["idle_rests"],
            over=d["over"],
            end_reason=d["end_reason"],
            day_ends=[dict(x) for x in d["day_ends"]],
            turns=d["turns"],
        )
