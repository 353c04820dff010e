"""The random bot: a uniform choice among the legal actions. The baseline every bot must beat."""

from __future__ import annotations

import hashlib

from netcards.action import Action
from netcards.bots.base import Bot, BotFactory, History, View
from netcards.bots.registry import no_setting, register_level

_MULTIPLIER = 6364136223846793005
_INCREMENT = 1442695040888963407
_MASK = (1 << 64) - 1


class RandomBot(Bot):
    """Its chance is a 64-bit linear congruential generator started from the bot's seed, not a
    `random.Random`: seeding a Mersenne Twister costs more than a whole random game's choices
    (simulations start a new game, so a new seed, for every bot, thousands of times a second).
    A choice takes the top 53 bits, whose period is the generator's whole 2**64, scaled to the
    list: uniform to well within 2**-40, and deterministic for a seed like every bot."""

    level = "random"
    reads_view = False
    _chance: int | None = None

    def new_game(self, seed: bytes) -> None:
        super().new_game(seed)
        self._chance = None

    def choose(self, view: View, legal: list[Action], history: History = ()) -> Action:
        chance = self._chance
        if chance is None:
            chance = int.from_bytes(hashlib.blake2b(self._seed, digest_size=8).digest(), "big")
        chance = (chance * _MULTIPLIER + _INCREMENT) & _MASK
        self._chance = chance
        return legal[((chance >> 11) * len(legal)) >> 53]


def _for_game(game_id: str) -> BotFactory:
    return RandomBot


register_level("random", no_setting("random", _for_game))
