"""Rules-aware heuristic bots, one per game, each in its own module."""

from __future__ import annotations

from netcards.bots.base import BotFactory, no_setting, register_level


def _by_game() -> dict[str, BotFactory]:
    from netcards.bots.heuristic.auf_achse import AufAchseHeuristic
    from netcards.bots.heuristic.velonimo import VelonimoHeuristic
    from netcards.bots.heuristic.via_gladiola import ViaGladiolaHeuristic

    return {
        "via-gladiola": ViaGladiolaHeuristic,
        "velonimo": VelonimoHeuristic,
        "auf-achse": AufAchseHeuristic,
    }


def register() -> None:
    table = _by_game()
    register_level("heuristic", no_setting("heuristic", table.get))
