"""Finding card ids in what a seat was sent, to check it against the hands it must not see."""

from __future__ import annotations

from typing import Any

CARD_KEYS = {
    "card",
    "cards",
    "hand",
    "hands",
    "final_hands",
    "gladiolas",
    "walk_pile",
    "discard",
    "taken",
    "run",
    "reward",
}
"""Keys under which the games put card ids (directly or in lists); other numbers are seats,
counts, scores or indices. The engine's own leak test covers every field of a view; these checks
look at what actually travels, after encryption and decoding."""


def leaves(data: Any, path: tuple[Any, ...] = ()) -> set[tuple[tuple[Any, ...], Any]]:
    if isinstance(data, dict):
        return {leaf for k, v in data.items() for leaf in leaves(v, (*path, k))}
    if isinstance(data, list | tuple):
        return {leaf for i, v in enumerate(data) for leaf in leaves(v, (*path, i))}
    return {(path, data)}


def card_leaves(data: Any) -> set[tuple[tuple[Any, ...], int]]:
    """(path, card id) for every int found under a card key."""
    out = set()
    for path, value in leaves(data):
        names = [k for k in path if isinstance(k, str)]
        if type(value) is int and names and names[-1] in CARD_KEYS:
            out.add((path, value))
    return out


def hands_of(game: Any, state: Any) -> dict[int, set[int]]:
    return {
        int(name.split(":")[1]): set(cards)
        for name, cards in game.locations(state).items()
        if name.startswith("hand:")
    }


def foreign_cards(
    before: dict[int, set[int]], after: dict[int, set[int]], seat: int, held: set[int]
) -> set[int]:
    """Cards of another seat's hand that `seat` may not know: in another hand both before and
    after the action, and never in `seat`'s own hand (`held`). A card that moved between hands
    (given, stolen, rewarded) is known to both sides of the move."""
    out: set[int] = set()
    for s, cards in after.items():
        if s != seat:
            out |= before.get(s, set()) & cards
    return out - held
