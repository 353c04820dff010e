"""Games by id. The one place that lists the titles the product ships."""

from __future__ import annotations

from typing import Any

from netcards.errors import UnknownGame
from netcards.game import Game


def _load() -> dict[str, Game[Any]]:
    from netcards.games.auf_achse import GAME as AUF_ACHSE
    from netcards.games.velonimo import GAME as VELONIMO
    from netcards.games.via_gladiola import GAME as VIA_GLADIOLA

    games: list[Game[Any]] = [VIA_GLADIOLA, VELONIMO, AUF_ACHSE]
    return {g.id: g for g in games}


_GAMES: dict[str, Game[Any]] | None = None


def all_games() -> dict[str, Game[Any]]:
    global _GAMES  # noqa: PLW0603
    if _GAMES is None:
        _GAMES = _load()
    return _GAMES


def get_game(game_id: str) -> Game[Any]:
    games = all_games()
    try:
        return games[game_id]
    except KeyError:
        raise UnknownGame(f"unknown game '{game_id}' (known: {', '.join(sorted(games))})") from None
