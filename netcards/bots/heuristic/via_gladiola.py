"""A rules-aware Via Gladiola bot.

It scores every legal action by the blisters it expects to hold afterwards: a walk sheds the
card's blisters but draws cadence cards worth the average unseen card; a rest draws one; a
Gladiola sheds its blisters for free (day 4). Small steps are preferred because a big step
strands the bot's own lower cards for the rest of the day; Finish cards are kept until the walk
pile is high, because they end the day and bring every low card back into play.
"""

from __future__ import annotations

from typing import Any

from netcards.action import Action
from netcards.bots.base import Bot, History
from netcards.game import Game, TableConfig
from netcards.games.via_gladiola.actions import PlayGladiola, Rest, Walk
from netcards.games.via_gladiola.cards import DAYS, deck_for, is_finish

_STRANDED_WEIGHT = 0.35
_STEP_WEIGHT = 0.02


class ViaGladiolaHeuristic(Bot):
    level = "heuristic"

    def __init__(self, game: Game[Any], config: TableConfig, seat: int, seed: bytes) -> None:
        super().__init__(game, config, seat, seed)
        deck = deck_for(config.options.get("deck"))
        self.value = deck.value
        self.blisters = deck.blisters

    def _unseen_mean(self, view: dict[str, Any]) -> float:
        """Mean blisters of the cards this seat has not seen: what a draw is expected to bring."""
        seen = set(view["hand"]) | set(view["walk_pile"]) | set(view["gladiolas"])
        for day in view["finished_days"]:
            seen.update(day["cards"])
        pool = [b for c, b in enumerate(self.blisters[:63]) if c not in seen]
        return sum(pool) / len(pool) if pool else 0.0

    def choose(self, view: dict[str, Any], legal: list[Action], history: History = ()) -> Action:
        draw_mean = self._unseen_mean(view)
        can_draw = view["draw_pile"] > 0 or bool(view["finished_days"])
        top = view["top_value"]
        hand = view["hand"]
        best: tuple[float, int] | None = None
        choice = legal[0]
        for index, action in enumerate(legal):
            cost = self._cost(action, view, hand, top, draw_mean if can_draw else 0.0)
            key = (cost, index)
            if best is None or key < best:
                best, choice = key, action
        return choice

    def _cost(
        self, action: Action, view: dict[str, Any], hand: list[int], top: int, draw_mean: float
    ) -> float:
        if isinstance(action, Rest):
            return draw_mean
        if isinstance(action, PlayGladiola):
            return -float(self.blisters[action.card]) - 0.5
        assert isinstance(action, Walk)
        card = action.card
        step = self.value[card] - top
        draws = (step + 4) // 5 - 1
        cost = draws * draw_mean - self.blisters[card] + _STEP_WEIGHT * step
        if is_finish(card):
            if view["day"] == DAYS:
                return cost - 0.25  # ending the game now: no more draws for anybody
            # Ending the day is worth it when the pile is high and little of the hand can move.
            movable = sum(1 for c in hand if c != card and 0 < self.value[c] - top <= 15)
            return cost - 1.0 + 0.8 * movable
        stranded = sum(
            self.blisters[c]
            for c in hand
            if c != card and top < self.value[c] <= self.value[card] and not is_finish(c)
        )
        return cost + _STRANDED_WEIGHT * stranded
