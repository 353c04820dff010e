"""The end of a table, as an SSH guest lives it: the host stops (ctrl+c, SIGTERM) or leaves.

A guest must get what a LAN player gets: the results so far (or, in the lobby, a line saying the
table closed), time to read them, and their own terminal back as it was (the app's modes undone:
checked on the very bytes their terminal got), with `ssh` ending well (status 0).
"""

from __future__ import annotations

import asyncio
import re
import signal
from pathlib import Path

import asyncssh
import pytest

from protocol.identity import IdentityKey, ssh_public_line
from protocol.settings import config_dir
from tests.network.door_support import (
    Guest,
    Terminal,
    client_key,
    door_table,
    guest,
    modes_left_on,
)
from tests.network.processes import Proc, host, wait_for
from tests.ui.pilots import screen_text, wait_until
from ui.app import make_app
from ui.session import TablePlan
from ui.ssh_door.guest_process import TERMINAL_RESET
from ui.user_settings import UserSettings

SO_FAR = "Results so far"


def assert_terminal_given_back(visitor: Guest) -> None:
    raw = bytes(visitor.term.raw)
    assert b"\x1b[?1049h" in raw, "the app drew on the alternate screen"
    assert modes_left_on(raw) == [], raw[-400:]


async def door_guest(server: Proc, user: str) -> Guest:
    """A guest at the headless host's door, checking its key as pinned."""
    await asyncio.to_thread(wait_for, lambda: "\nssh " in "\n" + server.stdout(), 20)
    found = re.search(r"^ssh \S+:(\d+)", server.stdout(), re.M)
    assert found is not None
    ssh_port = int(found.group(1))
    key = IdentityKey.load((config_dir() / "host_key").read_text())
    known = asyncssh.import_known_hosts(
        f"[127.0.0.1]:{ssh_port} {ssh_public_line(key.public_key)}\n"
    )
    conn = await asyncssh.connect(
        "127.0.0.1", ssh_port, username=user, known_hosts=known, client_keys=[client_key()],
        agent_path=None, config=None,
    )  # fmt: skip
    chan, term = await conn.create_session(
        Terminal, term_type="xterm-256color", term_size=(80, 24), env={"LANG": "C.UTF-8"},
        encoding=None,
    )  # fmt: skip
    return Guest(conn, chan, term)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl+c", "SIGTERM"])
async def test_a_headless_host_stopped_mid_game_leaves_its_guest_the_results_and_their_terminal(
    tmp_path: Path, sig: signal.Signals
) -> None:
    server, _port, _ = await asyncio.to_thread(
        host, tmp_path, "--game", "via-gladiola", "--players", "2", "--bots", "1", "--port", "0",
        "--ssh", "0",
    )  # fmt: skip
    try:
        ann = await door_guest(server, "ann")
        await ann.wait_for(r"ann \(you\)", seconds=60)
        ann.keys("r")
        await ann.wait_for("Your turn", "Waiting for")
        server.popen.send_signal(sig)
        await ann.wait_for(SO_FAR)
        await asyncio.to_thread(wait_for, lambda: "SSH guest(s) to leave" in server.stderr(), 20)
        await asyncio.sleep(1.0)  # reading: the session stays while the host waits
        assert not ann.term.closed.is_set() and server.popen.poll() is None
        assert SO_FAR in ann.text() and "ann (you)" in ann.text()
        ann.keys("m")
        await asyncio.wait_for(ann.term.closed.wait(), 20)
        assert ann.term.exit_status == 0, bytes(ann.term.stderr)
        assert_terminal_given_back(ann)
        assert not ann.term.stderr, "no closing line over the results"
        assert await asyncio.to_thread(server.popen.wait, 20) == 1, "stopped before the end"
        await ann.close()
    finally:
        server.kill()


async def test_a_headless_host_stopped_in_the_lobby_says_so_and_gives_the_terminal_back(
    tmp_path: Path,
) -> None:
    server, _port, _ = await asyncio.to_thread(
        host, tmp_path, "--game", "via-gladiola", "--players", "2", "--port", "0", "--ssh", "0"
    )
    try:
        ann = await door_guest(server, "ann")
        await ann.wait_for(r"ann \(you\)", seconds=60)
        server.popen.send_signal(signal.SIGTERM)
        await asyncio.wait_for(ann.term.closed.wait(), 20)
        assert ann.term.exit_status == 0, bytes(ann.term.stderr)
        assert_terminal_given_back(ann)
        said = bytes(ann.term.raw).rsplit(b"\x1b[?1049l", 1)[1]
        assert b"The host closed the table." in said, "the line, after the app's screen"
        assert await asyncio.to_thread(server.popen.wait, 20) == 1
        await ann.close()
    finally:
        server.kill()


async def test_a_guest_whose_app_is_ended_gets_their_terminal_back_and_a_line(
    tmp_path: Path,
) -> None:
    """When the wait is over (or the host's second ctrl+c), the door ends the app, cut off
    mid-frame maybe: the door undoes what the app had turned on, then says why."""
    async with door_table(tmp_path) as table:
        ann = await guest(table, "ann", key=client_key())
        await ann.wait_for(r"ann \(you\)")
        await asyncio.wait_for(table.door.close(), 15)
        await asyncio.wait_for(ann.term.closed.wait(), 15)
        assert ann.term.exit_status == 0
        assert bytes(ann.term.raw).endswith(TERMINAL_RESET + b"\r\n")
        assert_terminal_given_back(ann)
        assert b"The table has closed." in bytes(ann.term.stderr)
        await ann.close()


async def test_an_app_host_leaving_mid_game_leaves_its_guest_the_results_and_their_terminal() -> (
    None
):
    plan = TablePlan(
        "via-gladiola", 2, {}, bind="127.0.0.1", port=0, discovery=False, ssh_port=0,
    )  # fmt: skip
    app = make_app(settings=UserSettings(name="Host"), host=plan)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
        session = app.session
        assert session is not None and session.door is not None
        door = session.door
        key = IdentityKey.load((config_dir() / "host_key").read_text())
        known = asyncssh.import_known_hosts(
            f"[127.0.0.1]:{door.port} {ssh_public_line(key.public_key)}\n"
        )
        conn = await asyncssh.connect(
            "127.0.0.1", door.port, username="ann", known_hosts=known,
            client_keys=[client_key()], agent_path=None, config=None,
        )  # fmt: skip
        chan, term = await conn.create_session(
            Terminal, term_type="xterm-256color", term_size=(80, 24), env={"LANG": "C.UTF-8"},
            encoding=None,
        )  # fmt: skip
        ann = Guest(conn, chan, term)
        await ann.wait_for(r"ann \(you\)", seconds=60)
        await wait_until(pilot, lambda: "ann" in screen_text(app), seconds=30)
        ann.keys("r")
        await pilot.press("r")
        await ann.wait_for("Your turn", "Waiting for")
        await wait_until(pilot, lambda: session.client.game is not None, seconds=30)
        await pilot.press("escape")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "Confirm")
        await pilot.press("y")
        await ann.wait_for(SO_FAR)
        await asyncio.sleep(1.0)
        assert not ann.term.closed.is_set(), "the guest reads the results as long as they like"
        ann.keys("m")
        await asyncio.wait_for(ann.term.closed.wait(), 20)
        assert ann.term.exit_status == 0, bytes(ann.term.stderr)
        assert_terminal_given_back(ann)
        assert not ann.term.stderr
        await ann.close()
        closing = session.door_closing
        assert closing is not None
        await asyncio.wait_for(closing, 15)  # nobody left to wait for: the door is shut
