"""Helpers shared by the engine's property tests: playing random games step by step."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgpack

from netcards.action import Action
from netcards.bots.registry import make_bot
from netcards.game import Game, TableConfig
from netcards.rng import make_seed


def packed(game: Game[Any], state: Any) -> bytes:
    return msgpack.packb(game.encode_state(state))  # type: ignore[no-any-return]


@dataclass
class Step:
    state: Any
    seat: int
    action: Action
    legal: list[Action]


def play(
    game: Game[Any], config: TableConfig, seed: int, levels: list[str], limit: int = 100_000
) -> Iterator[Step]:
    """Yield each decision (state before the action, seat, chosen action); applies it after the yield."""
    state = game.setup(config, make_seed(seed))
    bots = [
        make_bot(levels[s], game, config, s, make_seed(seed * 31 + s))
        for s in range(config.players)
    ]
    for _ in range(limit):
        seats = game.to_act(state)
        if not seats:
            return
        for seat in sorted(seats):
            legal = game.legal_actions(state, seat)
            action = bots[seat].choose(game.view(state, seat), legal)
            yield Step(state, seat, action, legal)
            game.apply(state, seat, action)
    raise AssertionError("game did not end")


def scramble(places: list[list[int]], rng: random.Random) -> None:
    """Deal the cards of `places` out again at random, every place keeping its size."""
    pool = [c for p in places for c in p]
    rng.shuffle(pool)
    at = 0
    for p in places:
        n = len(p)
        p[:] = pool[at : at + n]
        at += n
