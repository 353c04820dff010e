"""The random bot: a uniform choice among the legal actions. The baseline every bot must beat."""

from __future__ import annotations

from netcards.action import Action
from netcards.bots.base import Bot, BotFactory, History, View, no_setting, register_level


class RandomBot(Bot):
    level = "random"
    reads_view = False

    def choose(self, view: View, legal: list[Action], history: History = ()) -> Action:
        # A 53-bit float scaled to the list: uniform to well within 2**-40, and a third of the
        # cost of randrange, which simulations of random games feel.
        chance = self._random or self.random
        return legal[int(chance.random() * len(legal))]


def register() -> None:
    def for_game(game_id: str) -> BotFactory:
        return RandomBot

    register_level("random", no_setting("random", for_game))
