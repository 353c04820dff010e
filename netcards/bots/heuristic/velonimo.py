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

from collections.abc import Iterable, Sequence

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
from netcards.games.velonimo.cards import COLOUR, LEADER, VALUE, WATER_CARRIER, is_hare
from netcards.games.velonimo.combos import JERSEY_BONUS, combination_value

_FEW_CARDS = 5
_DANGER = 2
_CHEAP = 20
_DRAW_COST = 0.7


def moves(hand: Iterable[int]) -> int:
    """Plays needed to empty `hand`, taking the biggest colour or value group first."""
    rest = set(hand)
    count = 0
    while rest:
        groups: dict[tuple[int, int], list[int]] = {}
        for card in rest:
            if not is_hare(card):
                groups.setdefault((0, COLOUR[card]), []).append(card)
                groups.setdefault((1, VALUE[card]), []).append(card)
        best = max(groups.values(), key=len, default=[])
        if len(best) < 2:
            return count + len(rest)
        rest.difference_update(best)
        count += 1
    return count


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
        can_pass = any(isinstance(a, Pass) for a in legal)
        for play in plays:
            if len(play.cards) == len(hand) and not play.jersey:
                return play
        for play in plays:
            if len(play.cards) == len(hand):
                return play
        now = moves(hand)
        seat = view["seat"]
        sizes = view["hand_sizes"]
        closest = min((n for s, n in enumerate(sizes) if s != seat and n), default=99)
        draws_hurt = view["mode"] == "duel" and view["draw_pile"] > 0
        endgame = len(hand) <= _FEW_CARDS or closest <= _DANGER
        leading = not view["attack"]
        best: tuple[float, int] | None = None
        choice: Action | None = None
        for index, play in enumerate(plays):
            rest = [c for c in hand if c not in play.cards]
            after = moves(rest)
            score = float(now - after) * 10
            if draws_hurt:
                score -= 10 * _DRAW_COST * sum(VALUE[c] == WATER_CARRIER for c in play.cards)
            if any(VALUE[c] == LEADER and not is_hare(c) for c in play.cards):
                score += 2
            if play.jersey:
                score -= 0 if endgame else 8
            if leading and now == 2 and after == 1:
                score += play_value(play) / 5  # lead the stronger group, keep the last one
            else:
                score -= _strength(play.cards, play_value(play)) * (0.2 if endgame else 1.0)
            key = (score, -index)
            if best is None or key > best:
                best, choice = key, play
        if choice is None:
            return Pass()
        if can_pass and best is not None:
            assert isinstance(choice, Play)
            cheap = play_value(choice) <= _CHEAP
            if best[0] < 0 and not endgame:
                return Pass()
            if not (cheap or endgame or best[0] >= 5):
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
