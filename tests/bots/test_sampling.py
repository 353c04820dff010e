"""The samplers behind the search bot: every imagined world is one the seat cannot tell from
the real one, holds exactly the real cards, and keeps every card the seat knows where it is."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgpack
import pytest

from netcards.bots.registry import make_bot
from netcards.game import Game
from netcards.games.velonimo.sampling import known_holders
from netcards.registry import all_games
from netcards.rng import make_seed
from netcards.sampling import InconsistentView, fill_places

GAMES = sorted(all_games().values(), key=lambda g: g.id)
IDS = [g.id for g in GAMES]


def plain(data: Any) -> Any:
    return msgpack.unpackb(msgpack.packb(data))


def all_cards(game: Game[Any], state: Any) -> Counter[int]:
    return Counter(c for place in game.locations(state).values() for c in place)


def hand_of(game: Game[Any], state: Any, card: int) -> str:
    return next(name for name, cards in game.locations(state).items() if card in cards)


def decisions(game: Game[Any], players: int, seed: int, every: int) -> Any:
    """Play heuristic bots; every `every`-th decision yields (state, seat, that seat's history)."""
    config = game.make_config(players)
    state = game.setup(config, make_seed(seed))
    bots = [make_bot("heuristic", game, config, s, make_seed(s)) for s in range(players)]
    histories: list[list[dict[str, Any]]] = [[] for _ in range(players)]
    count = 0
    while game.to_act(state):
        for seat in sorted(game.to_act(state)):
            count += 1
            if count % every == 0:
                yield config, state, seat, histories[seat]
            legal = game.legal_actions(state, seat)
            events = game.apply(state, seat, bots[seat].choose(game.view(state, seat), legal))
            for s in range(players):
                histories[s].extend(plain(e.for_seat(s)) for e in events)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_sample_is_a_world_the_seat_cannot_tell_from_the_real_one(
    game: Game[Any], players: int
) -> None:
    if not game.min_players <= players <= game.max_players:
        pytest.skip("not a player count of this game")
    rng = random.Random(players)
    checked = 0
    for config, state, seat, history in decisions(game, players, seed=players, every=7):
        view = plain(game.view(state, seat))
        real_cards = all_cards(game, state)
        for _ in range(3):
            sample = game.sample_state(config, view, history, rng)
            # The seat sees exactly what it sees in the real game, so it has the same choices...
            assert plain(game.view(sample, seat)) == view
            assert game.legal_actions(sample, seat) == game.legal_actions(state, seat)
            # ...every card of the game is somewhere, once: none invented, none lost...
            assert all_cards(game, sample) == real_cards
            # ...and the imagined world plays on under the rules.
            for other in sorted(game.to_act(sample)):
                game.apply(sample, other, game.legal_actions(sample, other)[-1])
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("players", [2, 3, 5])
def test_velonimo_cards_a_seat_saw_move_stay_with_their_holder(players: int) -> None:
    """A leader's victim knows which cards went to the leader, the leader which it gave back:
    the real state has them there, and so does every sample, until an exchange the seat did
    not see may have moved them."""
    game = all_games()["velonimo"]
    rng = random.Random(1)
    pinned = 0
    for seed in range(12):
        for config, state, seat, history in decisions(game, players, seed=seed, every=1):
            known = known_holders(seat, history)
            if not known:
                continue
            view = plain(game.view(state, seat))
            for card, holder in known.items():
                assert hand_of(game, state, card) == f"hand:{holder}"
            for _ in range(4):
                sample = game.sample_state(config, view, history, rng)
                for card, holder in known.items():
                    assert hand_of(game, sample, card) == f"hand:{holder}"
                pinned += len(known)
    assert pinned > 50  # the games did have exchanges to remember


def test_the_deal_respects_sizes_and_pins_and_refuses_what_does_not_add_up() -> None:
    rng = random.Random(3)
    for _ in range(200):
        places = fill_places(range(10), {"a": 3, "b": 5, "c": 2}, {7: "c", 8: "c", 1: "a"}, rng)
        assert sorted(c for p in places.values() for c in p) == list(range(10))
        assert [len(places[n]) for n in "abc"] == [3, 5, 2]
        assert sorted(places["c"]) == [7, 8] and 1 in places["a"]
    # A stale pin to a place already full is dropped, never overfilling it.
    places = fill_places(range(3), {"a": 1, "b": 2}, {0: "a", 1: "a"}, rng)
    assert places["a"] == [0]
    with pytest.raises(InconsistentView, match="4 unseen cards for 3 hidden places"):
        fill_places(range(4), {"a": 1, "b": 2}, {}, rng)
