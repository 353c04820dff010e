"""Games in which one seat acts at a time, named by the state: who acts, and the turn checks.

Via Gladiola and Velonimo keep `over` and `current` in their state; the seat asked to act and
the checks every `apply` makes first are then read straight from it. Playouts ask both hundreds
of times per game, so they are kept to a lookup and two comparisons.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from netcards.action import Action
from netcards.errors import GameOver, NotYourTurn
from netcards.event import Event
from netcards.game import Game


class TurnState(Protocol):
    over: bool
    current: int


T = TypeVar("T", bound=TurnState)

_ONE_SEAT = tuple(frozenset({seat}) for seat in range(8))
_NOBODY: frozenset[int] = frozenset()


class OneSeatAtATime(Game[T]):
    def to_act(self, state: T) -> frozenset[int]:
        return _NOBODY if state.over else _ONE_SEAT[state.current]

    def apply(self, state: T, seat: int, action: Action) -> list[Event]:
        if state.over:
            raise GameOver("the game is over")
        if seat != state.current:
            raise NotYourTurn(f"seat {seat + 1} is not asked to act now")
        return self._apply(state, seat, action)
