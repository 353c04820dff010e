"""Chat through the SSH door: a long line, a paste, and an error, seen from the guest's terminal.

A guest's app runs on the host's machine: whatever goes wrong in it, its terminal (the guest's)
must never show a traceback, which names the host's source files and prints local variables
(the seat token, the table password the door hands the app)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from tests.network.door_support import Guest, client_key, door_table, guest
from ui.guest_app import CRASHED
from ui.ssh_door import SshDoor

LONG = "".join(chr(ord("a") + i % 26) for i in range(600))
SECRET = "token-5eed70ce"


def record(visitor: Guest) -> bytearray:
    """Every byte the guest's terminal receives from now on, as sent (before the emulator)."""
    raw = bytearray()
    receive = visitor.term.data_received

    def data_received(data: bytes, datatype: Any) -> None:
        raw.extend(data)
        receive(data, datatype)

    visitor.term.data_received = data_received  # type: ignore[method-assign]
    return raw


def said_by(table: Any, name: str) -> list[str]:
    return [line.text for line in table.host.session._chat if line.name == name]


@pytest.mark.parametrize("how", ["typed", "pasted"])
async def test_a_600_character_line_through_the_door_sends_500_and_the_guest_stays(
    tmp_path: Path, how: str
) -> None:
    async with door_table(tmp_path) as table:
        visitor = await guest(table, "Ann", key=client_key())
        await visitor.wait_for(r"Ann \(you\)")
        raw = record(visitor)
        visitor.keys("c")
        await visitor.settle()
        if how == "typed":
            visitor.keys(LONG)
        else:  # the terminal's bracketed paste, line breaks and a tab in it
            text = LONG[:200] + "\n" + LONG[200:400] + "\t" + LONG[400:]
            visitor.keys("\x1b[200~" + text + "\x1b[201~")
        # said in the chat box (its words wrap at its width)
        await visitor.wait_for("chat line holds", seconds=60)
        visitor.keys("enter")
        for _ in range(400):
            if said_by(table, "Ann"):
                break
            await asyncio.sleep(0.05)
        expected = (
            LONG[:500]
            if how == "typed"
            else (LONG[:200] + " " + LONG[200:400] + " " + LONG[400:])[:500]
        )
        assert said_by(table, "Ann") == [expected]
        visitor.keys("escape")
        await visitor.settle()
        assert not visitor.term.closed.is_set(), "the guest is still at the table"
        assert "Leave the table?" not in visitor.text()
        assert b"Traceback" not in raw
        await visitor.close()


@pytest.mark.parametrize("fault", ["refused", "crash"])
async def test_an_error_in_a_guest_s_app_never_shows_a_traceback_on_their_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault: str
) -> None:
    """The guest's app is a child process: a `sitecustomize` on its path breaks it from the
    start, as a bug would. `refused`: the protocol raises while sending a line (a one-line
    message, the app goes on). `crash`: an unexpected error escapes a handler (the app ends
    with one line, and the door with it)."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(
        "from protocol.client import TableClient\n"
        "from protocol.errors import ErrorCode, LocalProtocolError\n"
        "from ui.widgets.chat import ChatBox\n"
        f"SECRET = {SECRET!r}\n"
        "async def say(self, text):\n"
        "    raise LocalProtocolError(ErrorCode.OUT_OF_RANGE, 'field text ' + SECRET)\n"
        "def submitted(self, event):\n"
        "    raise RuntimeError('a bug near ' + SECRET)\n"
        + (
            "TableClient.say = say\n"
            if fault == "refused"
            else "ChatBox.on_input_submitted = submitted\n"
        )
    )
    environment = SshDoor.environment

    def broken(self: SshDoor, session: Any, home: Path) -> dict[str, str]:
        env = environment(self, session, home)
        env["PYTHONPATH"] = str(site) + os.pathsep + env["PYTHONPATH"]
        return env

    monkeypatch.setattr(SshDoor, "environment", broken)
    async with door_table(tmp_path / "state") as table:
        visitor = await guest(table, "Ann", key=client_key())
        await visitor.wait_for(r"Ann \(you\)")
        raw = record(visitor)
        visitor.keys("c")
        await visitor.settle()
        visitor.keys("hello", "enter")
        if fault == "refused":
            await visitor.wait_for("that line could not be sent")
            await visitor.settle()
            assert not visitor.term.closed.is_set(), "the guest is still at the table"
        else:
            await asyncio.wait_for(visitor.term.closed.wait(), 30)
            assert visitor.term.exit_status == 1
            printed = " ".join(raw.decode(errors="replace").split())
            assert CRASHED in printed, printed[-600:]
        everything = bytes(raw) + bytes(visitor.term.stderr)
        for leak in (b"Traceback", SECRET.encode(), b".py", str(tmp_path).encode()):
            assert leak not in everything, f"{leak!r} reached the guest's terminal"
        await visitor.close()
