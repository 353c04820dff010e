"""A sealed game's replay (protocol/sealed_play/replay.py): once a seat's audit has found every
round and move sound, its program knows every card, and the replay it saves plays the game again
through the title's sealed engine. Saved to JSON and read back, it shows that seat the very log
its program showed during the game (naming, at once, a card the game named a moment later),
its view at the end, the results, and every hand; a game whose audit never ran has none.
Every title, over real loopback sockets with the shipped `TableClient`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from netcards.replay import BadReplay
from netcards.sealed_cards import SLOT_BASE
from protocol.sealed_play.replay import SealedReplay
from tests.network.sealed_moments import GAMES
from tests.network.test_sealed_table import sealed_game


def named(value: Any, cards: dict[int, int], key: str = "") -> Any:
    """`value` (a log event) with every slot its seat's log left unnamed named by `cards`: a
    card everyone saw a moment later (Velonimo's reward turned up)."""
    if key == "slots" or isinstance(value, bool):
        return value
    if isinstance(value, int) and value >= SLOT_BASE:
        return cards[value]
    if isinstance(value, list):
        return [named(v, cards, key) for v in value]
    if isinstance(value, dict):
        return {k: named(v, cards, k) for k, v in value.items()}
    return value


def as_shown(replayed: dict[str, Any], shown: dict[str, Any]) -> dict[str, Any]:
    """The replay's event without the cards its seat's log left out: cards drawn as the game
    ended, which nobody opened to the seat before the hands were revealed (the replay, which
    knows every card, names them)."""
    return {k: v for k, v in replayed.items() if k in shown or k != "cards"}


@pytest.mark.parametrize(("title", "players"), GAMES)
async def test_a_verified_sealed_game_s_replay_shows_the_seat_its_own_game(
    tmp_path: Path, title: str, players: int
) -> None:
    _table, _server, clients = await sealed_game(tmp_path, players, [players - 1], title)
    for client in clients:
        assert client.sealed_verdict == "deal verified"
        made = client.replay()
        assert isinstance(made, SealedReplay)
        data = json.loads(json.dumps(made.to_data()))  # as `s` writes it and `replay` reads it
        assert data["format"] == 2 and data["sealed"] is True
        replay = SealedReplay.from_data(data)
        steps = replay.steps()
        assert client.sealed is not None
        assert len(steps) == len(client.sealed.actions) + 1, "the deal, then every move"
        log = [event for step in steps for event in step.events]
        assert len(log) == len(client.log)
        assert [as_shown(r, e) for r, e in zip(log, client.log, strict=True)] == [
            named(e, replay.cards) for e in client.log
        ], "the log it showed"
        assert steps[-1].view == client.view
        assert replay.outcome() == client.outcome is not None
        every = [c for cards in steps[-1].hands.values() for c in cards]
        assert every and all(c < SLOT_BASE for c in every), "every hand, in cards"
        assert steps[0].hands != steps[-1].hands


async def test_a_replay_whose_cards_are_not_the_game_s_is_refused(tmp_path: Path) -> None:
    _table, _server, clients = await sealed_game(tmp_path, 2, [1], "via-gladiola")
    made = clients[0].replay()
    assert made is not None
    data = made.to_data()
    data["cards"] = [[slot, 0] for slot, _card in data["cards"]]  # every slot the same card
    with pytest.raises(BadReplay):
        SealedReplay.from_data(json.loads(json.dumps(data))).steps()
    data = made.to_data()
    del data["cards"]
    with pytest.raises(BadReplay, match="damaged"):
        SealedReplay.from_data(data)
