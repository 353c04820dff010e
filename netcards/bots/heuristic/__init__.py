"""Rules-aware heuristic bots, one per game, each in its own module."""

from __future__ import annotations

from functools import cache

from netcards.bots.base import BotFactory
from netcards.bots.registry import no_setting, register_level


@cache
def _by_game() -> dict[str, BotFactory]:
    from netcards.bots.heuristic.auf_achse import AufAchseHeuristic
    from netcards.bots.heuristic.velonimo import VelonimoHeuristic
    from netcards.bots.heuristic.via_gladiola import ViaGladiolaHeuristic

    return {
        "via-gladiola": ViaGladiolaHeuristic,
        "velonimo": VelonimoHeuristic,
        "auf-achse": AufAchseHeuristic,
    }


def _for_game(game_id: str) -> BotFactory | None:
    return _by_game().get(game_id)


register_level("heuristic", no_setting("heuristic", _for_game))
