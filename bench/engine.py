"""Random-playout speed of the rules engine, one core: games per second for each title.

For each title, `netcards simulate --bots random` (the simulator, every seat a random bot) in
games per second; for Via Gladiola beside a bare loop of the same rules in plain Python
(`bench/bare_via_gladiola.py`: no events, views or checks), and their ratio: what the engine's
contracts cost. With `--against DIR` the same measures run against another checkout (an older
commit) in the same run, taking turns, so that before and after are compared side by side.
Every figure is the best of `--repeats` runs in fresh processes.

    python -m bench.engine [--players 4] [--seconds 3] [--repeats 3] [--against DIR]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bench.sidebyside import HERE, best_of

TITLES = ("via-gladiola", "velonimo", "auf-achse")

SIMULATE = """
import json, time
from netcards.registry import get_game
from netcards.simulate import simulate
game = get_game({game!r})
config = game.make_config({players})
games, chunk, started = 0, 20, time.process_time()
while time.process_time() - started < {seconds}:
    simulate(game, config, chunk, games, ["random"] * {players})
    games += chunk
print(json.dumps({{"games_per_second": games / (time.process_time() - started)}}))
"""

BARE = """
import json, random, time
from bench.bare_via_gladiola import play
rng, games, started = random.Random(1), 0, time.process_time()
while time.process_time() - started < {seconds}:
    play({players}, rng)
    games += 1
print(json.dumps({{"games_per_second": games / (time.process_time() - started)}}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one run")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure, best kept")
    parser.add_argument("--against", type=Path, help="another checkout to measure beside this one")
    args = parser.parse_args()
    trees = [HERE] if args.against is None else [HERE, args.against.resolve()]
    names = ["this checkout"] + ([f"against {args.against}"] if args.against else [])
    size = {"players": args.players, "seconds": args.seconds}
    print(
        f"{args.players} players, random bots, games per CPU second "
        f"(best of {args.repeats} runs of {args.seconds:g} s)"
    )
    # The bare loop takes its turns with Via Gladiola's runs, so that both see the same machine.
    bare_rate = 0.0
    for game_id in TITLES:
        code = SIMULATE.format(game=game_id, **size)
        if game_id == "via-gladiola":
            bare, *results = best_of(
                [HERE, *trees], [BARE.format(**size)] + [code] * len(trees), args.repeats,
                "games_per_second",
            )  # fmt: skip
            bare_rate = bare["games_per_second"]
            print(f"{game_id:<14}{'bare loop (bench/bare_via_gladiola.py)':<42}{bare_rate:>10.0f}")
        else:
            results = best_of(trees, code, args.repeats, "games_per_second")
        for name, result in zip(names, results, strict=True):
            rate = result["games_per_second"]
            ratio = f"{rate / bare_rate:>8.2f}x bare" if game_id == "via-gladiola" else ""
            print(f"{game_id:<14}{'simulate, ' + name:<42}{rate:>10.0f}{ratio}")


if __name__ == "__main__":
    main()
