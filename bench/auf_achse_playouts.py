"""How many Auf Achse games per second the engine plays with uniformly random choices.

Bots' searches play out many random games, so this is the figure that bounds them. The bare loop
(to_act, legal_actions, a random pick, apply) and whole simulated games (each seat's random bot
gets its view, as in `netcards simulate`) are timed separately.

    python -m bench.auf_achse_playouts [--players 4] [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import time

from netcards.bots.base import make_bot
from netcards.registry import get_game
from netcards.rng import make_seed
from netcards.simulate import play_game


def bare(players: int, seconds: float) -> tuple[float, float]:
    game = get_game("auf-achse")
    config = game.make_config(players)
    pick = random.Random(1)
    games = actions = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.setup(config, make_seed(games))
        while seats := game.to_act(state):
            for seat in sorted(seats):
                legal = game.legal_actions(state, seat)
                game.apply(state, seat, legal[pick.randrange(len(legal))])
                actions += 1
        games += 1
    return games / (time.perf_counter() - started), actions / max(games, 1)


def simulated(players: int, seconds: float) -> float:
    game = get_game("auf-achse")
    config = game.make_config(players)
    games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        seed = make_seed(games)
        bots = [make_bot("random", game, config, s, seed + bytes([s])) for s in range(players)]
        play_game(game, config, seed, bots)
        games += 1
    return games / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    rate, per_game = bare(args.players, args.seconds)
    sim = simulated(args.players, args.seconds)
    print(
        f"auf-achse, {args.players} players: {rate:.0f} bare games/s "
        f"({per_game:.1f} actions/game), {sim:.0f} simulated games/s"
    )


if __name__ == "__main__":
    main()
