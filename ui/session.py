"""The bridge between a table connection (asyncio, in `protocol`) and the screens (Textual).

A session owns the player's `TableClient`, and, when this app hosts, the `TableHost` and the
LAN discovery with it. Every notice from the client becomes a `SessionNotice` message for the
screen on top; screens read the rest (view, log, chat) from `session.client`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.message import Message

from netcards.game import Game
from netcards.registry import get_game
from netcards.table import Table, clean_name
from protocol.address import format_address
from protocol.client import Notice, TableClient
from protocol.host import HostSettings, TableHost
from protocol.identity_store import load_or_create_identity
from protocol.known_hosts import KnownHosts, OwnHost
from protocol.lan import lan_addresses
from protocol.settings import config_dir
from ui.i18n import _
from ui.journals import GameJournal, new_journal_path
from ui.seat_files import SeatFiles
from ui.sending import REQUEST, send

if TYPE_CHECKING:
    from ui.ssh_door import SshDoor


class DoorPortError(OSError):
    """The table opened but its SSH door could not listen (its port is taken, say): the port
    to change is the door's."""


class SessionNotice(Message, bubble=False):
    """Something happened at the table (see `protocol.client` for the kinds of notice).
    The app hands each one to the screen on top; it must not bubble back up to the app."""

    def __init__(self, notice: Notice) -> None:
        super().__init__()
        self.notice = notice


@dataclass
class TablePlan:
    """What the host screen (or `netcards host` without --headless) asks for."""

    game: str
    players: int
    options: dict[str, Any]
    bots: int = 0
    bot_level: str = "heuristic"
    stand_in_level: str = "heuristic"
    name: str = ""
    """Empty: named after the player who hosts it ("Ann's table", in their language)."""
    password: str | None = None
    bind: str = "0.0.0.0"
    port: int = 47474
    discovery: bool = True
    discovery_port: int | None = None
    """None: the first free port of the discovery range."""
    grace: float = 30.0
    turn_clock: float = 0.0
    ssh_port: int | None = None
    """Open the SSH door on this port (0: any free); None: no door."""
    ssh_keys: Path | None = None
    """An authorized_keys file: only these keys pass the door."""
    sealed: bool = False
    """A sealed table (docs/sealed.md)."""


def own_pin(plan: TablePlan, port: int, key: bytes) -> KnownHosts:
    """The app's own player knows its table's key. A table others can join is pinned in the
    known hosts, so that after a crash `netcards join 127.0.0.1:PORT` takes the seat back
    without a first-visit question; a practice table (this machine only, any free port) pins
    nothing, or every game would add an entry."""
    address = format_address("127.0.0.1", port)
    if plan.port == 0 and plan.bind == "127.0.0.1":
        return OwnHost(address, key)
    hosts = known_hosts()
    if hosts.lookup(address) != key:
        with contextlib.suppress(OSError):
            hosts.remember(address, key)
    return hosts


def known_hosts() -> KnownHosts:
    return KnownHosts(config_dir() / "known_hosts")


class Session:
    def __init__(
        self,
        client: TableClient,
        post: Callable[[Message], object],
        host: TableHost | None = None,
        door: SshDoor | None = None,
    ) -> None:
        self.client = client
        self.host = host
        self.door = door
        self._post = post
        self._tasks: tuple[asyncio.Task[Any], ...] = ()
        self.door_closing: asyncio.Task[None] | None = None
        """The SSH door closing after the table, while its guests read the end."""
        self.addresses: list[str] = []
        """Where other players reach a hosted table (this machine's addresses and the port)."""
        self.table_closed = False
        """The hosted table is closed (`close_table`); our own client may still be reading its
        end."""

    @property
    def game(self) -> Game[Any] | None:
        return self.client.game

    async def start(self) -> None:
        self._tasks = (asyncio.create_task(self._pump()), asyncio.create_task(self.client.run()))

    async def _pump(self) -> None:
        while True:
            notice = await self.client.updates.get()
            self._post(SessionNotice(notice))

    async def close(self, *, wait_for_guests: bool = True) -> None:
        """Leave the table; a hosted table closes first (`close_table`), so that every other
        player hears it closed (not that the host's own player went away). Nothing reaches the
        screens after. Without `wait_for_guests` (the app quits) the SSH door's guests'
        sessions end now, also those of a table closed earlier."""
        pump, running = self._tasks
        await _stop(pump)
        await self.close_table(wait_for_guests=wait_for_guests)
        await send(REQUEST, self.client.leave, "closed the table screen")  # (no screen to say why)
        await _stop(running)
        if not wait_for_guests:
            await self.door_closed()

    async def close_table(self, *, wait_for_guests: bool = True) -> None:
        """Close the hosted table (once) and keep our own player: its client hears the table
        close as every other player's does, the `closed` notice and the audit of a game so far,
        and checks that deal the same way, for the host's own results so far. The SSH door's
        guests then read the end in their app and leave by a key, as LAN players do: the door
        closes behind them in `door_closing` (its port is free at once, for the next table)."""
        if self.host is None or self.table_closed:
            return
        self.table_closed = True
        await self.host.close()
        if self.door is not None:  # after the host told its guests that the table closed
            if wait_for_guests:
                wait = self.door.settings.closing_wait
                self.door_closing = asyncio.create_task(self.door.close(wait))
            else:
                await self.door.close()

    async def client_done(self, timeout: float) -> None:
        """Until our client stops (it heard the table close and checked the deal, say), or
        `timeout` seconds."""
        _pump, running = self._tasks
        await asyncio.wait({running}, timeout=timeout)

    async def door_closed(self) -> None:
        """The SSH door's guests' sessions ended now, if the door still waits for them."""
        if self.door is not None and self.door_closing is not None:
            self.door.hurry()
            await asyncio.gather(self.door_closing, return_exceptions=True)


