"""A log's header is enough to deal the same game again, a custom deck included."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from netcards.games.auf_achse.cards import house_deck_text as auf_achse_deck
from netcards.games.via_gladiola.cards import house_deck_text as via_gladiola_deck
from netcards.registry import get_game
from netcards.simulate import simulate

CUSTOM = {
    "via-gladiola": via_gladiola_deck().replace("\n1 = 3\n", "\n1 = 5\n"),
    "auf-achse": auf_achse_deck()
    .replace("\n10 = 8\n", "\n10 = 7\n")
    .replace("\n120 = 4\n", "\n120 = 5\n"),
}


@pytest.mark.parametrize("game_id", sorted(CUSTOM))
def test_a_custom_deck_game_is_re_created_from_its_header(game_id: str) -> None:
    game = get_game(game_id)
    deck = CUSTOM[game_id]
    config = game.make_config(2, {"deck": deck})
    assert game.cards(config) != game.cards(game.make_config(2)), "the deck really differs"
    records: list[dict[str, Any]] = []
    simulate(game, config, 1, 7, ["random", "random"], log=records.append)
    header, deal = records[0], records[1]
    assert header["custom_deck"] is True
    assert header["deck_text"] == deck
    assert header["deck_sha256"] == hashlib.sha256(deck.encode()).hexdigest()
    assert header["deck"] == game.cards(config)
    again = game.make_config(header["players"], {**header["options"], "deck": header["deck_text"]})
    state = game.setup(again, bytes.fromhex(header["seed"]))
    assert {"type": "deal", "index": 0, **game.deal_record(state)} == deal


def test_the_house_deck_has_no_deck_text() -> None:
    game = get_game("via-gladiola")
    records: list[dict[str, Any]] = []
    simulate(game, game.make_config(2), 1, 7, ["random", "random"], log=records.append)
    header = records[0]
    assert header["custom_deck"] is False
    assert header["deck_text"] is None and header["deck_sha256"] is None
