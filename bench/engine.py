"""Random-playout speed of the rules engine, one core: games per second for each title.

Two figures per title: the bare engine (to_act, legal_actions, a uniform choice, apply) as a
search bot's playouts use it, and full simulated games where each random bot gets its view as
in `netcards simulate`.

    python -m bench.engine [--players 4] [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from netcards.bots.base import make_bot
from netcards.game import Game
from netcards.registry import all_games
from netcards.rng import make_seed
from netcards.simulate import play_game


def bare_playouts(game: Game[Any], players: int, seconds: float) -> tuple[float, float]:
    config = game.make_config(players)
    chooser = random.Random(1)
    games = actions = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.setup(config, make_seed(games))
        while True:
            seats = game.to_act(state)
            if not seats:
                break
            for seat in sorted(seats):
                legal = game.legal_actions(state, seat)
                game.apply(state, seat, legal[chooser.randrange(len(legal))])
                actions += 1
        games += 1
    elapsed = time.perf_counter() - started
    return games / elapsed, actions / games


def simulated_games(game: Game[Any], players: int, seconds: float) -> float:
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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    print(
        f"{'game':<14}{'players':>8}{'bare games/s':>14}{'actions/game':>14}{'simulate games/s':>18}"
    )
    for game_id, game in sorted(all_games().items()):
        players = min(max(args.players, game.min_players), game.max_players)
        rate, per_game = bare_playouts(game, players, args.seconds)
        sim = simulated_games(game, players, args.seconds)
        print(f"{game_id:<14}{players:>8}{rate:>14.0f}{per_game:>14.1f}{sim:>18.0f}")


if __name__ == "__main__":
    main()