async def _stop(task: asyncio.Task[Any]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task


async def open_table(
    plan: TablePlan,
    player: str,
    post: Callable[[Message], object],
    *,
    bot_delay: float = 0.0,
    random_bytes: Callable[[int], bytes] = os.urandom,
    log: Callable[[str], None] | None = None,
    failed_login: Callable[[str, str], None] | None = None,
    own_files: Callable[[str], SeatFiles | None] | None = None,
) -> Session:
    """Host a table in this process and sit at it (seat 0) through a client like any other;
    with `plan.ssh_port`, open its SSH door too (`failed_login(address, user)` on each failed
    SSH login). `own_files(address)`: where our own player keeps its seat, as a player who
    joined does (`ui/seat_files.py`), under the address it connects to (None: in memory)."""
    game = get_game(plan.game)
    config = game.make_config(plan.players, plan.options)
    name = plan.name or _("{player}'s table").format(player=player)
    table = Table(game, config, clean_name(name), random_bytes(32), sealed=plan.sealed)
    owner = random_bytes(32)
    table.claim_seat(player, owner.hex(), seat=0)
    table.seats[0].connected = False
    for seat in range(config.players - plan.bots, config.players):
        table.add_bot(plan.bot_level, seat)
    table.set_stand_in_level(plan.stand_in_level)
    identity = load_or_create_identity(config_dir())
    journal = GameJournal(new_journal_path(game.id))
    host = TableHost(
        table,
        identity,
        password=plan.password,
        settings=HostSettings(grace=plan.grace, bot_delay=bot_delay, turn_clock=plan.turn_clock),
        journal=journal,
        owner_token=owner,
        log=log,
        random_bytes=random_bytes,
    )
    try:
        port = await host.start(plan.bind, plan.port)
    except OSError:
        journal.close()
        with contextlib.suppress(OSError):
            journal.path.unlink()
        raise
    journal.write({"type": "listen", "port": port})  # `host --resume` listens there again
    journal.sync_soon()  # by the journal's thread: the loop does not wait for the disk
    door = None
    if plan.ssh_port is not None:
        from ui.ssh_door import DoorError, open_door, read_authorized_keys  # asyncssh: only now

        try:
            keys = read_authorized_keys(plan.ssh_keys) if plan.ssh_keys is not None else None
            door = await open_door(
                host, plan.bind, plan.ssh_port, password=plan.password,
                authorized_keys=keys, log=log, failed_login=failed_login,
            )  # fmt: skip
        except OSError as exc:
            await host.close()
            raise DoorPortError(exc.errno, exc.strerror) from exc
        except DoorError:
            await host.close()
            raise
    if plan.discovery:
        await host.announce(plan.discovery_port)
    address = f"127.0.0.1:{port}"
    files = own_files(address) if own_files is not None else None
    client = TableClient(
        address,
        player,
        own_pin(plan, port, identity.public_key),
        password=plan.password,
        token=owner,
        random_bytes=random_bytes,
        **(files or SeatFiles()).fields(),
    )
    session = Session(client, post, host, door)
    session.addresses = [format_address(a, port) for a in lan_addresses(plan.bind)]
    await session.start()
    return session


async def join_table(
    address: str,
    player: str,
    post: Callable[[Message], object],
    *,
    password: str | None = None,
    spectator: bool = False,
    trust: Callable[[str], Any] | None = None,
    token: bytes | None = None,
    files: SeatFiles | None = None,
) -> Session:
    """Join a table; `token` and `files` are what an earlier run of the program kept of its
    seat, and where this one keeps it (`ui/seat_files.py`; None: in memory only)."""
    client = TableClient(
        address,
        player,
        known_hosts(),
        password=password,
        spectator=spectator,
        trust=trust,
        token=token,
        **(files or SeatFiles()).fields(),
    )
    session = Session(client, post)
    await session.start()
    return session
