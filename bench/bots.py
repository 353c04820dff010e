"""How often the search bot beats the heuristic bot, per title, with a 95 % confidence interval.

Run: `python -m bench.bots` (the full measure: 200 two-player and 100 four-player games per
title at 1 s per move, hours on two cores) or smaller, e.g. `python -m bench.bots --games2 40
--games4 20 --budget 100`. One search bot plays against heuristic bots and takes every seat in
turn, so a first-player advantage cannot flatter it; the figure to beat is the fair share,
1 / players. Games run in parallel worker processes (`--jobs`).
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from netcards.bots.base import make_bot
from netcards.bots.search import SearchBot
from netcards.registry import get_game
from netcards.rng import make_seed
from netcards.simulate import play_game

TITLES = ("via-gladiola", "velonimo", "auf-achse")


@dataclass(frozen=True)
class GameResult:
    win: float
    playouts: int
    seconds: float
    searches: int


def one_game(game_id: str, players: int, budget: str, seed: int) -> GameResult:
    game = get_game(game_id)
    config = game.make_config(players)
    search_seat = seed % players
    bots = [
        make_bot(
            f"search:{budget}" if s == search_seat else "heuristic",
            game,
            config,
            s,
            make_seed(seed * 10 + s),
        )
        for s in range(players)
    ]
    outcome = play_game(game, config, make_seed(seed), bots)
    searcher = bots[search_seat]
    assert isinstance(searcher, SearchBot)
    work = searcher.searched
    win = 1 / len(outcome.winners) if search_seat in outcome.winners else 0.0
    return GameResult(win, work.playouts, work.seconds, work.searches)


def interval(wins: list[float]) -> tuple[float, float, float]:
    """Mean and a 95 % interval (normal approximation; ties count as fractions of a win)."""
    n = len(wins)
    mean = sum(wins) / n
    var = sum((w - mean) ** 2 for w in wins) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def measure(pool: ProcessPoolExecutor, game_id: str, players: int, games: int, budget: str) -> str:
    started = time.perf_counter()
    jobs = [pool.submit(one_game, game_id, players, budget, seed) for seed in range(games)]
    results = [j.result() for j in jobs]
    mean, low, high = interval([r.win for r in results])
    playouts = sum(r.playouts for r in results)
    seconds = sum(r.seconds for r in results)
    searches = sum(r.searches for r in results)
    return (
        f"{game_id:<13} {players}p {games:>4} games  search wins {mean:6.1%} "
        f"[{low:5.1%}, {high:5.1%}]  fair share {1 / players:4.0%}  "
        f"{playouts / seconds if seconds else 0:6.0f} playouts/s  "
        f"{seconds / searches if searches else 0:5.2f} s/move  "
        f"({time.perf_counter() - started:.0f}s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--titles", nargs="*", default=list(TITLES))
    parser.add_argument("--games2", type=int, default=200, help="two-player games per title")
    parser.add_argument("--games4", type=int, default=100, help="four-player games per title")
    parser.add_argument("--budget", default="1s", help="search budget: N playouts or Xs")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    print(f"search:{args.budget} against heuristic bots, {args.jobs} worker processes")
    with ProcessPoolExecutor(args.jobs) as pool:
        for game_id in args.titles:
            game = get_game(game_id)
            for players, games in ((2, args.games2), (4, args.games4)):
                if games > 0 and game.min_players <= players <= game.max_players:
                    print(measure(pool, game_id, players, games, args.budget), flush=True)


if __name__ == "__main__":
    main()
