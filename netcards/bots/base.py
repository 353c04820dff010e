"""The bot interface and the registry of bot levels.

A bot is built for one seat of one table and is asked `choose(view, legal)`: the same two things a
human's client has. It never receives the state, so it cannot cheat, whoever runs it (the host
for a stand-in, a headless `netcards bot` client, a simulation).
"""

from __future__ import annotations

import hashlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar

from netcards.action import Action
from netcards.errors import BadConfig
from netcards.game import Game, TableConfig

BotFactory = Callable[[Game[Any], TableConfig, int, bytes], "Bot"]


class Bot(ABC):
    level: ClassVar[str]

    def __init__(self, game: Game[Any], config: TableConfig, seat: int, seed: bytes) -> None:
        self.game = game
        self.config = config
        self.seat = seat
        self.random = random.Random(hashlib.blake2b(seed, digest_size=16).digest())

    @abstractmethod
    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        """One of `legal`, chosen from what `view` shows."""


_LEVELS: dict[str, Callable[[str], BotFactory | None]] = {}


def register_level(level: str, for_game: Callable[[str], BotFactory | None]) -> None:
    """`for_game(game_id)` returns a factory, or None when the level does not exist for that game."""
    _LEVELS[level] = for_game


def bot_levels() -> tuple[str, ...]:
    _ensure_loaded()
    return tuple(_LEVELS)


def make_bot(level: str, game: Game[Any], config: TableConfig, seat: int, seed: bytes) -> Bot:
    """A bot of `level` for `seat`; BadConfig names an unknown level."""
    _ensure_loaded()
    for_game = _LEVELS.get(level)
    if for_game is None:
        raise BadConfig(f"unknown bot level '{level}' (known: {', '.join(_LEVELS)})")
    factory = for_game(game.id)
    if factory is None:
        raise BadConfig(f"no '{level}' bot exists for {game.name}")
    return factory(game, config, seat, seed)


def _ensure_loaded() -> None:
    if not _LEVELS:
        from netcards.bots import heuristic, random_bot

        random_bot.register()
        heuristic.register()
