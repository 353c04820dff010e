"""The fast path plays exactly the games the full path plays.

Simulations and the search's playouts take shortcuts: lazy views read field by field, bots kept
from one game to the next, no history for bots that do not remember. The full path is the way a
host plays: the whole view built and sent through msgpack, the choices worked out from it, a
fresh bot for every game. Both must give every event (public, private and secret parts) and
every outcome identically, for the same seeds.
"""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from netcards.bots.registry import make_bot
from netcards.game import Game, Outcome, TableConfig
from netcards.registry import all_games
from netcards.simulate import game_seed, play_game

GAMES = sorted(all_games().values(), key=lambda g: g.id)
LEVELS = (["random"], ["heuristic"], ["heuristic", "random"])


def full_path(
    game: Game[Any], config: TableConfig, seed: bytes, levels: list[str]
) -> tuple[list[dict[str, Any]], Outcome]:
    """A host's way: fresh bots, whole views through msgpack, choices from the view."""
    bots = [make_bot(levels[s], game, config, s, seed + bytes([s])) for s in range(config.players)]
    state = game.setup(config, seed)
    events: list[dict[str, Any]] = []
    while seats := game.to_act(state):
        for seat in sorted(seats):
            view = game.view(state, seat)
            assert dict(game.lazy_view(state, seat)) == view
            view = msgpack.unpackb(msgpack.packb(view))
            legal = game.legal_actions_in_view(view)
            assert legal == game.legal_actions(state, seat)
            action = bots[seat].choose(view, legal)
            events += [e.omniscient() for e in game.apply(state, seat, action)]
    outcome = game.outcome(state)
    assert outcome is not None
    return events, outcome


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_the_fast_path_plays_the_same_games(game: Game[Any]) -> None:
    for players in range(game.min_players, game.max_players + 1):
        config = game.make_config(players)
        for variant, levels in enumerate(LEVELS):
            seat_levels = [levels[s % len(levels)] for s in range(players)]
            # One set of bots for several games, as `simulate` keeps them.
            bots = [make_bot(seat_levels[s], game, config, s, b"") for s in range(players)]
            for index in range(3):
                seed = game_seed(players * 10 + variant, index)
                for s, bot in enumerate(bots):
                    bot.new_game(seed + bytes([s]))
                records: list[dict[str, Any]] = []
                fast = play_game(game, config, seed, bots, log=records.append)
                events = [e for r in records if r["type"] == "action" for e in r["events"]]
                expected_events, expected = full_path(game, config, seed, seat_levels)
                assert events == expected_events
                assert fast == expected
