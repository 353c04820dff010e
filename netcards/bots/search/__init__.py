"""The search bot: information-set Monte Carlo search from the seat's view, for every game whose
rules can sample the hidden information (`Game.sample_state`)."""

from __future__ import annotations

from typing import Any

from netcards.bots.base import Bot, BotFactory
from netcards.bots.registry import register_level
from netcards.bots.search.bot import Analysis, SearchBot
from netcards.bots.search.budget import Budget, parse_budget
from netcards.game import Game, TableConfig

__all__ = ["Analysis", "SearchBot", "hint_bot"]


def _for_game(game: Game[Any], setting: str) -> BotFactory | None:
    budget = parse_budget(setting, game.id)
    if not game.can_sample:
        return None

    def factory(game: Game[Any], config: TableConfig, seat: int, seed: bytes) -> Bot:
        return SearchBot(game, config, seat, seed, budget)

    return factory


def hint_bot(
    game: Game[Any], config: TableConfig, seat: int, seconds: float, seed: bytes
) -> SearchBot:
    """The search bot a player asks for a hint: a time budget, so the answer comes when promised."""
    return SearchBot(game, config, seat, seed, Budget(seconds=seconds))


register_level("search", _for_game)
