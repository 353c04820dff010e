"""Auf Achse's three actions. Single-card ones are interned so bots and playouts allocate nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from netcards.action import Action, ActionCodec
from netcards.games.auf_achse.cards import CARD_COUNT


@dataclass(frozen=True, slots=True)
class AddToRun(Action):
    """Put one card from hand, face down, at the right end of your run (everybody at once)."""

    KIND: ClassVar[str] = "run"
    card: int


@dataclass(frozen=True, slots=True)
class PlayOdometer(Action):
    """Put one card from hand face down on the odometer pile (in turn, from the first player)."""

    KIND: ClassVar[str] = "odometer"
    card: int


@dataclass(frozen=True, slots=True)
class FreeRoad(Action):
    """After a Free road (1 card) or Completely free road (2 cards): the cards, left to right."""

    KIND: ClassVar[str] = "free_road"
    cards: tuple[int, ...]


CODEC = ActionCodec(AddToRun, PlayOdometer, FreeRoad)

ADD = tuple(AddToRun(c) for c in range(CARD_COUNT))
ODOMETER = tuple(PlayOdometer(c) for c in range(CARD_COUNT))
FREE_ONE = tuple(FreeRoad((c,)) for c in range(CARD_COUNT))
