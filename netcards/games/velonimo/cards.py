"""Velonimo's 55 shuffled cards and what each one is.

Ids are fixed by position so that logs and clients agree without a deck file: runner ids
0-48 are `colour * 7 + value - 1` (so sorting ids sorts a colour's cards by value), the six
hares are 49-54 (values 25 to 50). The polka-dot jersey is not a card: it is never shuffled,
dealt or stolen, so it lives in the state as a public marker and not in this catalogue.
"""

from __future__ import annotations

from typing import Any

COLOURS = ("red", "orange", "yellow", "green", "blue", "purple", "brown")
RUNNER_VALUES = 7
RUNNERS = len(COLOURS) * RUNNER_VALUES
HARE_VALUES = (25, 30, 35, 40, 45, 50)
CARD_COUNT = RUNNERS + len(HARE_VALUES)
ALL_CARDS = tuple(range(CARD_COUNT))

LEADER = 1
WATER_CARRIER = 2

# The animals the rule sheet names; the other runners are only known by their number.
ANIMALS = {1: "turtle", 2: "dromedary", 5: "tiger"}

VALUE: tuple[int, ...] = tuple(c % RUNNER_VALUES + 1 for c in range(RUNNERS)) + HARE_VALUES
COLOUR: tuple[int, ...] = tuple(c // RUNNER_VALUES for c in range(RUNNERS)) + (-1,) * len(
    HARE_VALUES
)


def is_hare(card: int) -> bool:
    return card >= RUNNERS


def runner(colour: int, value: int) -> int:
    """The id of the runner of `colour` (index into COLOURS) and `value` (1-7)."""
    return colour * RUNNER_VALUES + value - 1


def hare(value: int) -> int:
    """The id of the hare worth `value`."""
    return RUNNERS + HARE_VALUES.index(value)


def label(card: int) -> str:
    """A short human name for messages and logs: 'red 4', 'hare 35'."""
    if is_hare(card):
        return f"hare {VALUE[card]}"
    return f"{COLOURS[COLOUR[card]]} {VALUE[card]}"


def card_name(card: int) -> str:
    """`label` for any number a client may send, card or not."""
    return label(card) if 0 <= card < CARD_COUNT else f"card {card}"


def catalogue() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for card in ALL_CARDS:
        if is_hare(card):
            out.append(
                {"id": card, "kind": "hare", "value": VALUE[card], "colour": None, "animal": "hare"}
            )
        else:
            out.append(
                {
                    "id": card,
                    "kind": "runner",
                    "value": VALUE[card],
                    "colour": COLOURS[COLOUR[card]],
                    "animal": ANIMALS.get(VALUE[card]),
                }
            )
    return out
