"""Via Gladiola's three actions. Instances are interned so that bots and playouts allocate nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from netcards.action import Action, ActionCodec
from netcards.games.via_gladiola.cards import CARD_COUNT


@dataclass(frozen=True, slots=True)
class Walk(Action):
    """Put a Distance or Finish card on the walk pile (and draw what the cadence demands)."""

    KIND: ClassVar[str] = "walk"
    card: int


@dataclass(frozen=True, slots=True)
class Rest(Action):
    """Draw one card."""

    KIND: ClassVar[str] = "rest"


@dataclass(frozen=True, slots=True)
class PlayGladiola(Action):
    """Lay a Gladiola beside the walk pile, on day 4 only."""

    KIND: ClassVar[str] = "gladiola"
    card: int


CODEC = ActionCodec(Walk, Rest, PlayGladiola)

REST = Rest()
WALK = tuple(Walk(c) for c in range(CARD_COUNT))
GLADIOLA = tuple(PlayGladiola(c) for c in range(CARD_COUNT))
