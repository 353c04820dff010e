"""A rules-aware Via Gladiola bot.

It scores every legal action by the blisters it expects to hold afterwards: a walk sheds the
card's blisters but draws cadence cards worth the average unseen card; a rest draws one; a
Gladiola sheds its blisters for free (day 4). Small steps are preferred because a big step
strands the bot's own lower cards for the rest of the day; Finish cards are kept until the walk
pile is high, because they end the day and bring every low card back into play.
"""

from __future__ import annotations

import math
from typing import Any

from netcards.action import Action
from netcards.bots.base import Bot, History, View
from netcards.game import Game, TableConfig
from netcards.games.via_gladiola.actions import PlayGladiola, Rest, Walk
from netcards.games.via_gladiola.cards import (
    DAYS,
    FIRST_FINISH,
    FIRST_GLADIOLA,
    FIRST_START,
    deck_for,
)

_STRANDED_WEIGHT = 0.35
_STEP_WEIGHT = 0.02


class ViaGladiolaHeuristic(Bot):
    level = "heuristic"

    def __init__(self, game: Game[Any], config: TableConfig, seat: int, seed: bytes) -> None:
        super().__init__(game, config, seat, seed)
        deck = deck_for(config.options.get("deck"))
        self.value = deck.value
        self.blisters = deck.blisters
        self.draw_blisters = sum(deck.blisters[:FIRST_START])

    def _unseen_mean(self, view: View, finished: list[dict[str, Any]]) -> float:
        """Mean blisters of the cards this seat has not seen: what a draw is expected to bring.

        Every card is in one place, so the seen cards are the hand, the walk pile, the
        Gladiolas and the finished days, and the unseen ones all the others of the draw pile's
        63. The walk pile and each finished day start with their Start card, which has no
        blisters and is not one of the 63."""
        seen = [*view["hand"], *view["walk_pile"], *view["gladiolas"]]
        for day in finished:
            seen += day["cards"]
        left = FIRST_START - (len(seen) - 1 - len(finished))
        if not left:
            return 0.0
        return (self.draw_blisters - sum(map(self.blisters.__getitem__, seen))) / left

    def choose(self, view: View, legal: list[Action], history: History = ()) -> Action:
        value, blisters = self.value, self.blisters
        finished = view["finished_days"]
        draw_mean = self._unseen_mean(view, finished) if view["draw_pile"] > 0 or finished else 0.0
        top = view["top_value"]
        # The walks come first in `legal`, in rising order, and they are exactly the hand's cards
        # within 15 of the top: the cards a walk strands are the walks listed before it.
        walks = -1  # counted when a Finish card asks
        stranded = 0
        best = math.inf
        choice = legal[0]
        for action in legal:
            kind = type(action)
            if kind is Rest:
                cost = draw_mean
            elif kind is PlayGladiola:
                cost = -float(blisters[action.card]) - 0.5  # type: ignore[attr-defined]
            else:
                assert isinstance(action, Walk)
                card = action.card
                step = value[card] - top
                draws = (step + 4) // 5 - 1
                cost = draws * draw_mean - blisters[card] + _STEP_WEIGHT * step
                if FIRST_FINISH <= card < FIRST_GLADIOLA:
                    if view["day"] == DAYS:
                        cost -= 0.25  # ending the game now: no more draws for anybody
                    else:
                        # Ending the day is worth it when the pile is high and little of the
                        # hand can move (every other walk could).
                        if walks < 0:
                            walks = sum(1 for other in legal if type(other) is Walk)
                        cost = cost - 1.0 + 0.8 * (walks - 1)
                else:
                    cost += _STRANDED_WEIGHT * stranded
                    stranded += blisters[card]
            if cost < best:  # the first of equal costs, as legal lists them
                best, choice = cost, action
        return choice
