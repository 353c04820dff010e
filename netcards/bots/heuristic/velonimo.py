"""A rules-aware Velonimo bot.

Its yardstick is the number of plays its hand still needs ("moves": the hand split greedily
into same-colour and same-value combinations, the rest as singles). It leads with its weakest
group and keeps hares and big combinations to win attacks later; it follows with the cheapest
play that sheds a move, but passes when that would spend strength it needs while it still
holds many cards and nobody is close to going out. With two moves left it plays the stronger
one first, to win the attack and go out with the other. Leaders aim at the opponent with the
fewest cards and give back the cards that fit nothing; the jersey is kept for the last attacks;
in the duel it avoids drawing with dromedaries and hands the reward to the opponent unless the
card fits its own hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from netcards.action import Action
from netcards.bots.base import Bot, History, View
from netcards.games.velonimo.actions import (
    ChooseLeader,
    ChooseVictim,
    GiveBack,
    GiveReward,
    Pass,
    Play,
)
from netcards.games.velonimo.cards import (
    ALL_CARDS,
    COLOUR,
    RUNNER_VALUES,
    RUNNERS,
    VALUE,
    WATER_CARRIER,
    is_hare,
)
from netcards.games.velonimo.combos import JERSEY_BONUS, combination_value, play_facts

_FEW_CARDS = 5
_DANGER = 2
_CHEAP = 20
_DRAW_COST = 0.7


# The hand as a bit mask (bit = card id). A group is a colour (0-6) or a value (7 + value - 1).
_GROUP_OF = tuple(
    (COLOUR[c], RUNNER_VALUES + VALUE[c] - 1) if c < RUNNERS else (-1, -1) for c in ALL_CARDS
)
_GROUPS = tuple(
    sum(1 << c for c in range(RUNNERS) if group in _GROUP_OF[c])
    for group in range(2 * RUNNER_VALUES)
)
_MOVES: dict[tuple[int, ...], int] = {}
_MOVES_OF_SORTED: dict[int, int] = {}
_MOVES_KEPT = 100_000
K = TypeVar("K")


def moves(hand: Sequence[int]) -> int:
    """Plays needed to empty `hand`, taking the biggest colour or value group first.

    Of equal groups, the one whose first card comes first in the order a set of the hand's
    cards lists them (then colour before value): the bot has always broken ties that way, and
    keeping it keeps its play the same. Remembered per hand: a search asks about the same
    hands again and again.
    """
    return _remembered(_MOVES, tuple(hand), hand)


def _moves_of_sorted(cards: list[int], mask: int) -> int:
    """`moves(cards)` for cards in rising order, whose bit mask is `mask`: the set order, and
    so the count, depends on the cards alone, so the mask is enough to remember it by."""
    return _remembered(_MOVES_OF_SORTED, mask, cards)


def _remembered(memory: dict[K, int], key: K, cards: Sequence[int]) -> int:
    known = memory.get(key)
    if known is None:
        if len(memory) >= _MOVES_KEPT:
            memory.clear()  # forgotten all at once: cheaper than keeping the recent ones
        known = memory[key] = _greedy(cards)
    return known


def _greedy(cards: Sequence[int]) -> int:
    """The count of `moves`. Group sizes are counted once and kept up to date as groups go;
    the set order of the cards is only needed to break a tie."""
    sizes = [0] * len(_GROUPS)
    mask = 0
    for card in cards:
        mask |= 1 << card
        if card < RUNNERS:
            colour, value = _GROUP_OF[card]
            sizes[colour] += 1
            sizes[value] += 1
    order: list[int] | None = None
    count = 0
    while True:
        most = max(sizes)
        if most < 2:
            return count + mask.bit_count()
        group = sizes.index(most)
        if sizes.count(most) > 1:
            if order is None:
                order = list(set(cards))
            group = _first_group(order, mask, sizes, most)
        gone = mask & _GROUPS[group]
        mask ^= gone
        while gone:
            low = gone & -gone
            colour, value = _GROUP_OF[low.bit_length() - 1]
            sizes[colour] -= 1
            sizes[value] -= 1
            gone ^= low
        count += 1


def _first_group(order: list[int], mask: int, sizes: list[int], most: int) -> int:
    """Of the groups of size `most`, the first the original dict of groups listed: by first
    card in set order still in the hand, its colour before its value."""
    for card in order:
        if mask >> card & 1 and card < RUNNERS:
            colour, value = _GROUP_OF[card]
            if sizes[colour] == most:
                return colour
            if sizes[value] == most:
                return value
    raise AssertionError("a group of that size has a card in the hand")


def _strength(cards: Sequence[int], value: int) -> float:
    """How precious a play is for winning attacks later."""
    if len(cards) == 1 and is_hare(cards[0]):
        return value / 2
    if len(cards) >= 3:
        return value / 2
    return value / 4


class VelonimoHeuristic(Bot):
    level = "heuristic"

    def choose(self, view: View, legal: list[Action], history: History = ()) -> Action:
        first = legal[0]
        if isinstance(first, ChooseVictim):
            return self._victim(view, legal)
        if isinstance(first, GiveBack):
            return self._give_back(view, legal)
        if isinstance(first, ChooseLeader):
            return self._next_leader(view, legal)
        if isinstance(first, GiveReward):
            return self._reward(view, legal)
        return self._play(view, legal)

    # -- playing ---------------------------------------------------------------------------------

    def _play(self, view: View, legal: list[Action]) -> Action:
        hand: list[int] = view["hand"]
        plays = [a for a in legal if isinstance(a, Play)]
        can_pass = len(plays) < len(legal)  # the play phase's only other action is to pass
        size = len(hand)
        whole_in_jersey: Action | None = None
        for play in plays:
            if len(play.cards) == size:
                if not play.jersey:
                    return play
                whole_in_jersey = whole_in_jersey or play
        if whole_in_jersey is not None:
            return whole_in_jersey
        now = moves(hand)
        seat = view["seat"]
        sizes = view["hand_sizes"]
        closest = min((n for s, n in enumerate(sizes) if s != seat and n), default=99)
        draws_hurt = view["mode"] == "duel" and view["draw_pile"] > 0
        endgame = size <= _FEW_CARDS or closest <= _DANGER
        leading = not view["attack"]
        last_two = leading and now == 2
        strength_weight = 0.2 if endgame else 1.0
        jersey_cost = 0 if endgame else 8
        best: float | None = None
        choice: Action | None = None
        whole = 0
        for card in hand:
            whole |= 1 << card
        known_moves = _MOVES_OF_SORTED.get
        for play in plays:
            cards = play.cards
            value, leaders, water_carriers = play_facts(cards)
            jersey = play.jersey
            if jersey:
                value += JERSEY_BONUS
            rest = whole
            for card in cards:
                rest ^= 1 << card
            after = known_moves(rest)
            if after is None:
                after = _moves_of_sorted([c for c in hand if c not in cards], rest)
            score = float(now - after) * 10
            if draws_hurt:
                score -= 10 * _DRAW_COST * water_carriers
            if leaders:
                score += 2
            if jersey:
                score -= jersey_cost
            if last_two and after == 1:
                score += value / 5  # lead the stronger group, keep the last one
            else:
                score -= _strength(cards, value) * strength_weight
            if best is None or score > best:  # the first of equal scores, as legal lists them
                best, choice = score, play
        if choice is None:
            return Pass()
        if can_pass and best is not None:
            assert isinstance(choice, Play)
            cheap = play_value(choice) <= _CHEAP
            if best < 0 and not endgame:
                return Pass()
            if not (cheap or endgame or best >= 5):
                return Pass()
        return choice

    # -- the other decisions -------------------------------------------------------------------

    def _victim(self, view: View, legal: list[Action]) -> Action:
        sizes = view["hand_sizes"]
        totals = view["totals"]

        def key(action: Action) -> tuple[int, int]:
            assert isinstance(action, ChooseVictim)
            return (sizes[action.seat], -totals[action.seat])

        return min(legal, key=key)

    def _give_back(self, view: View, legal: list[Action]) -> Action:
        """One card at a time: the one whose loss leaves the fewest moves, then the lowest."""
        hand = view["hand"]
        best: tuple[float, int] | None = None
        choice = legal[0]
        for index, action in enumerate(legal):
            assert isinstance(action, GiveBack)
            rest = [c for c in hand if c != action.card]
            score = -moves(rest) * 10 - VALUE[action.card] / 10
            key = (score, -index)
            if best is None or key > best:
                best, choice = key, action
        return choice

    def _next_leader(self, view: View, legal: list[Action]) -> Action:
        sizes = view["hand_sizes"]
        totals = view["totals"]

        def key(action: Action) -> tuple[int, int]:
            assert isinstance(action, ChooseLeader)
            return (-sizes[action.seat], totals[action.seat])

        return min(legal, key=key)

    def _reward(self, view: View, legal: list[Action]) -> Action:
        hand = view["hand"]
        card = view["reward"]
        seat = view["seat"]
        keep = moves([*hand, card]) == moves(hand) or (is_hare(card) and VALUE[card] >= 45)
        if keep and VALUE[card] != WATER_CARRIER:
            return GiveReward(seat)
        return GiveReward(1 - seat)


def play_value(play: Play) -> int:
    return combination_value(play.cards) + (JERSEY_BONUS if play.jersey else 0)
