"""A rules-aware Auf Achse bot.

It values a run by what it would score now plus what the cards still in hand could add in the
rounds the stage probably has left (guessed from the odometer's distance to the target), so it
starts runs low and climbs, keeps a high card for the likely last round, bridges with a rest card
when nothing fits and restarts low after a break it cannot avoid. On the odometer it gives up the
card it will miss least, weighed against what the card does there: km shorten the stage (good
when its run has nowhere left to climb), Lost freight lengthens it, a Level crossing costs every
run its last card (good when its own last card broke its run, bad right after a big card), and a
Free road gives every run more cards (good when its hand fits its run).
"""

from __future__ import annotations

import math
from typing import Any

from netcards.action import Action
from netcards.bots.base import Bot, History, View
from netcards.game import Game, TableConfig
from netcards.games.auf_achse.actions import AddToRun, FreeRoad, PlayOdometer
from netcards.games.auf_achse.cards import (
    FREE_ROAD_CARDS,
    KM,
    LEVEL_CROSSING,
    LOST_FREIGHT,
    LOST_FREIGHT_KM,
    REST,
    deck_for,
)
from netcards.games.auf_achse.scoring import RunState, extend_run, run_state

_KM_PER_CARD = 32.0  # what one odometer card adds on average, Lost freight and duds included
_HAND_WEIGHT = 0.65  # how much of a fitting card in hand a future round is expected to turn into km
_DRAW_WEIGHT = 0.15  # what a future round brings from the draw pile, per km of headroom
_OTHER_LAST_CARD = 35.0  # what a Level crossing is guessed to take from each other run
_OTHER_FREE_CARD = 25.0  # what a Free road card is guessed to bring each other run
_OTHER_ROUND = 20.0  # what one more round is guessed to bring a typical other run
_TOP = 120


class AufAchseHeuristic(Bot):
    level = "heuristic"
    other_round = _OTHER_ROUND

    def __init__(self, game: Game[Any], config: TableConfig, seat: int, seed: bytes) -> None:
        super().__init__(game, config, seat, seed)
        deck = deck_for(config.options.get("deck"))
        self.kind = deck.kind
        self.value = deck.value

    # -- how good a run is -------------------------------------------------------------------------

    def _rounds_left(self, view: View, reveals_pending: int) -> float:
        """Run additions the stage probably still has after the current one."""
        per_round: float = view["players"] * _KM_PER_CARD
        remaining: float = view["target"] - view["total"] - reveals_pending * _KM_PER_CARD
        return max(0.0, remaining / per_round)

    def _worth(self, at: RunState, km: list[tuple[int, int]], future: float, *skip: int) -> float:
        """Score now (of a run in state `at`) plus the guessed value of `future` more additions
        from the hand's km cards `km` ((value, card), rising; those in `skip` have left it) and
        draws."""
        score, last, _ = at
        if future <= 0:
            return float(score)
        # The highest cards above the run's last, one per addition: walked down from the top,
        # as few as the additions left (often one or two of a hand's dozen).
        wanted = math.ceil(future)
        slots = total = 0
        for value, card in reversed(km):
            if value <= last:
                break
            if card in skip:
                continue
            total += value
            slots += 1
            if slots == wanted:
                break
        from_hand = total * min(1.0, future / slots) if slots else 0.0
        return score + _HAND_WEIGHT * from_hand + _DRAW_WEIGHT * future * max(0, _TOP - last - 10)

    def _hand_km(self, hand: list[int]) -> list[tuple[int, int]]:
        kind, value = self.kind, self.value
        return sorted((value[c], c) for c in hand if kind[c] == KM)

    def _extend(self, at: RunState, *cards: int) -> RunState:
        for card in cards:
            at = extend_run(at, card, self.kind, self.value)
        return at

    # -- choosing --------------------------------------------------------------------------------------

    def choose(self, view: View, legal: list[Action], history: History = ()) -> Action:
        first = legal[0]
        if isinstance(first, PlayOdometer):
            return self._odometer(view, legal)
        at = run_state(view["run"], self.kind, self.value)
        km = self._hand_km(view["hand"])
        if isinstance(first, AddToRun):
            future = self._rounds_left(view, view["players"])
        else:
            future = self._rounds_left(view, len(view["odometer_face_down"]))
        best = first
        best_worth = -math.inf
        kind, value, worth_of = self.kind, self.value, self._worth
        for action in legal:
            if isinstance(action, AddToRun):
                card = action.card
                worth = worth_of(extend_run(at, card, kind, value), km, future, card)
            else:
                cards = _cards(action)
                worth = worth_of(self._extend(at, *cards), km, future, *cards)
            if worth > best_worth:
                best, best_worth = action, worth
        return best

    def _odometer(self, view: View, legal: list[Action]) -> Action:
        run: list[int] = view["run"]
        hand: list[int] = view["hand"]
        at = run_state(run, self.kind, self.value)
        km = self._hand_km(hand)
        future = self._rounds_left(view, view["players"])
        now = self._worth(at, km, future)
        others = [n for s, n in enumerate(view["run_lengths"]) if s != self.seat]
        others_with_runs = sum(1 for n in others if n) / max(1, len(others))
        # How much one more round is worth to this run: the sign says whether to stretch the stage.
        longer = self._worth(at, km, future + 1) - now
        stretch = longer - self.other_round
        best = legal[0]
        best_gain = -math.inf
        for action in legal:
            assert isinstance(action, PlayOdometer)
            card = action.card
            kind = self.kind[card]
            keep = now - self._worth(at, km, future, card)
            if kind == KM:
                effect = -stretch * self.value[card] / (view["players"] * _KM_PER_CARD)
            elif kind == LOST_FREIGHT:
                lost = min(view["total"], LOST_FREIGHT_KM)
                effect = stretch * lost / (view["players"] * _KM_PER_CARD)
            elif kind == LEVEL_CROSSING:
                shorter = run_state(run[:-1], self.kind, self.value)
                mine = self._worth(shorter, km, future, card) - self._worth(at, km, future, card)
                effect = mine + _OTHER_LAST_CARD * others_with_runs
            elif kind == REST:
                effect = 0.0
            else:
                count = FREE_ROAD_CARDS[kind]
                effect = self._free_road_gain(at, hand, km, future, count, card) - (
                    _OTHER_FREE_CARD * count
                )
            gain = effect - keep
            if gain > best_gain:
                best, best_gain = action, gain
        return best

    def _free_road_gain(
        self,
        at: RunState,
        hand: list[int],
        km: list[tuple[int, int]],
        future: float,
        count: int,
        played: int,
    ) -> float:
        """What adding `count` of the best fitting cards of `hand` (but `played`, which goes on
        the odometer) at once would bring this run."""
        base = self._worth(at, km, future, played)
        best = 0.0
        for first in hand:
            if first == played:
                continue
            after_first = self._extend(at, first)
            if count == 1:
                best = max(best, self._worth(after_first, km, future, played, first) - base)
                continue
            for second in hand:
                if second in (played, first):
                    continue
                after = self._extend(after_first, second)
                best = max(best, self._worth(after, km, future, played, first, second) - base)
        return best


def _cards(action: Action) -> tuple[int, ...]:
    assert isinstance(action, FreeRoad)
    return action.cards
