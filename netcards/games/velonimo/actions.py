"""Velonimo's actions, one per kind of decision the rules ask for.

A leader's exchange and the end of a duel attack are separate decisions taken in separate
phases, not extra fields of a play, so that each seat is only ever asked what it can answer
with what it knows at that moment (the cards it took are only known after the steal). Cards
go back one per decision: a choice among the cards of a hand stays as short as the hand,
where a choice among its k-card subsets would run into millions in a duel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from netcards.action import Action, ActionCodec
from netcards.games.velonimo.cards import ALL_CARDS


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Put one card or a combination on the table (ids in increasing order), maybe with the jersey."""

    KIND: ClassVar[str] = "play"
    cards: tuple[int, ...]
    jersey: bool


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Let the attack go by (it does not stop you playing later in the same attack)."""

    KIND: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class ChooseVictim(Action):
    """After playing leaders: the opponent whose hand you take cards from at random."""

    KIND: ClassVar[str] = "victim"
    seat: int


@dataclass(frozen=True, slots=True)
class GiveBack(Action):
    """After taking cards with leaders: one card of your hand back to that opponent, asked again
    until as many have gone back as were taken."""

    KIND: ClassVar[str] = "give_back"
    card: int


@dataclass(frozen=True, slots=True)
class ChooseLeader(Action):
    """After everybody passed on your last card: who, still in the round, leads next."""

    KIND: ClassVar[str] = "leader"
    seat: int


@dataclass(frozen=True, slots=True)
class GiveReward(Action):
    """Duel, after winning an attack: the hand (yours or your opponent's) the reward goes to."""

    KIND: ClassVar[str] = "reward"
    to_seat: int


CODEC = ActionCodec(Play, Pass, ChooseVictim, GiveBack, ChooseLeader, GiveReward)

# Shared instances, so that listing choices builds no objects.
PASS = Pass()
_SEATS = range(5)  # Velonimo seats five players at most
GIVE_BACK = tuple(GiveBack(c) for c in ALL_CARDS)
VICTIM = tuple(ChooseVictim(s) for s in _SEATS)
NEXT_LEADER = tuple(ChooseLeader(s) for s in _SEATS)
REWARD_TO = tuple(GiveReward(s) for s in _SEATS)
