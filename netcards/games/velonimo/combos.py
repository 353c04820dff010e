"""What a play is worth, and whether a list of cards is a play at all.

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


PlayFacts = tuple[int, int, int]
"""A play's value (without the jersey), its leaders and its water carriers."""

_FACTS: dict[tuple[int, ...], PlayFacts] = {}


def play_facts(cards: tuple[int, ...]) -> PlayFacts:
    """Check that `cards` make a play (IllegalAction if not) and say what it does.

    Remembered per valid card list, of which there are about 22,600 in all, so that `apply`
    checks a play it has seen before with one lookup.
    """
    facts = _FACTS.get(cards)
    if facts is None:
        check_cards(cards)
        facts = (combination_value(cards), count_leaders(cards), count_water_carriers(cards))
        _FACTS[cards] = facts
    return facts
