"""The app names silence. At a sealed table whose other player's program never sends its mask
step, the status line says whom the table waits for and for what, in the player's language,
and no move is offered meanwhile. A host that freezes (its link stays open, nothing comes
through) is given up on: the app says the host stopped answering, and why the deal is not
checked."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Select

from protocol.client import ClientSettings, SeatTaken, TableClient
from protocol.known_hosts import KnownHosts
from tests.network.processes import Relay
from tests.network.test_sealed_silence import never_masks
from tests.ui.bursts import burst
from tests.ui.pilots import screen_text, wait_until
from tests.ui.tables import open_host
from tests.ui.test_host_form_sealed import host_form
from ui import i18n
from ui.app import JoinPlan, make_app
from ui.user_settings import UserSettings
from ui.widgets.text_checkbox import TextCheckbox


def words(pilot: Any) -> str:
    """The screen's words, the lines of a box joined (its borders left out)."""
    return " ".join(re.sub("[█▀▄▏▔▁]", " ", screen_text(pilot.app)).split())


def on(pilot: Any, name: str) -> bool:
    return type(pilot.app.screen).__name__ == name


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Waiting for Bob (seat 2) to shuffle the cards."),
        ("fr", "En attente de Bob (place 2) : mélange des cartes."),
    ],
)
async def test_the_status_line_names_the_seat_the_table_waits_for_and_the_step(
    tmp_path: Path, language: str, said: str
) -> None:
    i18n.use(language)  # what `netcards --lang` does before the app starts
    app = make_app(settings=UserSettings(name="Ann", language=language), ascii_mode=False)
    bob: TableClient | None = None
    runner = None
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            screen = await host_form(pilot, "via-gladiola")
            screen.query_one("#players", Select).value = 2
            screen.query_one("#sealed", TextCheckbox).value = True
            await burst(pilot, "ctrl+o")
            await wait_until(pilot, lambda: on(pilot, "LobbyScreen") and app.session is not None)
            session: Any = app.session
            bob = TableClient(f"127.0.0.1:{session.host.port}", "Bob", KnownHosts(tmp_path / "bob"))
            never_masks(bob)
            runner = asyncio.create_task(bob.run())
            while not isinstance(await asyncio.wait_for(bob.updates.get(), 10), SeatTaken):
                pass
            await bob.set_ready(True)
            await wait_until(pilot, lambda: session.host.table.seats[1].ready)
            await burst(pilot, "r")
            await wait_until(pilot, lambda: hasattr(app.screen, "game_id"), 30)
            await wait_until(pilot, lambda: said in words(pilot), 30)
            game = app.screen
            assert not session.client.legal_actions(), "no move while a step is awaited"
            # The key bar offers no move (its keys greyed, or not shown while the deal is on
            # its way), and one typed makes none.
            bindings = game.active_bindings
            assert not any(k in bindings and bindings[k].enabled for k in ("enter", "r"))
            await burst(pilot, "enter")
            await pilot.pause(0.2)
            assert said in words(pilot)
            assert app.screen is game and session.client.outcome is None
    finally:
        i18n.use("en")
        if bob is not None:
            await bob.leave("done")
        if runner is not None:
            runner.cancel()


async def test_a_frozen_host_is_named_and_the_app_says_the_deal_is_not_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NETCARDS_HOST_SILENCE", "1.5")
    assert ClientSettings().host_silence == 1.5
    host = await open_host(players=2, bots=1)
    relay = Relay(host.port)
    app = make_app(
        settings=UserSettings(name="Ann"),
        ascii_mode=False,
        join=JoinPlan(f"127.0.0.1:{relay.port}"),
    )
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: on(pilot, "Confirm"))
            await pilot.press("y")
            await wait_until(pilot, lambda: on(pilot, "LobbyScreen"))
            await burst(pilot, "r")
            await wait_until(pilot, lambda: hasattr(app.screen, "game_id"), 30)
            client: Any = app.session.client if app.session is not None else None
            assert client is not None
            relay.freeze()  # the host's machine still holds the link; nothing comes through
            await wait_until(pilot, lambda: "stopped answering" in words(pilot), 20)
            await pilot.pause(0.3)  # the notice laid out whole
            text = words(pilot)
            assert "The host stopped answering" in text
            assert "The deal of the game under way is not checked." in text
            assert client.verdict is not None and not client.verdict.ok
            assert client.verdict.headline.startswith("deal not checked: the host stopped")
    finally:
        relay.thawed.set()
        relay.close()
        await host.close()


@pytest.mark.parametrize("game_on", [False, True])
def test_a_frozen_host_is_explained_in_the_player_s_words(game_on: bool) -> None:
    """In the lobby there is no deal to speak of; during a game, its deal is not checked."""
    from protocol.client import Failed
    from ui.failures import explain

    failed = Failed("the host stopped answering (nothing from it for 60 s ...)", "host_silent")
    said = explain(failed, "192.0.2.7:47474", game_on=game_on)
    assert said.text.startswith("The host stopped answering") and said.field is None
    assert ("The deal of the game under way is not checked." in said.text) is game_on
    i18n.use("fr")
    try:
        said = explain(failed, "192.0.2.7:47474", game_on=game_on)
        assert said.text.startswith("L'hôte ne répond plus")
    finally:
        i18n.use("en")
