"""Properties every game must have, over many random games with random and heuristic bots.

Conservation, termination, no leak in any seat's or spectator's view, illegal actions change
nothing, replay reproduces, and all data round-trips through msgpack unchanged.
"""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from netcards.errors import GameError
from netcards.event import Event
from netcards.game import Game
from netcards.registry import all_games
from netcards.rng import make_seed
from tests.engine.hidden import HIDDEN
from tests.engine.support import packed, play, scramble

GAMES = sorted(all_games().values(), key=lambda g: g.id)
IDS = [g.id for g in GAMES]
LEVELS = st.sampled_from(["random", "heuristic"])


def examples(n: int) -> settings:
    return settings(max_examples=n, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def table(draw: Any, game: Game[Any]) -> tuple[Any, int, list[str]]:
    players = draw(st.integers(game.min_players, game.max_players))
    seed = draw(st.integers(0, 2**32))
    levels = [draw(LEVELS) for _ in range(players)]
    return game.make_config(players), seed, levels


def random_action_data(game: Game[Any], rng: random.Random) -> dict[str, Any]:
    kind = rng.choice(game.codec.kinds)
    data: dict[str, Any] = {"kind": kind}
    for name, tp in game.codec.field_types[kind].items():
        if tp is bool:
            data[name] = rng.random() < 0.5
        elif tp is int:
            data[name] = rng.randrange(-2, 130)
        elif str(tp).startswith("tuple"):
            data[name] = [rng.randrange(-2, 130) for _ in range(rng.randrange(0, 5))]
        else:
            data[name] = rng.choice([None, rng.randrange(-2, 10)])
    return data


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@examples(500)  # within the suite's ten minutes; each example is a whole game
@given(data=st.data())
def test_conservation_termination_and_replay(game: Game[Any], data: st.DataObject) -> None:
    config, seed, levels = table(data.draw, game)
    every_card = sorted(c["id"] for c in game.cards(config))
    actions = []
    last = None
    for step in play(game, config, seed, levels):
        places = game.locations(step.state)
        assert sorted(c for p in places.values() for c in p) == every_card
        assert step.action in step.legal
        actions.append((step.seat, step.action))
        last = step.state
    assert last is not None
    outcome = game.outcome(last)
    assert outcome is not None and outcome.winners
    assert sorted(c for p in game.locations(last).values() for c in p) == every_card
    replay = game.setup(config, make_seed(seed))
    for seat, action in actions:
        game.apply(replay, seat, game.decode_action(game.encode_action(action)))
    assert packed(game, replay) == packed(game, last)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@examples(150)
@given(data=st.data())
def test_no_view_shows_hidden_cards(game: Game[Any], data: st.DataObject) -> None:
    """Shuffling what a seat may not know among its places never changes that seat's view."""
    config, seed, levels = table(data.draw, game)
    rng = random.Random(seed)
    hidden = HIDDEN[game.id]
    for step in play(game, config, seed, levels):
        if rng.random() > 0.3:
            continue
        for seat in [*range(config.players), None]:
            before = (
                game.view(step.state, seat) if seat is not None else game.public_view(step.state)
            )
            other = game.copy_state(step.state)
            scramble(hidden(other, seat), rng)
            after = game.view(other, seat) if seat is not None else game.public_view(other)
            assert before == after, f"seat {seat}'s view depends on hidden cards"


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@examples(100)
@given(data=st.data())
def test_refused_actions_change_nothing(game: Game[Any], data: st.DataObject) -> None:
    config, seed, levels = table(data.draw, game)
    rng = random.Random(seed)
    for step in play(game, config, seed, levels):
        before = packed(game, step.state)
        for _ in range(3):
            raw = random_action_data(game, rng)
            try:
                action = game.decode_action(raw)
            except GameError:
                continue
            seat = rng.randrange(config.players)
            if seat in game.to_act(step.state) and action in game.legal_actions(step.state, seat):
                continue
            with pytest.raises(GameError):
                game.apply(step.state, seat, action)
            assert packed(game, step.state) == before
        # A legal action of an acting seat, sent by a seat that is not asked to act.
        idle = [s for s in range(config.players) if s not in game.to_act(step.state)]
        if idle:
            with pytest.raises(GameError):
                game.apply(step.state, rng.choice(idle), step.action)
            assert packed(game, step.state) == before


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@examples(60)
@given(data=st.data())
def test_everything_round_trips_through_msgpack(game: Game[Any], data: st.DataObject) -> None:
    config, seed, levels = table(data.draw, game)
    for step in play(game, config, seed, levels):
        encoded = game.encode_state(step.state)
        wire = msgpack.unpackb(msgpack.packb(encoded), strict_map_key=False)
        assert game.encode_state(game.decode_state(wire)) == encoded
        assert msgpack.unpackb(msgpack.packb(game.view(step.state, step.seat))) == game.view(
            step.state, step.seat
        )
        action_data = msgpack.unpackb(msgpack.packb(game.encode_action(step.action)))
        assert game.decode_action(action_data) == step.action
        after = game.copy_state(step.state)
        for event in game.apply(after, step.seat, step.action):
            back = Event.from_data(
                msgpack.unpackb(msgpack.packb(event.to_data()), strict_map_key=False)
            )
            assert back == event


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@examples(100)
@given(data=st.data())
def test_each_view_is_enough_to_know_the_legal_actions(
    game: Game[Any], data: st.DataObject
) -> None:
    """Clients work out their choices from their view; it must agree with the rules."""
    config, seed, levels = table(data.draw, game)
    for step in play(game, config, seed, levels):
        for seat in range(config.players):
            view = msgpack.unpackb(msgpack.packb(game.view(step.state, seat)))
            assert game.legal_actions_in_view(view) == game.legal_actions(step.state, seat)
