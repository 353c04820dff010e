"""The bot interface and the registry of bot levels.

A bot is built for one seat of one table and is asked `choose(view, legal, history)`: the same
things a human's client has (the history is the events as that seat saw them). It never receives
the state, so it cannot cheat, whoever runs it (the host for a stand-in, a headless `netcards
bot` client, a simulation).

A level may take a setting after a colon (`search:400`, `search:2s`); the level's registry entry
parses it and refuses what it does not understand.
"""

from __future__ import annotations

import hashlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from netcards.action import Action
from netcards.errors import BadConfig
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
LevelEntry = Callable[[Game[Any], str], BotFactory | None]
_LEVELS: dict[str, LevelEntry] = {}


def register_level(level: str, for_game: LevelEntry) -> None:
    """`for_game(game, setting)` returns a factory, or None when the level does not exist for that
    game; it raises BadConfig for a setting it does not understand ("" when none was given)."""
    _LEVELS[level] = for_game


def no_setting(level: str, by_game_id: Callable[[str], BotFactory | None]) -> LevelEntry:
    """The entry of a level that takes no setting: `by_game_id` names its bot for each game."""

    def for_game(game: Game[Any], setting: str) -> BotFactory | None:
        if setting:
            raise BadConfig(f"bot level '{level}' takes no setting (got '{setting}')")
        return by_game_id(game.id)

    return for_game


def bot_levels() -> tuple[str, ...]:
    _ensure_loaded()
    return tuple(_LEVELS)


def _entry(level: str) -> tuple[str, str, LevelEntry]:
    """A level's name, its setting ("" when none) and its registry entry; BadConfig if unknown."""
    _ensure_loaded()
    name, _, setting = level.partition(":")
    for_game = _LEVELS.get(name)
    if for_game is None:
        raise BadConfig(f"unknown bot level '{level}' (known: {', '.join(_LEVELS)})")
    return name, setting, for_game


def check_level(level: str) -> None:
    """BadConfig unless `level` (with its setting, if any) names a bot of at least one game."""
    from netcards.registry import all_games

    name, setting, for_game = _entry(level)
    if not any(for_game(game, setting) is not None for game in all_games().values()):
        raise BadConfig(f"no game has a '{name}' bot")


def make_bot(level: str, game: Game[Any], config: TableConfig, seat: int, seed: bytes) -> Bot:
    """A bot of `level` for `seat`; BadConfig names an unknown level."""
    name, setting, for_game = _entry(level)
    factory = for_game(game, setting)
    if factory is None:
        raise BadConfig(f"no '{name}' bot exists for {game.name}")
    return factory(game, config, seat, seed)


def _ensure_loaded() -> None:
    if not _LEVELS:
        from netcards.bots import heuristic, random_bot, search

        random_bot.register()
        heuristic.register()
        search.register()
