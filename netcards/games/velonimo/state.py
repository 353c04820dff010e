"""Velonimo's state: plain lists and ints, so that copying and serializing stay cheap.

Piles are lists whose *last* element is the top card. The current attack is a list of plays
(seat, cards, jersey, value), oldest first; its cards stay there until the attack ends and
they go to the discard pile, which is public (every card in it was played face up).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from netcards.rng import Rng

Phase = Literal["play", "victim", "give_back", "next_leader", "reward", "over"]

# One play of the current attack: (seat, cards, jersey worn, value).
TablePlay = tuple[int, tuple[int, ...], bool, int]

# For each player count and seat, the other seats in clockwise order, that seat last.
_AFTER = tuple(
    tuple(
        tuple((seat + step) % players for step in range(1, players + 1)) for seat in range(players)
    )
    for players in range(6)
)


@dataclass(slots=True)
class VelonimoState:
    players: int
    duel: bool
    difficulties: list[int]
    duel_target: int
    rng: Rng
    round: int  # 0-based index into difficulties
    first_player: int  # who led the current round's first attack
    hands: list[list[int]]
    aside: list[int]  # 3-5 players: the cards nobody was dealt, never seen
    draw: list[int]  # duel: the face-down draw pile, top last
    reward: int | None  # duel: the face-up card beside the draw pile
    attack: list[TablePlay]
    discard: list[int]
    last_player: int | None  # who made the current attack's last play
    passes: int  # passes in a row since that play
    current: int  # the seat asked to act
    phase: Phase
    finished: list[int]  # this round's finishers, in order
    round_points: list[int]  # this round's points so far
    round_scores: list[list[int]] = field(default_factory=list)  # completed rounds
    jersey: int | None = None
    jersey_used: bool = False
    steal_count: int = 0  # leaders played, while the victim is being chosen
    victim: int | None = None  # during the give-back: who the cards were taken from
    taken: list[int] = field(default_factory=list)  # during the give-back: the taken cards
    to_give: int = 0  # during the give-back: cards still to give
    over: bool = False
    end_reason: str | None = None
    turns: int = 0

    def copy(self) -> VelonimoState:
        return VelonimoState(
            players=self.players,
            duel=self.duel,
            difficulties=list(self.difficulties),
            duel_target=self.duel_target,
            rng=self.rng.copy(),
            round=self.round,
            first_player=self.first_player,
            hands=[list(h) for h in self.hands],
            aside=list(self.aside),
            draw=list(self.draw),
            reward=self.reward,
            attack=list(self.attack),
            discard=list(self.discard),
            last_player=self.last_player,
            passes=self.passes,
            current=self.current,
            phase=self.phase,
            finished=list(self.finished),
            round_points=list(self.round_points),
            round_scores=[list(r) for r in self.round_scores],
            jersey=self.jersey,
            jersey_used=self.jersey_used,
            steal_count=self.steal_count,
            victim=self.victim,
            taken=list(self.taken),
            to_give=self.to_give,
            over=self.over,
            end_reason=self.end_reason,
            turns=self.turns,
        )

    @property
    def difficulty(self) -> int:
        return self.difficulties[self.round]

    def active(self) -> list[int]:
        """The seats still holding cards, in seat order."""
        return [s for s, hand in enumerate(self.hands) if hand]

    def holding(self) -> int:
        """How many seats still hold cards (`len(active())` without building the list)."""
        return self.players - self.hands.count([])

    def next_active(self, seat: int) -> int:
        """The next seat after `seat` (clockwise) still holding cards."""
        hands = self.hands
        for other in _AFTER[self.players][seat]:
            if hands[other]:
                return other
        raise AssertionError("nobody holds cards")

    def to_data(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "duel": self.duel,
            "difficulties": list(self.difficulties),
            "duel_target": self.duel_target,
            "rng": self.rng.to_data(),
            "round": self.round,
            "first_player": self.first_player,
            "hands": [list(h) for h in self.hands],
            "aside": list(self.aside),
            "draw": list(self.draw),
            "reward": self.reward,
            "attack": [[s, list(c), j, v] for s, c, j, v in self.attack],
            "discard": list(self.discard),
            "last_player": self.last_player,
            "passes": self.passes,
            "current": self.current,
            "phase": self.phase,
            "finished": list(self.finished),
            "round_points": list(self.round_points),
            "round_scores": [list(r) for r in self.round_scores],
            "jersey": self.jersey,
            "jersey_used": self.jersey_used,
            "steal_count": self.steal_count,
            "victim": self.victim,
            "taken": list(self.taken),
            "to_give": self.to_give,
            "over": self.over,
            "end_reason": self.end_reason,
            "turns": self.turns,
        }

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> VelonimoState:
        return cls(
            players=d["players"],
            duel=d["duel"],
            difficulties=list(d["difficulties"]),
            duel_target=d["duel_target"],
            rng=Rng.from_data(d["rng"]),
            round=d["round"],
            first_player=d["first_player"],
            hands=[list(h) for h in d["hands"]],
            aside=list(d["aside"]),
            draw=list(d["draw"]),
            reward=d["reward"],
            attack=[(s, tuple(c), j, v) for s, c, j, v in d["attack"]],
            discard=list(d["discard"]),
            last_player=d["last_player"],
            passes=d["passes"],
            current=d["current"],
            phase=d["phase"],
            finished=list(d["finished"]),
            round_points=list(d["round_points"]),
            round_scores=[list(r) for r in d["round_scores"]],
            jersey=d["jersey"],
            jersey_used=d["jersey_used"],
            steal_count=d["steal_count"],
            victim=d["victim"],
            taken=list(d["taken"]),
            to_give=d["to_give"],
            over=d["over"],
            end_reason=d["end_reason"],
            turns=d["turns"],
        )
