"""The registry of bot levels by name: a leaf that imports none of the levels it lists.

Each level's module registers itself when it is imported (`register_level`), and the package
`netcards.bots` imports every level, so the table is whole once anything here is in use.
A level may take a setting after a colon (`search:400`, `search:2s`); the level's registry entry
parses it and refuses what it does not understand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from netcards.bots.base import Bot, BotFactory
from netcards.errors import BadConfig
from netcards.game import Game, TableConfig

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
    return tuple(_LEVELS)


def _entry(level: str) -> tuple[str, str, LevelEntry]:
    """A level's name, its setting ("" when none) and its registry entry; BadConfig if unknown."""
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
