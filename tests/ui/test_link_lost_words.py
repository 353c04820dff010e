"""A connection that drops is said in the player's language: the banner over the lobby and the
table names what happened in their words, never the client's English reason."""

from __future__ import annotations

from typing import Any

import pytest

from protocol.client import Connected, LinkDown
from tests.ui.pilots import screen_text, seeded, start_practice, wait_until
from tests.ui.tables import open_host
from ui import i18n
from ui.app import JoinPlan, make_app
from ui.i18n import _
from ui.session import SessionNotice
from ui.user_settings import UserSettings

ENGLISH = "nobody answers at that address (is the table open?)"


def words(pilot: Any) -> str:
    return " ".join(screen_text(pilot.app).split())


@pytest.fixture
def french() -> Any:
    i18n.use("fr")
    yield
    i18n.use("en")


async def test_the_table_says_a_lost_connection_in_the_player_s_language(french: None) -> None:
    app = make_app(settings=UserSettings(name="Ann", language="fr"), random_bytes=seeded(3))
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 2)
        app.screen.post_message(SessionNotice(LinkDown(ENGLISH, True, "no_listener")))
        await wait_until(pilot, lambda: "Connexion perdue" in words(pilot), 5)
        text = words(pilot)
        assert "la table ne répond pas" in text and "Reconnexion" in text, text
        assert ENGLISH not in text


async def test_the_lobby_says_a_host_that_died_in_the_player_s_language(french: None) -> None:
    host = await open_host(players=3, bots=1)
    app = make_app(
        settings=UserSettings(name="Ann", language="fr"), join=JoinPlan(f"127.0.0.1:{host.port}")
    )
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: type(app.screen).__name__ == "Confirm", 30)
            await pilot.press("y")
            await wait_until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen", 30)
            assert host._server is not None
            host._server.close()
            for peer in list(host.peers.values()):
                peer.writer.transport.abort()  # no goodbye: the host's process died
            await wait_until(pilot, lambda: "Connexion perdue" in words(pilot), 10)
            await wait_until(
                pilot, lambda: "personne" in words(pilot) or "ne répond pas" in words(pilot), 10
            )
            text = words(pilot)
            assert "la table ne répond pas (son hôte redémarre peut-être)" in text, text
            assert "Reconnexion" in text, text
            assert "Connection lost" not in text and "nobody answers" not in text, text
    finally:
        await host.close()


async def test_a_move_not_sent_while_the_link_was_down_is_not_said_once_it_is_back() -> None:
    app = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(3))
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 2)
        screen: Any = app.screen
        screen.post_message(SessionNotice(LinkDown(ENGLISH, True, "no_listener")))
        screen.say(_("not connected: your move was not sent"))
        await wait_until(pilot, lambda: "your move was not sent" in words(pilot), 5)
        screen.post_message(SessionNotice(Connected("ABCD", False)))
        await wait_until(pilot, lambda: "Connection lost" not in words(pilot), 5)
        await wait_until(pilot, lambda: "your move was not sent" not in words(pilot), 5)
        screen.say("a refusal")
        screen.post_message(SessionNotice(Connected("ABCD", False)))
        await pilot.pause(0.2)
        assert "a refusal" in words(pilot), "only the link's own word goes with the link"
