"""Whatever the protocol raises while the app sends something to the table (ready, a bot added
or removed, the table's options, a move, leaving) is one line on the screen and the app goes
on: never Textual's traceback, which shows the source's paths and every frame's local
variables (the seat token among them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from netcards.games.via_gladiola.actions import PlayGladiola, Rest, Walk
from protocol.client import TableClient
from protocol.errors import ErrorCode, LocalProtocolError
from tests.ui.pilots import (
    keys_to,
    screen_text,
    seeded,
    start_practice,
    wait_for_turn,
    wait_until,
)
from ui.app import make_app
from ui.session import TablePlan
from ui.user_settings import UserSettings

REQUEST_FAILED = "that request could not be sent to the table"
MOVE_FAILED = "your move could not be sent"

ERRORS: list[Callable[[str], Exception]] = [
    lambda token: LocalProtocolError(
        ErrorCode.OUT_OF_RANGE, f"message 'x': field 'level' must be at most 32 ({token})"
    ),
    lambda token: ValueError(f"seat token {token} in /home/host/netcards/protocol/client.py"),
]
ERROR_IDS = ["local-protocol-error", "value-error"]


def failing(make_error: Callable[[str], Exception]) -> Callable[..., Any]:
    """A `TableClient` send that raises, its text quoting the seat token: were the exception
    shown, the token would be on the screen."""

    async def send(self: TableClient, *args: Any, **kwargs: Any) -> None:
        assert self.token is not None
        raise make_error(self.token.hex())

    return send


def said(app: Any) -> list[str]:
    """The notices drawn over the screen (a screenshot does not hold their text)."""
    return [n.message for n in app._notifications]


def still_running_and_nothing_leaked(app: Any, screen: Any, token: str) -> None:
    text = screen_text(app)
    assert "Traceback" not in text and "client.py" not in text and token not in text
    assert app.screen is screen, "the same screen, not an error's"
    assert app.is_running and app.return_code is None and app._exception is None


def on(pilot: Any, name: str) -> bool:
    return type(pilot.app.screen).__name__ == name


async def in_the_lobby(pilot: Any) -> Any:
    """The owner's lobby of a table of three: Ann, an open seat, a bot."""
    app = pilot.app
    await wait_until(pilot, lambda: on(pilot, "LobbyScreen"))
    client = app.session.client
    await wait_until(pilot, lambda: client.lobby is not None and client.owner)
    await wait_until(pilot, lambda: "Bot 3" in screen_text(app))
    return app.screen


def hosting() -> Any:
    plan = TablePlan("via-gladiola", 3, {}, bots=1, bind="127.0.0.1", port=0, discovery=False)
    return make_app(settings=UserSettings(name="Ann"), ascii_mode=False, host=plan)


LOBBY_SENDS = {
    "ready": ("set_ready", ["r"]),
    "add-bot": ("add_bot", ["b"]),
    "remove-bot": ("remove_bot", ["down", "down", "x"]),
}


@pytest.mark.parametrize("make_error", ERRORS, ids=ERROR_IDS)
@pytest.mark.parametrize("kind", list(LOBBY_SENDS))
async def test_a_lobby_request_that_fails_is_one_notice(
    monkeypatch: pytest.MonkeyPatch, kind: str, make_error: Callable[[str], Exception]
) -> None:
    method, keys = LOBBY_SENDS[kind]
    app = hosting()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await in_the_lobby(pilot)
        monkeypatch.setattr(TableClient, method, failing(make_error))
        await pilot.press(*keys)
        await wait_until(pilot, lambda: bool(said(app)), seconds=10)
        await pilot.pause(0.3)
        assert said(app) == [REQUEST_FAILED]
        still_running_and_nothing_leaked(app, screen, app.session.client.token.hex())


@pytest.mark.parametrize("make_error", ERRORS, ids=ERROR_IDS)
async def test_a_change_of_the_table_that_fails_is_one_notice(
    monkeypatch: pytest.MonkeyPatch, make_error: Callable[[str], Exception]
) -> None:
    app = hosting()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await in_the_lobby(pilot)
        monkeypatch.setattr(TableClient, "set_options", failing(make_error))
        await pilot.press("o")
        await wait_until(pilot, lambda: on(pilot, "TableChangeScreen"))
        await pilot.pause(0.3)
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: on(pilot, "LobbyScreen"))
        await wait_until(pilot, lambda: bool(said(app)), seconds=10)
        await pilot.pause(0.3)
        assert said(app) == [REQUEST_FAILED]
        still_running_and_nothing_leaked(app, screen, app.session.client.token.hex())


@pytest.mark.parametrize("make_error", ERRORS, ids=ERROR_IDS)
async def test_leaving_when_the_leave_fails_still_leaves(
    monkeypatch: pytest.MonkeyPatch, make_error: Callable[[str], Exception]
) -> None:
    """Nobody is left at the table to read why: the app is back at the menu, quietly."""
    app = hosting()
    async with app.run_test(size=(100, 30)) as pilot:
        await in_the_lobby(pilot)
        token = app.session.client.token.hex()
        monkeypatch.setattr(TableClient, "leave", failing(make_error))
        await pilot.press("escape")
        await wait_until(pilot, lambda: on(pilot, "Confirm"))
        await pilot.press("y")
        await wait_until(pilot, lambda: on(pilot, "MenuScreen"))
        await pilot.pause(0.3)
        still_running_and_nothing_leaked(app, app.screen, token)


def one_move(client: Any, hand: Any) -> list[str]:
    """The keys of a legal move from where the hand's cursor is."""
    legal = client.legal_actions()
    plays = [a for a in legal if isinstance(a, Walk | PlayGladiola)]
    if not plays:
        assert legal == [Rest()]
        return ["r"]
    return [*keys_to(hand.cards, hand.cursor, plays[0].card), "enter"]


@pytest.mark.parametrize("make_error", ERRORS, ids=ERROR_IDS)
async def test_a_move_that_fails_is_one_line_and_the_turn_is_still_ours(
    monkeypatch: pytest.MonkeyPatch, make_error: Callable[[str], Exception]
) -> None:
    """The status line says the move was not sent; no answer is coming, so the turn is still
    ours (not stuck waiting for one), and the same move goes once the client sends again."""
    app = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(1), bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        screen: Any = app.screen
        client = screen.client
        await wait_for_turn(pilot, client)
        real_act = TableClient.act
        monkeypatch.setattr(TableClient, "act", failing(make_error))
        seq = client.seq
        hand = screen.query_one("#hand")
        await pilot.press(*one_move(client, hand))
        await wait_until(pilot, lambda: screen.message != "", seconds=10)
        assert screen.message == MOVE_FAILED
        assert MOVE_FAILED in screen_text(app)
        still_running_and_nothing_leaked(app, screen, client.token.hex())
        assert client.my_turn and not client.awaiting and client.seq == seq
        monkeypatch.setattr(TableClient, "act", real_act)
        await pilot.press(*one_move(client, hand))
        await wait_until(pilot, lambda: client.seq > seq, seconds=20)
