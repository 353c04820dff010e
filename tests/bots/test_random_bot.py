"""The random bot: every legal action equally likely, the same choices for the same seed, and
a kept bot's next game the same as a new bot's."""

from __future__ import annotations

from collections import Counter

from netcards.action import Action
from netcards.bots.base import NO_VIEW
from netcards.bots.registry import make_bot
from netcards.games.via_gladiola.actions import WALK
from netcards.registry import get_game
from netcards.rng import make_seed

LEGAL: list[Action] = [WALK[card] for card in range(7)]


def choices(seed: bytes, count: int) -> list[Action]:
    game = get_game("via-gladiola")
    bot = make_bot("random", game, game.make_config(2), 0, seed)
    return [bot.choose(NO_VIEW, LEGAL) for _ in range(count)]


def test_every_legal_action_is_about_equally_likely() -> None:
    counts = Counter(a for s in range(400) for a in choices(make_seed(s), 50))
    expected = 400 * 50 / len(LEGAL)
    chi_square = sum((counts[a] - expected) ** 2 / expected for a in LEGAL)
    assert set(counts) == set(LEGAL)
    assert chi_square < 22.5  # 6 degrees of freedom: p = 0.001


def test_each_choice_does_not_follow_from_the_last() -> None:
    """Pairs of consecutive choices are as often the same as chance says (a short-period or
    badly mixed generator repeats itself)."""
    runs = [choices(make_seed(s), 100) for s in range(200)]
    pairs = [(run[i], run[i + 1]) for run in runs for i in range(0, 100, 2)]
    same = sum(a == b for a, b in pairs)
    expected = len(pairs) / len(LEGAL)
    assert abs(same - expected) < 4 * (expected * (1 - 1 / len(LEGAL))) ** 0.5


def test_the_same_seed_the_same_choices_and_a_new_game_starts_afresh() -> None:
    seed, other = make_seed("a"), make_seed("b")
    assert choices(seed, 30) == choices(seed, 30) != choices(other, 30)
    game = get_game("via-gladiola")
    kept = make_bot("random", game, game.make_config(2), 0, other)
    [kept.choose(NO_VIEW, LEGAL) for _ in range(5)]
    kept.new_game(seed)
    assert [kept.choose(NO_VIEW, LEGAL) for _ in range(30)] == choices(seed, 30)
