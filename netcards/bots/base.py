"""The bot interface: what a bot is built with and what it is asked (levels: `registry.py`).

A bot is built for one seat of one table and is asked `choose(view, legal, history)`: the same
things a human's client has (the history is the events as that seat saw them). It never receives
the state, so it cannot cheat, whoever runs it (the host for a stand-in, a headless `netcards
bot` client, a simulation).
"""

from __future__ import annotations

import hashlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from netcards.action import Action
from netcards.game import Game, TableConfig

BotFactory = Callable[[Game[Any], TableConfig, int, bytes], "Bot"]


class Bot(ABC):
    level: ClassVar[str]
    wants_history: ClassVar[bool] = False  # callers may skip building the history otherwise
    reads_view: ClassVar[bool] = True  # in-process callers may pass NO_VIEW otherwise

    def __init__(self, game: Game[Any], config: TableConfig, seat: int, seed: bytes) -> None:
        self.game = game
        self.config = config
        self.seat = seat
        self._seed = seed
        self._random: random.Random | None = None

    @property
    def random(self) -> random.Random:
        """The bot's own generator, seeded from its seed when first used (seeding costs more
        than a whole move of most bots, and bots that need no chance never pay it)."""
        if self._random is None:
            self._random = random.Random(hashlib.blake2b(self._seed, digest_size=16).digest())
        return self._random

    def new_game(self, seed: bytes) -> None:
        """Play another game at the same seat of the same table, exactly as a new bot built
        with `seed` would: simulations keep their bots instead of building them every game."""
        self._seed = seed
        self._random = None

    @abstractmethod
    def choose(self, view: View, legal: list[Action], history: History = ()) -> Action:
        """One of `legal`, chosen from what `view` (and, for bots that remember, `history`) shows."""


History = Sequence[Mapping[str, Any]]
View = Mapping[str, Any]
"""A seat's view: the dict from `Game.view`, or in-process the same as a `Game.lazy_view`."""

NO_VIEW: View = MappingProxyType({})
"""What in-process callers (simulations, playouts) give a bot whose `reads_view` is False."""
