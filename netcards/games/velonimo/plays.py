"""Every play a hand can make that beats a value, in the order legal actions list them.

Random playouts ask this thousands of times a second, so the work is arranged to be done
once. The cards of one colour, or of one value, that a hand holds are a small set; the
combinations of such a set (at most 120, for seven cards) are built the first time it is seen
and kept (there are 1,680 sets of two cards or more). What a hand holds of each colour and
value is kept too while the hand is recent: a seat that passes keeps its hand and is asked
again on its next turn. Play objects are shared, never rebuilt.

The order is: single cards by id, then same-colour combinations colour by colour, then
same-value combinations in the order of their lowest card; within a colour or a value,
subsets in binary counting order of the cards' positions; the jersey variant of a play right
after it.
"""

from __future__ import annotations

from collections.abc import Sequence

from netcards.action import Action
from netcards.games.velonimo.actions import Play
from netcards.games.velonimo.cards import (
    ALL_CARDS,
    COLOUR,
    COLOURS,
    RUNNER_VALUES,
    RUNNERS,
    VALUE,
    runner,
)
from netcards.games.velonimo.combos import JERSEY_BONUS, combination_value

_SINGLE = tuple(Play((c,), False) for c in ALL_CARDS)
_LOWEST_COMBINATION = combination_value((0, RUNNER_VALUES))  # two cards, the lower a 1: 21
_SINGLE_IN_JERSEY = tuple(Play((c,), True) for c in ALL_CARDS)

# A hand's runners as two numbers of 8-bit fields: byte `colour` holds a bit per value (the
# combinations of that colour), byte `value - 1` a bit per colour (the combinations of that
# value). The eighth bit of each byte stays clear, so that one subtraction clears the lowest
# bit of every field at once: what is left is the fields with two cards or more.
_BY_COLOUR = tuple(1 << (8 * COLOUR[c] + VALUE[c] - 1) if c < RUNNERS else 0 for c in ALL_CARDS)
_BY_VALUE = tuple(1 << (8 * (VALUE[c] - 1) + COLOUR[c]) if c < RUNNERS else 0 for c in ALL_CARDS)
_FIELDS = len(COLOURS)  # as many colours as values
assert _FIELDS == RUNNER_VALUES
_ONES = int.from_bytes(b"\x01" * _FIELDS, "little")
_GUARDS = _ONES << 7
_SEVERAL = tuple(bits & (bits - 1) != 0 for bits in range(256))


def _several(fields: int) -> int:
    """Non-zero when some field has two bits or more."""
    return fields & ((fields | _GUARDS) - _ONES)


# The combinations of one set of cards: the plays, their jersey variants, their values, the
# lowest and the highest value.
_Group = tuple[tuple[Play, ...], tuple[Play, ...], tuple[int, ...], int, int]
_OF_COLOUR: list[list[_Group | None]] = [[None] * 128 for _ in range(_FIELDS)]
_OF_VALUE: list[list[_Group | None]] = [[None] * 128 for _ in range(_FIELDS)]

# What a hand can play, before any value to beat: its cards in id order (the single plays),
# its combinations set by set, and every play it can lead with. Keyed by the hand's ids in
# hand order; forgotten all at once when full.
_Hand = tuple[list[int], tuple[_Group, ...], tuple[Action, ...]]
_HANDS: dict[bytes, _Hand] = {}
_HANDS_KEPT = 1024


def plays(hand: Sequence[int], floor: int, jersey: bool) -> list[Action]:
    """Every play of `hand` worth more than `floor`, with the jersey variants if `jersey`."""
    key = bytes(hand)
    known = _HANDS.get(key)
    if known is None:
        if len(_HANDS) >= _HANDS_KEPT:
            _HANDS.clear()
        ordered = sorted(hand)
        groups = _groups(ordered) if len(ordered) > 1 else ()
        every: list[Action] = [_SINGLE[c] for c in ordered]
        for combinations in groups:
            every += combinations[0]
        known = _HANDS[key] = (ordered, groups, tuple(every))
    ordered, groups, leads = known
    if jersey:
        return _with_jersey(ordered, groups, floor)
    if not floor:
        return list(leads)
    out: list[Action] = [_SINGLE[c] for c in ordered if VALUE[c] > floor]
    if floor < _LOWEST_COMBINATION:  # every combination beats it: they follow the singles
        out += leads[len(ordered) :]
        return out
    for group_plays, _, values, low, high in groups:
        if low > floor:
            out += group_plays
        elif high > floor:
            out += [p for p, value in zip(group_plays, values, strict=True) if value > floor]
    return out


def _with_jersey(ordered: list[int], groups: tuple[_Group, ...], floor: int) -> list[Action]:
    out: list[Action] = []
    for card in ordered:
        value = VALUE[card]
        if value > floor:
            out.append(_SINGLE[card])
        if value + JERSEY_BONUS > floor and card < RUNNERS:
            out.append(_SINGLE_IN_JERSEY[card])
    for group, worn, values, _, _ in groups:
        for play, in_jersey, value in zip(group, worn, values, strict=True):
            if value > floor:
                out.append(play)
            if value + JERSEY_BONUS > floor:
                out.append(in_jersey)
    return out


def _groups(ordered: list[int]) -> tuple[_Group, ...]:
    """The combinations of a hand of two cards or more, colour by colour, then value by value."""
    by_colour = by_value = 0
    for card in ordered:
        by_colour |= _BY_COLOUR[card]
        by_value |= _BY_VALUE[card]
    groups: list[_Group] = []
    if _several(by_colour):
        for colour, bits in enumerate(by_colour.to_bytes(_FIELDS, "little")):
            if _SEVERAL[bits]:
                groups.append(_OF_COLOUR[colour][bits] or _colour_group(colour, bits))
    if _several(by_value):
        # In the order of their lowest card: lowest colour first.
        same_value = [
            (bits & -bits, value, bits)
            for value, bits in enumerate(by_value.to_bytes(_FIELDS, "little"))
            if _SEVERAL[bits]
        ]
        same_value.sort()
        for _, value, bits in same_value:
            groups.append(_OF_VALUE[value][bits] or _value_group(value, bits))
    return tuple(groups)


def _colour_group(colour: int, bits: int) -> _Group:
    cards = [runner(colour, v + 1) for v in range(_FIELDS) if bits >> v & 1]
    group = _OF_COLOUR[colour][bits] = _combinations(cards)
    return group


def _value_group(value: int, bits: int) -> _Group:
    cards = [runner(c, value + 1) for c in range(_FIELDS) if bits >> c & 1]
    group = _OF_VALUE[value][bits] = _combinations(cards)
    return group


def _combinations(cards: list[int]) -> _Group:
    """Every subset of two or more of `cards` (increasing ids), in binary counting order."""
    size = len(cards)
    subsets = [
        tuple(cards[i] for i in range(size) if mask >> i & 1)
        for mask in range(3, 1 << size)
        if mask & (mask - 1)  # a single card is listed with the singles
    ]
    values = tuple(combination_value(s) for s in subsets)
    return (
        tuple(Play(s, False) for s in subsets),
        tuple(Play(s, True) for s in subsets),
        values,
        min(values),
        max(values),
    )
