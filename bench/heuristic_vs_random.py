"""How often one heuristic bot beats random bots, per player count.

Run: `python -m bench.heuristic_vs_random velonimo --games 1000`. The heuristic bot sits in
every seat in turn (an equal share of the games each), so a first-player advantage cannot
flatter it; the figure to beat is the fair share, 1 / players.
"""

from __future__ import annotations

import argparse
import time

from netcards.registry import get_game
from netcards.simulate import simulate


def win_rate(game_id: str, players: int, games: int, seed: int) -> float:
    game = get_game(game_id)
    config = game.make_config(players)
    per_seat = games // players
    wins = 0.0
    for seat in range(players):
        levels = ["random"] * players
        levels[seat] = "heuristic"
        summary = simulate(game, config, per_seat, seed * 100 + seat, levels)
        wins += summary.wins_by_kind.get("heuristic", 0.0)
    return wins / (per_seat * players)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=1000, help="games per player count")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = get_game(args.game)
    for players in range(game.min_players, game.max_players + 1):
        started = time.perf_counter()
        rate = win_rate(args.game, players, args.games, args.seed)
        print(
            f"{args.game}, {players} players: heuristic wins {rate:.1%} "
            f"(fair share {1 / players:.1%}) in {time.perf_counter() - started:.1f}s"
        )


if __name__ == "__main__":
    main()
