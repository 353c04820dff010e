"""How often the search bot beats the heuristic bot, per title, with a 95 % confidence interval;
and how fast it searches.

Strength: `python -m bench.bots` (the full measure: 200 two-player and 100 four-player games per
title at 1 s per move, hours on two cores) or smaller, e.g. `python -m bench.bots --games2 40
--games4 20 --budget 100`. One search bot plays against heuristic bots and takes every seat in
turn, so a first-player advantage cannot flatter it; the figure to beat is the fair share,
1 / players. Games run in parallel worker processes (`--jobs`), at a lower priority (`--nice`).
A budget in playouts (`--budget 800`, or per title: `--budget via-gladiola=2000,velonimo=500`)
makes the figures independent of the machine's load; `--budget 1s` thinks for a second a move.

Speed: `python -m bench.bots --speed [--against DIR]` plays a few games per title with one
search bot at a fixed playout budget and prints its playouts per CPU second and CPU seconds per
move, beside another checkout's if asked (best of `--repeats` runs in fresh processes).
"""

from __future__ import annotations

import argparse
import math
import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from bench.sidebyside import HERE, best_of
from netcards.bots.registry import make_bot
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
    """Mean and a 95 % Wilson score interval (ties count as fractions of a win). Unlike the
    normal approximation it stays honest at the edges: 20 wins in 20 games give [84 %, 100 %],
    not [100 %, 100 %]."""
    n = len(wins)
    mean = sum(wins) / n
    z2 = 1.96**2
    centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
    half = 1.96 * math.sqrt(mean * (1 - mean) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return mean, max(0.0, centre - half), min(1.0, centre + half)


def measure(
    pool: ProcessPoolExecutor, game_id: str, players: int, games: int, budget: str, first: int
) -> str:
    started = time.perf_counter()
    seeds = range(first, first + games)
    jobs = [pool.submit(one_game, game_id, players, budget, seed) for seed in seeds]
    results = [j.result() for j in jobs]
    mean, low, high = interval([r.win for r in results])
    playouts = sum(r.playouts for r in results)
    seconds = sum(r.seconds for r in results)
    searches = sum(r.searches for r in results)
    return (
        f"{game_id:<13} {players}p {games:>4} games (seeds {first}-{first + games - 1})  "
        f"search:{budget:<6} wins {mean:6.1%} "
        f"[{low:5.1%}, {high:5.1%}]  fair share {1 / players:4.0%}  "
        f"{playouts / seconds if seconds else 0:6.0f} playouts/s  "
        f"{seconds / searches if searches else 0:5.2f} s/move  "
        f"({time.perf_counter() - started:.0f}s)"
    )


def budgets(text: str) -> dict[str, str]:
    """`800` or `1s` for every title, or `title=budget,...` (titles not named: the default)."""
    if "=" not in text:
        return dict.fromkeys(TITLES, text)
    out = dict.fromkeys(TITLES, "")
    for part in text.split(","):
        title, _, budget = part.partition("=")
        if title not in out:
            raise SystemExit(f"unknown title {title!r} (known: {', '.join(TITLES)})")
        out[title] = budget
    return out


SPEED = """
import json, time
from netcards.bots.registry import make_bot
from netcards.registry import get_game
from netcards.rng import make_seed
from netcards.simulate import play_game
game = get_game({game!r})
config = game.make_config({players})
playouts = searches = 0
started = time.process_time()
for seed in range({games}):
    bots = [make_bot("search:{budget}" if s == 0 else "heuristic", game, config, s,
                     make_seed(seed * 10 + s)) for s in range({players})]
    play_game(game, config, make_seed(seed), bots)
    playouts += bots[0].searched.playouts
    searches += bots[0].searched.searches
seconds = time.process_time() - started
print(json.dumps({{"playouts_per_second": playouts / seconds, "seconds_per_move": seconds / searches}}))
"""


def speed(args: argparse.Namespace) -> None:
    trees = [HERE] if args.against is None else [HERE, args.against.resolve()]
    names = ["this checkout"] + ([f"against {args.against}"] if args.against else [])
    print(
        f"search:{args.budget} against heuristic bots, {args.games} games per title, "
        f"playouts per CPU second (the opponents' moves included), best of {args.repeats} runs"
    )
    for game_id in args.titles:
        for players in (2, 4):
            code = SPEED.format(game=game_id, players=players, games=args.games, budget=args.budget)
            results = best_of(trees, code, args.repeats, "playouts_per_second", args.nice)
            for name, result in zip(names, results, strict=True):
                print(
                    f"{game_id:<13} {players}p  {name:<40} "
                    f"{result['playouts_per_second']:7.0f} playouts/s "
                    f"{result['seconds_per_move']:6.3f} s/move"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--titles", nargs="*", default=list(TITLES))
    parser.add_argument("--games2", type=int, default=200, help="two-player games per title")
    parser.add_argument("--games4", type=int, default=100, help="four-player games per title")
    parser.add_argument("--budget", default="1s", help="N playouts, Xs, or title=budget,...")
    parser.add_argument(
        "--first-seed",
        type=int,
        default=0,
        help="the first game's seed: runs on other seeds add up",
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--nice", type=int, default=10, help="priority of the worker processes")
    parser.add_argument("--speed", action="store_true", help="measure playouts per second")
    parser.add_argument("--games", type=int, default=3, help="--speed: games per title")
    parser.add_argument("--repeats", type=int, default=3, help="--speed: runs, best kept")
    parser.add_argument("--against", type=Path, help="--speed: another checkout beside this one")
    args = parser.parse_args()
    if args.speed:
        if args.budget == "1s":
            args.budget = "200"
        speed(args)
        return
    by_title = budgets(args.budget)
    print(f"search against heuristic bots, {args.jobs} worker processes at nice {args.nice}")
    with ProcessPoolExecutor(args.jobs, initializer=os.nice, initargs=(args.nice,)) as pool:
        for game_id in args.titles:
            game = get_game(game_id)
            budget = by_title.get(game_id) or "1s"
            for players, games in ((2, args.games2), (4, args.games4)):
                if games > 0 and game.min_players <= players <= game.max_players:
                    line = measure(pool, game_id, players, games, budget, args.first_seed)
                    print(line, flush=True)


if __name__ == "__main__":
    main()
