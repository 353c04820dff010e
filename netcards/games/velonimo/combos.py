"""What a play is worth, and every play a hand can make.

A play is one card at its own value, or two or more runners sharing a colour or a value,
worth 10 per card plus the lowest card. Hares never combine. The jersey adds 10 to a play of
runners. Cards are always listed in increasing id order: one play, one spelling, so that the
list of legal actions and the actions accepted by `apply` are the same set.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from netcards.errors import IllegalAction
from netcards.games.velonimo.cards import (
    CARD_COUNT,
    COLOUR,
    LEADER,
    VALUE,
    WATER_CARRIER,
    is_hare,
    label,
)

JERSEY_BONUS = 10
COMBINATION_STEP = 10


def combination_value(cards: Sequence[int]) -> int:
    """The value of a valid play (no jersey): a single card's own value, else 10 per card + lowest."""
    if len(cards) == 1:
        return VALUE[cards[0]]
    return COMBINATION_STEP * len(cards) + min(VALUE[c] for c in cards)


def check_increasing(cards: Sequence[int]) -> None:
    if any(a >= b for a, b in pairwise(cards)):
        raise IllegalAction("list the cards in increasing order, each card once")


def check_cards(cards: Sequence[int]) -> None:
    """Refuse a card list that is not a play whatever the hand: order, ids, combination rules."""
    if not cards:
        raise IllegalAction("a play needs at least one card")
    for card in cards:
        if not 0 <= card < CARD_COUNT:
            raise IllegalAction(f"there is no card {card}")
    check_increasing(cards)
    if len(cards) == 1:
        return
    if any(is_hare(c) for c in cards):
        raise IllegalAction("a hare is always played alone")
    same_colour = len({COLOUR[c] for c in cards}) == 1
    same_value = len({VALUE[c] for c in cards}) == 1
    if not (same_colour or same_value):
        raise IllegalAction(
            "a combination's cards must all share a colour or all share a value: "
            + ", ".join(label(c) for c in cards)
        )


def can_wear_jersey(cards: Sequence[int]) -> bool:
    """The jersey adds to runners only: never to a lone hare."""
    return not (len(cards) == 1 and is_hare(cards[0]))


def count_leaders(cards: Sequence[int]) -> int:
    return sum(1 for c in cards if not is_hare(c) and VALUE[c] == LEADER)


def count_water_carriers(cards: Sequence[int]) -> int:
    return sum(1 for c in cards if not is_hare(c) and VALUE[c] == WATER_CARRIER)


def _subsets(group: list[int]) -> list[tuple[int, ...]]:
    """Every subset of two or more cards of `group` (sorted ids), each in increasing order."""
    out: list[tuple[int, ...]] = []
    size = len(group)
    for mask in range(1, 1 << size):
        if mask & (mask - 1) == 0:  # a single card: listed once, as a single
            continue
        out.append(tuple(group[i] for i in range(size) if mask >> i & 1))
    return out


def all_plays(hand: Sequence[int]) -> list[tuple[tuple[int, ...], int]]:
    """Every play the hand can make, with its value without the jersey.

    Singles first (by id), then same-colour, then same-value combinations. Two different
    cards cannot share both a colour and a value, so no combination is listed twice.
    """
    ordered = sorted(hand)
    out: list[tuple[tuple[int, ...], int]] = [((c,), VALUE[c]) for c in ordered]
    by_colour: dict[int, list[int]] = {}
    by_value: dict[int, list[int]] = {}
    for card in ordered:
        if is_hare(card):
            continue
        by_colour.setdefault(COLOUR[card], []).append(card)
        by_value.setdefault(VALUE[card], []).append(card)
    for groups in (by_colour, by_value):
        for group in groups.values():
            if len(group) < 2:
                continue
            for subset in _subsets(group):
                out.append((subset, combination_value(subset)))
    return out
