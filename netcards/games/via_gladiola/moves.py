"""Via Gladiola's legal moves: from a hand, the walk pile's top card and the day.

One function for the rules (from the state), the clients (from their view) and the search
(from the decisions it imagines other seats made). The moves each card gives are tabled once
per top value and day.
"""

from __future__ import annotations

from collections.abc import Sequence

from netcards.action import Action
from netcards.games.via_gladiola.actions import GLADIOLA, REST, WALK
from netcards.games.via_gladiola.cards import (
    CARD_COUNT,
    DAYS,
    FINISH_VALUE,
    FIRST_GLADIOLA,
    FIRST_START,
    VALUES,
)

MAX_STEP = 15


def _moves_from(top: int, day4: bool) -> tuple[Action | None, ...]:
    """By card id, the action that card gives its holder with the walk pile at `top` (None: no
    action): walks within MAX_STEP above the top, and on day 4 the Gladiolas."""
    moves: list[Action | None] = [None] * CARD_COUNT
    for card in range(FIRST_GLADIOLA):
        if 0 < VALUES[card] - top <= MAX_STEP:
            moves[card] = WALK[card]
    if day4:
        for card in range(FIRST_GLADIOLA, FIRST_START):
            moves[card] = GLADIOLA[card]
    return tuple(moves)


_MOVES = tuple(
    tuple(_moves_from(top, day4) for top in range(FINISH_VALUE + 1)) for day4 in (False, True)
)


def legal_moves(hand: Sequence[int], top_card: int, day: int) -> list[Action]:
    """Walks in card order, then (day 4) Gladiolas, then Rest: every Gladiola's id is above
    every walkable card's, and Start cards are never in a hand."""
    moves = _MOVES[day == DAYS][VALUES[top_card]]
    out = []
    for card in sorted(hand):  # a loop: a comprehension with `:=` costs half as much again
        move = moves[card]
        if move is not None:
            out.append(move)
    out.append(REST)
    return out
