"""Random playouts per second for one game: the cost a search bot pays per simulated game.

Run: `python -m bench.random_playouts velonimo --players 4 --games 500`. Every seat plays a
uniformly random legal action, through the same calls a host makes (to_act, legal_actions,
apply), but without views or bots, so the figure is the rules engine's own speed.
"""

from __future__ import annotations

import argparse
import random
import time

from netcards.registry import get_game
from netcards.rng import make_seed


def playouts(game_id: str, players: int, games: int, seed: int) -> tuple[float, float]:
    """(games per second, mean actions per game)."""
    game = get_game(game_id)
    config = game.make_config(players)
    chooser = random.Random(seed)
    actions = 0
    started = time.perf_counter()
    for index in range(games):
        state = game.setup(config, make_seed(f"{seed}:{index}"))
        while seats := game.to_act(state):
            for seat in sorted(seats):
                legal = game.legal_actions(state, seat)
                game.apply(state, seat, legal[chooser.randrange(len(legal))])
                actions += 1
    elapsed = time.perf_counter() - started
    return games / elapsed, actions / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rate, length = playouts(args.game, args.players, args.games, args.seed)
    print(
        f"{args.game}, {args.players} players: {rate:.1f} games/s "
        f"({length:.0f} actions per game, {rate * length:.0f} actions/s)"
    )


if __name__ == "__main__":
    main()
