"""The app as the SSH door runs it for a guest: this table only, and nothing saved on the host.

The process runs on the host's machine as the host's user, so a guest must not reach the menu
(hosting, joining elsewhere, deck files), the command palette (screenshots to disk), a browser,
or any file write but their seat token.
"""

from __future__ import annotations

import os
import webbrowser
from pathlib import Path
from typing import Any

import pytest

from netcards.table import Table
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts
from protocol.settings import config_dir, data_dir
from tests.ui.pilots import screen_text, wait_until
from ui.app import JoinPlan
from ui.guest_app import DoorScreen, make_guest_app
from ui.screens.results import ResultsScreen
from ui.user_settings import UserSettings


def files() -> set[Path]:
    return {p for root in (config_dir(), data_dir()) if root.exists() for p in root.rglob("*")}


async def pinned_table() -> tuple[TableHost, str]:
    """A table of two with a bot, whose key is pinned as the door pins it for a guest."""
    table = Table.create("via-gladiola", 2, {}, name="Club", host_part=os.urandom(32))
    table.add_bot("heuristic", 1)
    host = TableHost(table, IdentityKey(os.urandom(32)), settings=HostSettings())
    await host.start()
    address = f"127.0.0.1:{host.port}"
    KnownHosts(config_dir() / "known_hosts").remember(address, host.identity.public_key)
    return host, address


async def test_a_guest_has_only_the_table_and_saves_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    opened: list[Any] = []
    monkeypatch.setattr(webbrowser, "open", lambda *a, **k: opened.append(a))
    host, address = await pinned_table()
    before = files()
    app = make_guest_app(UserSettings(name="Ann"), JoinPlan(address), ascii_mode=None)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            # The door pinned the table's key: no first-visit question, straight to the lobby.
            await wait_until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
            await wait_until(pilot, lambda: "Ann (you)" in screen_text(app))
            assert isinstance(app.screen_stack[1], DoorScreen), "no menu under the table"
            await pilot.press("ctrl+p")
            await pilot.pause(0.3)
            assert type(app.screen).__name__ == "LobbyScreen", "no command palette"
            await pilot.press("question_mark")
            await wait_until(pilot, lambda: type(app.screen).__name__ == "HelpScreen")
            assert "Commands" not in screen_text(app), "the help offers no palette"
            app.pop_screen()
            app.open_url("https://example.org/")
            assert opened == [], "no browser opens on the host's machine"
            assert app.session is not None
            await app.push_screen(ResultsScreen(app.session))
            await wait_until(pilot, lambda: "Leave" in screen_text(app).splitlines()[-1])
            keys = screen_text(app).splitlines()[-1]
            assert "Save replay" not in keys and "Play again" not in keys, keys
            assert "Menu" not in keys, "a guest has no menu: m leaves, and says so"
            assert "Play again" not in screen_text(app), "nor its button"
            assert "Leave (m)" in screen_text(app) and "Menu (m)" not in screen_text(app)
            await pilot.press("s", "a")
            await pilot.pause(0.2)
            assert app.return_code is None and type(app.screen).__name__ == "ResultsScreen"
            app.pop_screen()
            await pilot.press("escape")
            await wait_until(pilot, lambda: type(app.screen).__name__ == "Confirm")
            await pilot.press("y")
            await wait_until(pilot, lambda: app.return_code is not None)
            assert not any(type(s).__name__ == "MenuScreen" for s in app.screen_stack)
    finally:
        await host.close()
    written = {p for p in files() - before if p.is_file()}
    assert all(p.parent.name == "seats" for p in written), written


@pytest.mark.parametrize("guest", [False, True])
async def test_a_saved_token_for_a_lobby_seat_given_up_just_sits_the_player_again(
    guest: bool,
) -> None:
    """Leaving the lobby (or a dropped connection there) frees the seat, but the token saved for
    it stays on disk; coming back with it is refused. The app forgets it and sits down again,
    as a guest whose SSH connection dropped in the lobby does with the same ssh command."""
    from protocol.seat_tokens import SeatTokens
    from ui.app import make_app

    host, address = await pinned_table()
    tokens = SeatTokens(data_dir() / "seats")
    stale = os.urandom(32)
    tokens.save(address, "Ann", stale)
    settings, plan = UserSettings(name="Ann"), JoinPlan(address)
    app = make_guest_app(settings, plan, None) if guest else make_app(settings=settings, join=plan)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: host.table.seats[0].name == "Ann", seconds=30)
            await wait_until(pilot, lambda: "Ann (you)" in screen_text(app))
            assert type(app.screen).__name__ == "LobbyScreen"
            assert tokens.load(address, "Ann") not in (None, stale)
    finally:
        await host.close()


