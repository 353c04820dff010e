"""A table with its SSH door, in process, and guests that reach it as a person's terminal would:
an asyncssh client with a PTY whose output a real terminal emulator (pyte) renders."""

from __future__ import annotations

import asyncio
import os
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh
import pyte

from netcards.table import Table
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey, ssh_public_line
from protocol.throttle import FailureThrottle
from ui.ssh_door import DoorSettings, SshDoor, local_address

KEYS = {
    "up": "\x1b[A",
    "down": "\x1b[B",
    "right": "\x1b[C",
    "left": "\x1b[D",
    "home": "\x1b[H",
    "enter": "\r",
    "escape": "\x1b",
}


@dataclass
class DoorTable:
    host: TableHost
    door: SshDoor
    lines: list[str]

    @property
    def port(self) -> int:
        return self.door.port

    def logged(self, text: str) -> bool:
        return any(text in line for line in self.lines)

    async def wait_logged(self, text: str, seconds: float = 20) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for line in self.lines:
                if text in line:
                    return line
            await asyncio.sleep(0.05)
        raise AssertionError(f"{text!r} never logged:\n" + "\n".join(self.lines[-30:]))

    def known_hosts(self, port: int | None = None) -> Any:
        """What a guest's known_hosts says after the first visit: the table's own key."""
        line = f"[127.0.0.1]:{port or self.port} {ssh_public_line(self.host.identity.public_key)}"
        return asyncssh.import_known_hosts(line + "\n")


@asynccontextmanager
async def door_table(
    state: Path,
    *,
    players: int = 2,
    bots: int = 1,
    password: str | None = None,
    authorized_keys: asyncssh.SSHAuthorizedKeys | None = None,
    grace: float = 30.0,
    bot_delay: float = 0.0,
    door: DoorSettings | None = None,
    throttle: FailureThrottle | None = None,
) -> AsyncIterator[DoorTable]:
    lines: list[str] = []
    table = Table.create("via-gladiola", players, {}, name="door test", host_part=os.urandom(32))
    for seat in range(players - bots, players):
        table.add_bot("heuristic", seat)
    host = TableHost(
        table,
        IdentityKey.generate(os.urandom),
        password=password,
        settings=HostSettings(grace=grace, bot_delay=bot_delay),
        log=lines.append,
    )
    port = await host.start("127.0.0.1", 0)
    ssh_door = SshDoor(
        host,
        table_address=local_address("127.0.0.1", port),
        password=password,
        authorized_keys=authorized_keys,
        state_root=state,
        settings=door or DoorSettings(hang_up_grace=2.0),
        log=lines.append,
        throttle=throttle,
    )
    await ssh_door.start("127.0.0.1", 0)
    try:
        yield DoorTable(host, ssh_door, lines)
    finally:
        await ssh_door.close()
        await host.close()


class Terminal(asyncssh.SSHClientSession[bytes]):
    """The guest's terminal: every byte from the door goes through a VT100 emulator."""

    def __init__(self, cols: int = 80, rows: int = 24) -> None:
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.stderr = bytearray()
        self.raw = bytearray()
        """Every byte of the guest's stdout, as their terminal got it."""
        self.received = 0
        self.closed = asyncio.Event()
        self.exit_status: int | None = None

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        if datatype == asyncssh.EXTENDED_DATA_STDERR:
            self.stderr += data
            return
        self.received += len(data)
        self.raw += data
        self.stream.feed(data)

    def exit_status_received(self, status: int) -> None:
        self.exit_status = status

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()

    def text(self) -> str:
        return "\n".join(self.screen.display)


# The private modes a full-screen app turns on (`h`) and must turn off (`l`) before its
# terminal is a shell's again; the cursor the other way round.
MODES = {
    "alternate screen": (b"\x1b[?1049h", b"\x1b[?1049l"),
    "mouse reports": (b"\x1b[?1000h", b"\x1b[?1000l"),
    "mouse motion reports": (b"\x1b[?1003h", b"\x1b[?1003l"),
    "SGR mouse reports": (b"\x1b[?1006h", b"\x1b[?1006l"),
    "bracketed paste": (b"\x1b[?2004h", b"\x1b[?2004l"),
    "synchronized output": (b"\x1b[?2026h", b"\x1b[?2026l"),
    "hidden cursor": (b"\x1b[?25l", b"\x1b[?25h"),
}


