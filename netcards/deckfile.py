"""Reading deck files: TOML text in, plain data out, every mistake named.

Decks are data so that owners of a printed game can load their own card list. The engine does
no I/O: callers read the file and hand its text over (it travels as the `deck` table option).
"""

from __future__ import annotations

import tomllib
from typing import Any

from netcards.errors import BadDeck


def load_toml(text: str, game_id: str) -> dict[str, Any]:
    """Parse a deck file and check that it is meant for `game_id`."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BadDeck(f"deck file is not valid TOML: {exc}") from None
    game = data.get("game")
    if game != game_id:
        raise BadDeck(f"deck file is for game {game!r}, not '{game_id}' (set game = \"{game_id}\")")
    return data


def int_in_range(value: Any, where: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadDeck(f"deck file: {where} must be a whole number, not {value!r}")
    if not lo <= value <= hi:
        raise BadDeck(f"deck file: {where} must be between {lo} and {hi}, not {value}")
    return value


def table(data: dict[str, Any], key: str) -> dict[str, Any]:
    section = data.get(key)
    if not isinstance(section, dict):
        raise BadDeck(f"deck file: missing section [{key}]")
    return section


def int_list(
    section: dict[str, Any], key: str, where: str, count: int, lo: int, hi: int
) -> list[int]:
    values = section.get(key)
    if not isinstance(values, list):
        raise BadDeck(f"deck file: {where} needs a list '{key}'")
    if len(values) != count:
        raise BadDeck(f"deck file: {where}.{key} must list {count} cards, not {len(values)}")
    return [int_in_range(v, f"{where}.{key}[{i}]", lo, hi) for i, v in enumerate(values)]


def no_extra_keys(section: dict[str, Any], where: str, allowed: set[str]) -> None:
    extra = sorted(set(section) - allowed)
    if extra:
        raise BadDeck(f"deck file: unknown key '{extra[0]}' in {where}")