async def test_the_hosts_lobby_shows_the_door_and_a_failed_login() -> None:
    """The host's side: the command a friend types, the door's fingerprint in OpenSSH's
    format beside the table's, and a failed SSH login on the host's screen."""
    import asyncssh

    from protocol.identity import IdentityKey as Key
    from protocol.identity_store import KEY_FILE
    from ui.app import make_app
    from ui.session import TablePlan

    plan = TablePlan(
        "via-gladiola", 3, {}, bots=1, password="swordfish", bind="127.0.0.1", port=0,
        discovery=False, ssh_port=0,
    )  # fmt: skip
    app = make_app(settings=UserSettings(name="Host"), host=plan)
    identity = Key.load((config_dir() / KEY_FILE).read_text())
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
        await wait_until(pilot, lambda: "SSH fingerprint" in screen_text(app))
        door = app.session.door  # type: ignore[union-attr]
        flat = "".join(screen_text(app).split())  # lines may wrap anywhere
        addresses = app.session.addresses  # type: ignore[union-attr]
        host = addresses[0].rsplit(":", 1)[0].strip("[]") if addresses else "ADDRESS"
        assert f"ssh-p{door.port}NAME@{host}" in flat
        assert door.fingerprint == identity.ssh_fingerprint
        assert identity.ssh_fingerprint in flat and identity.fingerprint in flat
        sly = "eve[@click=app.quit]"  # a user name is anybody's text: shown as it is, no markup
        with pytest.raises(asyncssh.PermissionDenied):
            await asyncssh.connect(
                "127.0.0.1", door.port, username=sly, password="sardine",
                known_hosts=None, client_keys=None, agent_path=None, config=None,
            )  # fmt: skip
        await wait_until(pilot, lambda: bool(list(app._notifications)))
        (said,) = list(app._notifications)
        assert said.message == "Failed SSH login as eve[@click=app.quit] from 127.0.0.1"
        assert not said.markup


@pytest.mark.parametrize("guest", [True, False])
async def test_an_unexpected_error_ends_a_guest_s_app_with_one_line_and_no_traceback(
    guest: bool, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Textual ends an app on an unexpected error with a traceback of every frame and its local
    variables: the host's source paths, the seat token, the password the door hands the
    app. A guest's terminal is not the host's: it reads one line. (The host's own app, the
    control case, keeps Textual's traceback for the bug report.)"""
    from ui.app import make_app
    from ui.guest_app import CRASHED
    from ui.widgets.chat import ChatBox

    secret = "token-5eed70ce"

    def broken(self: ChatBox, event: Any) -> None:
        raise RuntimeError(f"a bug, with {secret} in a local variable")

    monkeypatch.setattr(ChatBox, "on_input_submitted", broken)
    host, address = await pinned_table()
    settings, plan = UserSettings(name="Ann"), JoinPlan(address)
    app = make_guest_app(settings, plan, None) if guest else make_app(settings=settings, join=plan)
    try:
        with pytest.raises(RuntimeError):  # (the test runner's app raises it again at the end)
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
                await pilot.press("c", *"hello", "enter")
                await wait_until(pilot, lambda: app.return_code is not None)
    finally:
        await host.close()
    printed = capsys.readouterr().err
    assert app.return_code == 1
    if guest:
        assert " ".join(printed.split()) == CRASHED, "one line (wrapped at the terminal's width)"
        assert "Traceback" not in printed and secret not in printed and ".py" not in printed
    else:
        assert "Traceback" in printed and secret in printed, "the control case shows it"


def test_outside_textual_a_guest_s_error_is_one_line_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """An error that escapes the app (or fails before it starts) reaches Python's own hook,
    which prints a traceback on the guest's terminal: for a guest, one line instead."""
    import io
    import logging
    import sys
    import threading

    from ui.guest_app import CRASHED, quiet_tracebacks

    for module, hook in ((sys, "excepthook"), (threading, "excepthook"), (sys, "unraisablehook")):
        monkeypatch.setattr(module, hook, getattr(module, hook))
    monkeypatch.setattr(logging.getLogger("asyncio"), "propagate", True)
    monkeypatch.setattr(logging.getLogger("asyncio"), "handlers", [])
    err = io.StringIO()
    quiet_tracebacks(err)
    try:
        raise RuntimeError("token-5eed70ce")
    except RuntimeError as exc:
        sys.excepthook(type(exc), exc, exc.__traceback__)
    assert err.getvalue() == CRASHED + "\n"
    assert not logging.getLogger("asyncio").propagate


@pytest.mark.parametrize("guest", [True, False])
async def test_a_sealed_table_s_lobby_tells_a_door_guest_their_cards_are_not_sealed_from_the_host(
    guest: bool,
) -> None:
    """A guest's program runs on the host's machine, which holds that guest's secrets: the
    promise a sealed lobby makes to a player on their own machine would be false for them."""
    from ui.app import make_app

    table = Table.create("via-gladiola", 3, {}, name="Club", host_part=os.urandom(32), sealed=True)
    table.add_bot("heuristic", 1)
    host = TableHost(table, IdentityKey(os.urandom(32)), settings=HostSettings())
    await host.start()
    address = f"127.0.0.1:{host.port}"
    KnownHosts(config_dir() / "known_hosts").remember(address, host.identity.public_key)
    settings, plan = UserSettings(name="Ann"), JoinPlan(address)
    app = make_guest_app(settings, plan, None) if guest else make_app(settings=settings, join=plan)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: "Ann (you)" in screen_text(app), seconds=30)
            text = " ".join(screen_text(app).split())
            if guest:
                assert "your cards are not sealed from the host" in text, text
                assert "the host included, sees your cards" not in text
            else:
                assert "Sealed table: nobody, the host included, sees your cards." in text, text
    finally:
        await host.close()
