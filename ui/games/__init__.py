"""One screen per game, found by game id."""

from __future__ import annotations

from typing import Any


def screen_class(game_id: str) -> Any:
    from ui.games.auf_achse import AufAchseScreen
    from ui.games.velonimo import VelonimoScreen
    from ui.games.via_gladiola import ViaGladiolaScreen

    screens: dict[str, Any] = {
        "auf-achse": AufAchseScreen,
        "velonimo": VelonimoScreen,
        "via-gladiola": ViaGladiolaScreen,
    }
    return screens.get(game_id)
