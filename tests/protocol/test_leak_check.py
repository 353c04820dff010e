"""The structural leak check finds a hidden card under any key: these messages are forged with
one leak each, and the check must name it (the list of keys it replaced missed `pending`,
`odometer_card` and `removed`)."""

from __future__ import annotations

from typing import Any

import pytest

from netcards.game import Game
from netcards.registry import get_game
from netcards.rng import make_seed
from netcards.shape import ShapeError
from protocol.fanout import update_for
from protocol.messages import encode
from protocol.wire import pack, unpack
from tests.leaks import Knowledge, unknown_cards


def plain(message: Any) -> dict[str, Any]:
    return unpack(pack(encode(message)))  # type: ignore[no-any-return]


def auf_achse_after_one_choice() -> tuple[Game[Any], Any, Knowledge, dict[str, Any]]:
    """Seat 1 has chosen a run card (pending, hidden from seat 0); seat 0's update for it."""
    game = get_game("auf-achse")
    state = game.setup(game.make_config(3), make_seed(4))
    knowledge = Knowledge(game, state, [0, 1, 2, None])
    card = sorted(state.hands[1])[0]
    events = game.apply(state, 1, game.decode_action({"kind": "run", "card": card}))
    knowledge.step(state, events)
    return game, state, knowledge, plain(update_for(game, state, events, 1, 1, 0))


def test_an_honest_update_shows_nothing_unknown() -> None:
    game, _, knowledge, message = auf_achse_after_one_choice()
    assert unknown_cards(game, message, knowledge, 0) == []


@pytest.mark.parametrize("key", ["pending", "odometer_card"])
def test_another_seat_s_face_down_card_is_found_under_a_seat_field(key: str) -> None:
    game, state, knowledge, message = auf_achse_after_one_choice()
    card = state.pending[1][0]
    message["view"][key] = [card] if key == "pending" else card
    assert unknown_cards(game, message, knowledge, 0) == [
        (f"view.{key}" + ("[0]" if key == "pending" else ""), card)
    ]


def test_a_hidden_card_in_an_event_field_is_found() -> None:
    game, state, knowledge, message = auf_achse_after_one_choice()
    hidden = state.hands[2][0]
    message["events"].append(
        {
            "kind": "reveal",
            "seat": 2,
            "card": 5,
            "label": "10 km",
            "effect": "level_crossing",
            "removed": [None, None, hidden],
            "run_lengths": [0, 0, 0],
            "total": 0,
        }
    )
    assert ("events[1].removed[2]", hidden) in unknown_cards(game, message, knowledge, 0)


def test_a_card_under_an_undeclared_key_fails_the_shape_check() -> None:
    game, state, knowledge, message = auf_achse_after_one_choice()
    message["view"]["peek"] = state.hands[1]
    with pytest.raises(ShapeError, match="peek"):
        unknown_cards(game, message, knowledge, 0)


def test_another_seat_s_drawn_cards_and_the_spectators_hand() -> None:
    game = get_game("via-gladiola")
    state = game.setup(game.make_config(2, {"first_player": 0}), make_seed(9))
    knowledge = Knowledge(game, state, [0, 1, None])
    events = game.apply(state, 0, game.decode_action({"kind": "rest"}))
    knowledge.step(state, events)
    drawn = events[-1].private[0]["cards"]
    to_seat_1 = plain(update_for(game, state, events, 1, 0, 1))
    assert unknown_cards(game, to_seat_1, knowledge, 1) == []
    to_seat_1["events"][-1]["cards"] = drawn  # seat 0's private part sent to seat 1
    assert unknown_cards(game, to_seat_1, knowledge, 1) == [("events[1].cards[0]", drawn[0])]
    to_spectators = plain(update_for(game, state, events, 1, 0, None))
    to_spectators["view"]["hand"] = state.hands[0]
    assert len(unknown_cards(game, to_spectators, knowledge, None)) == len(state.hands[0])


def test_the_draw_pile_s_order_never_counts_as_known() -> None:
    game = get_game("via-gladiola")
    state = game.setup(game.make_config(2), make_seed(9))
    knowledge = Knowledge(game, state, [0, 1, None])
    assert not knowledge.known[0] & set(state.draw)
    assert not knowledge.known[None] & {c for h in state.hands for c in h}
