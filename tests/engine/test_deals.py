"""The same seed deals the same cards, whatever the engine's speed-ups: replays, journals, the
end-of-game audit and every published test vector rest on it. These deals were made by the
engine before it was tuned for speed, and must never change."""

from __future__ import annotations

import hashlib

import pytest

from netcards.registry import all_games, get_game
from netcards.rng import make_seed


@pytest.mark.parametrize(
    ("game_id", "hands", "first", "top_five"),
    [
        (
            "via-gladiola",
            [
                [0, 31, 59, 29, 52, 16, 24, 38],
                [60, 4, 6, 40, 27, 11, 34, 45],
                [19, 56, 39, 41, 35, 32, 57, 25],
            ],
            2,
            [22, 23, 54, 46, 7],
        ),
        (
            "velonimo",
            [
                [44, 42, 50, 5, 11, 23, 37, 51, 28, 1, 49],
                [18, 20, 10, 7, 0, 26, 14, 41, 46, 48, 12],
                [35, 34, 4, 36, 16, 6, 24, 32, 27, 45, 25],
            ],
            0,
            [],
        ),
        (
            "auf-achse",
            [
                [17, 44, 32, 33, 64, 11, 76, 43, 59, 86],
                [72, 74, 16, 25, 12, 103, 14, 39, 82, 20],
                [105, 106, 97, 80, 41, 58, 92, 90, 21, 73],
            ],
            0,
            [3, 9, 6, 48, 104],
        ),
    ],
)
def test_seed_1_deals_these_cards_to_three_players(
    game_id: str, hands: list[list[int]], first: int, top_five: list[int]
) -> None:
    game = get_game(game_id)
    deal = game.deal_record(game.setup(game.make_config(3), make_seed(1)))
    assert deal["hands"] == hands
    assert deal["first_player"] == first
    assert deal["draw_pile_top_last"][-5:] == top_five


def test_fifty_seeds_of_every_table_deal_as_they_always_have() -> None:
    digest = hashlib.sha256()
    for game_id in ("via-gladiola", "velonimo", "auf-achse"):
        game = all_games()[game_id]
        for players in range(game.min_players, game.max_players + 1):
            for seed in range(50):
                state = game.setup(game.make_config(players), make_seed(seed))
                digest.update(repr(game.deal_record(state)).encode())
    assert digest.hexdigest() == "052d82d0645f4b03b34f5b4ebb9345a2b35ccc257235ce58393bc28bb189a298"