def modes_left_on(raw: bytes) -> list[str]:
    """The modes a terminal fed `raw` is left in: turned on, and not off after."""
    return [name for name, (on, off) in MODES.items() if raw.rfind(on) > raw.rfind(off)]


def client_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


def authorized(*keys: asyncssh.SSHKey) -> asyncssh.SSHAuthorizedKeys:
    return asyncssh.import_authorized_keys(
        "".join(k.export_public_key("openssh").decode() for k in keys)
    )


async def connect(
    table: DoorTable,
    user: str,
    *,
    key: asyncssh.SSHKey | None = None,
    password: str | None = None,
    port: int | None = None,
    agent: str | None = None,
) -> asyncssh.SSHClientConnection:
    """Log in, checking the door's host key against the table's identity (as pinned);
    `agent`: ask to forward an SSH agent (as `ssh -A`), this path standing for its socket."""
    return await asyncssh.connect(
        "127.0.0.1",
        port or table.port,
        username=user,
        known_hosts=table.known_hosts(port),
        client_keys=[key] if key is not None else None,
        password=password,
        agent_path=None,
        agent_forwarding=agent or False,
        config=None,
        preferred_auth="publickey,keyboard-interactive,password",
    )


@dataclass
class Guest:
    conn: asyncssh.SSHClientConnection
    chan: Any
    term: Terminal
    sent: list[str] = field(default_factory=list)

    def text(self) -> str:
        return self.term.text()

    def keys(self, *names: str) -> None:
        self.chan.write("".join(KEYS.get(n, n) for n in names).encode())

    async def wait_for(self, *texts: str, seconds: float = 30) -> str:
        """The screen once it shows any of `texts` (a regex each)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            screen = self.text()
            if any(re.search(t, screen) for t in texts):
                return screen
            if self.term.closed.is_set():
                break
            await asyncio.sleep(0.05)
        raise AssertionError(
            f"{texts!r} never showed:\n{self.text()}\nstderr: {bytes(self.term.stderr)!r}"
        )

    async def wait_gone(self, text: str, seconds: float = 30) -> None:
        """Until `text` is no longer on the screen."""
        deadline = time.monotonic() + seconds
        while text in self.text():
            if time.monotonic() > deadline or self.term.closed.is_set():
                raise AssertionError(f"{text!r} stayed:\n{self.text()}")
            await asyncio.sleep(0.05)

    async def settle(self, quiet: float = 0.1, seconds: float = 5) -> None:
        """Until the app has drawn everything it had to draw (no output for `quiet`)."""
        deadline = time.monotonic() + seconds
        seen = self.term.received
        calm_since = time.monotonic()
        while time.monotonic() < deadline:
            await asyncio.sleep(0.03)
            if self.term.received != seen:
                seen, calm_since = self.term.received, time.monotonic()
            elif time.monotonic() - calm_since >= quiet:
                return

    def resize(self, cols: int, rows: int) -> None:
        self.term.screen.resize(rows, cols)
        self.chan.change_terminal_size(cols, rows)

    async def close(self) -> None:
        self.conn.close()
        await self.conn.wait_closed()


async def guest(
    table: DoorTable,
    user: str,
    *,
    key: asyncssh.SSHKey | None = None,
    password: str | None = None,
    command: str | None = None,
    pty: bool = True,
    env: dict[str, str] | None = None,
    size: tuple[int, int] = (80, 24),
    port: int | None = None,
    agent: str | None = None,
) -> Guest:
    conn = await connect(table, user, key=key, password=password, port=port, agent=agent)
    cols, rows = size
    chan, term = await conn.create_session(
        lambda: Terminal(cols, rows),
        command,
        request_pty=pty,
        term_type="xterm-256color" if pty else None,
        term_size=(cols, rows) if pty else None,
        env=env if env is not None else {"LANG": "C.UTF-8"},
        encoding=None,
    )
    return Guest(conn, chan, term)
