"""A sealed game's log as each player's program keeps it (its own engine's events): it names
cards, never slots, and the title's screen has words for every line of it. A sealed engine's
rules are the classic ones over slots, so the part of an event only its seat sees names slots
where the classic game names cards (an Auf Achse card put face down on the odometer, cards
drawn); the app's log, its bot and its replay read card ids, and a slot there stopped the app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from netcards.registry import get_game
from tests.games.test_velonimo_sealed import slots_in
from tests.network.test_sealed_table import sealed_game
from tests.protocol.test_sealed_game_choices import FAST
from tests.ui.test_play_velonimo import FakeClient, FakeSession
from ui.games import screen_class


@pytest.mark.parametrize(
    ("title", "options"),
    [("auf-achse", {"deck": FAST}), ("velonimo", {"difficulties": [1]}), ("via-gladiola", {})],
)
async def test_a_sealed_games_log_names_cards_and_the_screen_says_every_line(
    tmp_path: Path, title: str, options: dict[str, Any]
) -> None:
    wanted = {"odometer_card", "refill"} if title == "auf-achse" else set()
    for attempt in range(TRIES):
        folder = tmp_path / str(attempt)
        folder.mkdir()
        _, _, clients = await sealed_game(folder, 2, [1], title, options, within=240)
        (client,) = clients
        kinds = lines_said(client, title)
        if wanted <= kinds:
            return
    raise AssertionError(f"{TRIES} games of {title} without {wanted - kinds}")


TRIES = 3
"""Games played until one has every kind of line wanted (a short Auf Achse game may end its
stages at the target, with no refill between two rounds)."""


def lines_said(client: Any, title: str) -> set[str]:
    """The kinds of event in a verified sealed game's log, each line worded by the screen."""
    assert client.sealed_verdict == "deal verified"
    assert client.log, "the game was logged"
    kinds = {e["kind"] for e in client.log}
    for event in client.log:
        assert not slots_in(event, "slots") or event["kind"] == "reward_revealed", event
    game = get_game(title)
    fake = FakeClient(view={}, seat=client.seat or 0, names=["Ann", "Bot"], to_act=frozenset())
    fake.game, fake.config = game, client.config
    screen = screen_class(title)(FakeSession(fake))  # type: ignore[arg-type]
    for event in client.log:
        screen.describe(event)  # no card read from a slot, no error
    return kinds
