"""The Auf Achse heuristic's yardstick, worked out the quick way, is the one its docstring defines."""

from __future__ import annotations

import math
import random

from netcards.bots.heuristic.auf_achse import (
    _DRAW_WEIGHT,
    _HAND_WEIGHT,
    _TOP,
    AufAchseHeuristic,
)
from netcards.games.auf_achse import GAME
from netcards.games.auf_achse.cards import CARD_COUNT
from netcards.games.auf_achse.scoring import run_state


def defined_worth(
    score: int, last: int, km: list[tuple[int, int]], future: float, skip: tuple[int, ...]
) -> float:
    """Score now, plus the highest km cards above the run's last (one per addition left, those
    in `skip` gone from the hand), scaled when fewer additions are left than cards, plus draws."""
    if future <= 0:
        return float(score)
    above = sorted(v for v, c in km if v > last and c not in skip)
    slots = min(len(above), math.ceil(future))
    chosen = above[len(above) - slots :]
    from_hand = sum(chosen) * min(1.0, future / slots) if slots else 0.0
    return score + _HAND_WEIGHT * from_hand + _DRAW_WEIGHT * future * max(0, _TOP - last - 10)


def test_the_worth_of_a_run_is_its_definition() -> None:
    config = GAME.make_config(4)
    bot = AufAchseHeuristic(GAME, config, 0, b"worth")
    rng = random.Random(11)
    for _ in range(3000):
        cards = rng.sample(range(CARD_COUNT), rng.randrange(0, 20))
        run, hand = cards[: len(cards) // 3], cards[len(cards) // 3 :]
        at = run_state(run, bot.kind, bot.value)
        km = bot._hand_km(hand)
        future = rng.choice([0.0, -1.0, 0.3, 1.0, 1.5, 2.0, 2.7, 4.0, 9.0])
        skip = tuple(rng.sample(hand, min(len(hand), rng.randrange(0, 4))))
        assert bot._worth(at, km, future, *skip) == defined_worth(at[0], at[1], km, future, skip)
