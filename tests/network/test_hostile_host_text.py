"""A hostile host cannot write to its players' terminals: the words of its notices and errors
are refused when they carry control characters, before any program prints them.

In process, on loopback: a host patched to slip a terminal escape sequence into a notice's
name (past its own checks), and a real `netcards bot` process, which prints notices on its
standard error as they come.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from netcards.table import Table
from protocol.connection import packed
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.messages import Join, TableNotice
from protocol.table_session import Member, TableSession
from tests.network.processes import bot, wait_for

ESCAPE = "\x1b]0;owned\x07\x1b[2J"
"""Sets the window's title and clears the screen, on a terminal that obeys it."""


class HostileSession(TableSession):
    def _join(self, member: Member, join: Join) -> None:
        super()._join(member, join)
        notice = TableNotice("away", {"seat": 1, "name": "Bob" + ESCAPE})
        self._send(member, packed(notice, check=False))  # never checked: sealed as it is


class Hostile(TableHost):
    session_class = HostileSession


async def test_a_notice_with_a_terminal_escape_is_refused_not_printed(tmp_path: Path) -> None:
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=os.urandom(32))
    server = Hostile(table, IdentityKey.generate(os.urandom), settings=HostSettings())
    port = await server.start()
    ann = bot(tmp_path, port, "Ann")
    try:
        await asyncio.to_thread(
            wait_for, lambda: "control character" in ann.stderr(), 30, "the refusal"
        )
    finally:
        ann.kill()
        await server.close()
    said = ann.stdout() + ann.stderr()
    assert "\x1b" not in said and "owned" not in said, said
    assert "field 'args.name' contains the control character U+001B" in said, said
