"""The host on asyncio TCP: accepts players, runs the handshake, and drives the table.

Each connection is one task reading bytes into its sans-IO `HostConnection`, and one writer task
draining a bounded queue, so a slow or stuck client never delays the others: when its queue is
full it is disconnected (and may rejoin with its seat token). Every decision about the game is
the `Table`'s; this module turns messages into table calls and table changes into messages.
Every accepted action is in the journal (flushed) before any player hears of it, and synced
to the disk a moment later (see `journal_file`).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from netcards.errors import FutureMove, GameError, StaleMove
from netcards.game import Outcome
from netcards.table import LobbyError, Table
from protocol.admission import Waiting, make_room, spectator_refusal
from protocol.connection import Packed, packed
from protocol.crypto import TablePassword
from protocol.deal_round import DealRefusal, DealRound
from protocol.discovery import Responder, TableInfo
from protocol.errors import (
    ErrorCode,
    LocalProtocolError,
    ProtocolError,
    RemoteProtocolError,
    WrongPassword,
)
from protocol.events import (
    ConnectionClosed,
    HandshakeDone,
    MessageReceived,
    NeedData,
    PasswordKeyNeeded,
)
from protocol.fanout import audit_messages, history_messages, snapshot_for, update_for
from protocol.host_connection import HostConnection
from protocol.identity import IdentityKey
from protocol.journal_file import JournalWriter
from protocol.limits import CHAT_MEMORY, PROTOCOL_VERSION
from protocol.liveness import Liveness
from protocol.messages import (
    Action,
    AddBot,
    Chat,
    Clock,
    ClockEntry,
    Commit,
    Contribute,
    Contribution,
    Error,
    Join,
    Leave,
    Lobby,
    Message,
    Pledge,
    Pledges,
    Ready,
    RemoveBot,
    Result,
    Say,
    Seated,
    SeatInfo,
    SeatPledge,
    SetOptions,
    Start,
    TableNotice,
)
from protocol.repeats import RepeatedLines
from protocol.throttle import FailureThrottle

Log = Callable[[str], None]


@dataclass
class HostSettings:
    """Timings and limits; the defaults suit people, tests shorten them."""

    grace: float = 30.0
    bot_delay: float = 0.0
    handshake_timeout: float = 10.0
    join_timeout: float = 15.0
    pledge_timeout: float = 10.0
    contribute_timeout: float = 10.0
    queue_limit: int = 512
    max_waiting: int = 64
    """Connections that have not joined yet; beyond this the oldest are shed (see admission)."""
    max_waiting_per_address: int = 8
    max_spectators: int = 32
    max_spectators_per_address: int = 4
    chat_burst: int = 8
    chat_per_second: float = 1.0
    chat_abuse_limit: int = 20
    chat_memory: int = CHAT_MEMORY
    """The last lines of chat a player who sits down, watches or comes back is sent first."""
    ping_interval: float = 5.0
    ping_timeout: float = 20.0
    refusal_log_interval: float = 10.0
    """An address turned away again and again is logged once, then counted for this long."""
    turn_clock: float = 0.0
    """Seconds a player has for each decision (0: no clock); then a bot plays that turn."""
    journal_sync_delay: float = 0.002
    """Seconds after an action's updates leave before the journal is synced to the disk: one
    sync then covers every action of a quick burst, and the next action rarely waits for one."""
    one_game: bool = False
    """The table closes once its game is over (a headless host's does). Its players are told
    with the results, so that none of them comes back to this address for another game."""


@dataclass
class Peer:
    number: int
    address: str
    ip: str
    conn: HostConnection
    writer: asyncio.StreamWriter
    queue: asyncio.Queue[bytes | None]
    liveness: Liveness
    joined: bool = False
    spectator: bool = False
    token: str | None = None
    seat: int | None = None
    name: str = ""
    chat_allowance: float = 0.0
    chat_checked: float = 0.0
    left: bool = False
    """It said `leave`: its player left on purpose, and the others are told so."""
    chat_refusals: int = 0
    """Lines refused for coming too fast: past the limit, the speaker is disconnected (other
    refusals, such as a stale move, never count towards it)."""
    closed: bool = False
    opened: float = 0.0
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)

    @property
    def label(self) -> str:
        who = f" {self.name!r}" if self.name else ""
        return f"peer {self.number}{who} ({self.address})"


class Dropped(Exception):
    """A peer must be disconnected; the message says why (for the host's log)."""


@dataclass
class _Turn:
    """Password checks of one address take turns: a burst of guesses is judged one by one, each
    against the throttle as it stands after the one before."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class TableHost:
    def __init__(
        self,
        table: Table,
        identity: IdentityKey,
        *,
        password: str | None = None,
        settings: HostSettings | None = None,
        journal: JournalWriter | None = None,
        owner_token: bytes | None = None,
        owner_name: str | None = None,
        log: Log | None = None,
        random_bytes: Callable[[int], bytes] = os.urandom,
        throttle: FailureThrottle | None = None,
    ) -> None:
        self.table = table
        self.identity = identity
        self.settings = settings or HostSettings()
        self.journal = journal
        self.owner_token = owner_token.hex() if owner_token else None
        self.owner_name = owner_name
        """A headless table's owner: the first player to join under this name (while the
        seat it takes is held, nobody else can become the owner)."""
        self.log: Log = log or (lambda _line: None)
        self.random_bytes = random_bytes
        self.password = TablePassword(password) if password is not None else None
        self.throttle = throttle if throttle is not None else FailureThrottle()
        """Wrong passwords per peer address: a growing wait before the next guess is judged."""
        self._turns: dict[str, _Turn] = {}
        self._stretching = asyncio.Semaphore(1)
        self.peers: dict[int, Peer] = {}
        self.seq = len(table.actions)
        self.round: DealRound | None = None
        self.taken_back_from: int | None = None
        """Set when resuming a game from a journal: the number of the first action it does not
        hold. Everyone who comes back is told (a client heeds it once), so that whoever had seen
        that action (its record torn by the crash, or lost whole to a power cut before it was
        synced) knows it is taken back."""
        self._withheld: set[str] = set()
        """Seat tokens of players who pledged and did not reveal in time: not asked again."""
        self.finished = asyncio.Event()
        self._results: list[Message | Packed] | None = None  # the end of the game, once over
        self.port = 0
        self.discovery_port = 0
        self._numbers = 0
        self._server: asyncio.Server | None = None
        self._grace: dict[int, asyncio.TimerHandle] = {}
        self._bots: asyncio.Task[None] | None = None
        self._deal_timer: asyncio.TimerHandle | None = None
        self._liveness_task: asyncio.Task[None] | None = None
        self._clocks: dict[int, tuple[asyncio.TimerHandle, float]] = {}
        self._responder: Responder | None = None
        self._clock_tasks: set[asyncio.Task[bool]] = set()
        self._journal_started = table.phase != "lobby"
        self._sync_timer: asyncio.TimerHandle | None = None
        self._run: int | None = None
        """A number of this run of the host, new at every start: a client told that actions
        were taken back heeds it once per run (`taken_back`'s `run`)."""
        self._chat: deque[Chat] = deque(maxlen=self.settings.chat_memory)
        """The last lines said, for those who join later (`_earlier_chat`)."""
        self._refusals = RepeatedLines(
            self.log, "refused", interval=self.settings.refusal_log_interval
        )
        """Connections turned away at once (their address guessed too often): the first of
        an address is logged, then how many more once per interval."""

    # -- life cycle -------------------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        self._server = await asyncio.start_server(self._accept, host, port, limit=2**16)
        self.port = int(self._server.sockets[0].getsockname()[1])
        self._liveness_task = asyncio.create_task(self._watch_liveness())
        if self.table.phase == "playing":  # resumed from a journal: everyone is away
            for seat in self.table.seats:
                if seat.kind == "human":
                    self._start_grace(seat.index)
            self._schedule_bots()
            self._sync_clock()
        elif self.table.phase == "over":
            self.finished.set()
        else:
            self._maybe_deal()  # a table of bots only has nobody to wait for
        return self.port

    async def close(self) -> None:
        """Close the table on purpose. Every player hears it before the connection closes: a
        `closed` notice, the audit of a game stopped halfway (its results so far and its deal
        check), then `leave`. A host that dies says nothing: its players wait for it instead."""
        if self._responder is not None:
            await self._responder.close()
        if self._server is not None:
            self._server.close()
        table = self.table
        audit = (
            audit_messages(table.host_part, table.seed, table.actions)
            if table.phase == "playing"
            else []
        )
        for peer in list(self.peers.values()):
            if peer.joined:
                self._send(peer, TableNotice("closed", {}))
                for chunk in audit:
                    self._send(peer, chunk)
            self._send(peer, Leave("the host closed the table"))
            self._close(peer)
        self._refusals.flush(time.monotonic(), everything=True)
        writers = [task for peer in self.peers.values() for task in peer.tasks]
        if writers:
            await asyncio.wait(writers, timeout=2.0)  # the last words reach everyone first
        for handle in self._grace.values():
            handle.cancel()
        if self._deal_timer is not None:
            self._deal_timer.cancel()
        if self._sync_timer is not None:
            self._sync_timer.cancel()
            self._sync_journal()
        for seat in list(self._clocks):
            self._stop_clock(seat)
        for clock_task in self._clock_tasks:
            clock_task.cancel()
        for task in (self._bots, self._liveness_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for peer in list(self.peers.values()):
            for task in peer.tasks:
                task.cancel()
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)
        if self.journal is not None:
            # Closed on purpose: its players have the results so far and forgot their seats,
            # so `host --resume` refuses this journal instead of reopening a table nobody
            # can come back to.
            with contextlib.suppress(OSError):
                self.journal.append({"type": "closed"})
            self.journal.close()

    async def linger(self, seconds: float) -> None:
        """Give clients a moment to receive the last messages (results, audit)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and any(not p.queue.empty() for p in self.peers.values()):
            await asyncio.sleep(0.05)

    @property
    def dealing(self) -> bool:
        return self.round is not None

    @property
    def outcome(self) -> Outcome | None:
        return self.table.outcome()

    def table_info(self) -> TableInfo:
        """What LAN discovery says about this table (free seats only before the game)."""
        table = self.table
        return TableInfo(
            table.name,
            table.game.id,
            table.config.players,
            table.free_seats() if table.phase == "lobby" else 0,
            self.port,
            PROTOCOL_VERSION,
            self.identity.fingerprint,
            self.password is not None,
        )

    async def announce(self, port: int | None = None) -> str | None:
        """Answer LAN discovery queries until the table closes; the reason if it cannot."""
        responder = Responder(self.table_info)
        try:
            self.discovery_port = await responder.start("0.0.0.0", port)
        except OSError as exc:
            return exc.strerror or str(exc)
        self._responder = responder
        return None

    # -- connections ------------------------------------------------------------------------------

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peername = writer.get_extra_info("peername")
        ip = str(peername[0]) if peername else "?"
        address = f"{peername[0]}:{peername[1]}" if peername else "?"
        refusal = self._guessing_refusal(ip)
        if refusal is not None:  # no handshake at all before the wait is over
            text, detail = refusal
            conn = HostConnection(self.identity, self.random_bytes, password=self.password)
            writer.write(conn.refuse(ErrorCode.THROTTLED, text, detail))
            writer.close()
            self._refusals.line(ip, lambda: f"turned {address} away: {text}", time.monotonic())
            return
        self._make_room(ip)
        self._numbers += 1
        conn = HostConnection(
            self.identity, self.random_bytes, password=self.password, table=self.table.name
        )
        now = time.monotonic()
        peer = Peer(
            self._numbers,
            address,
            ip,
            conn,
            writer,
            asyncio.Queue(self.settings.queue_limit),
            Liveness(now, self.settings.ping_interval, self.settings.ping_timeout),
            chat_allowance=float(self.settings.chat_burst),
            chat_checked=now,
            opened=now,
        )
        self.peers[peer.number] = peer
        peer.tasks.append(asyncio.create_task(self._write(peer)))
        reading = asyncio.current_task()
        if reading is not None:
            peer.tasks.append(reading)
        try:
            await self._read(peer, reader)
        except Dropped as why:
            self.log(f"dropped {peer.label}: {why}")
        except (ConnectionError, OSError) as exc:
            self.log(f"lost {peer.label}: {exc.__class__.__name__}")
        except Exception as exc:  # never let one peer take the host down
            self.log(f"dropped {peer.label} after an internal error: {exc!r}")
            self._last_word(peer, ErrorCode.INTERNAL, "the host hit a bug; it goes on without you")
        finally:
            self._close(peer)
            self._forget(peer)

    def _make_room(self, ip: str) -> None:
        """Shed waiting (not yet joined) connections until one more from `ip` fits."""
        s = self.settings
        while True:
            waiting = [
                Waiting(p.number, p.ip, p.opened)
                for p in self.peers.values()
                if not p.joined and not p.closed
            ]
            victim = make_room(
                waiting, ip, limit=s.max_waiting, per_address=s.max_waiting_per_address
            )
            if victim is None:
                return
            peer = self.peers[victim.number]
            self.log(f"dropped {peer.label}: it has not joined; its place is needed to make room")
            self._close(peer)
            # Hung up now: its writer task may not have run yet, and the end of its reading
            # (EOF, at once) forgets it as for any other connection that goes.
            peer.writer.close()

    async def _read(self, peer: Peer, reader: asyncio.StreamReader) -> None:
        opened = time.monotonic()
        while True:
            if not peer.joined:
                limit = (
                    self.settings.handshake_timeout
                    if peer.conn.handshake is None
                    else self.settings.handshake_timeout + self.settings.join_timeout
                )
                timeout = opened + limit - time.monotonic()
                if timeout <= 0:
                    raise self._too_slow(peer)
            else:
                timeout = None
            try:
                data = await asyncio.wait_for(reader.read(65536), timeout)
            except TimeoutError:
                raise self._too_slow(peer) from None
            peer.liveness.received(time.monotonic())
            salt = self._receive(peer, data)
            while salt is not None and not peer.closed:
                await self._judge_password(peer, salt)
                salt = self._receive(peer, None)
            if peer.closed:
                return

    def _too_slow(self, peer: Peer) -> Dropped:
        why = "did not finish the handshake and join in time"
        self._last_word(peer, ErrorCode.TIMEOUT, why)
        return Dropped(why)

    def _last_word(self, peer: Peer, code: ErrorCode, text: str) -> None:
        """A fatal `error` for a peer the host is about to drop for a reason of its own (the
        peer was too slow or silent, or the host hit a bug): plaintext during the handshake,
        encrypted after it, so that its program can say why rather than guess from a close."""
        if peer.closed:
            return
        with contextlib.suppress(ProtocolError):  # its connection failed: nothing can be said
            self._enqueue(peer, peer.conn.refuse(code, text))

    def _receive(self, peer: Peer, data: bytes | None) -> bytes | None:
        """Feed `data` (None: go on with what is buffered) and act on every event; the salt
        if the connection waits for its password key."""
        conn = peer.conn
        try:
            if data is not None:
                conn.receive_data(data)
            while True:
                event = conn.next_event()
                self._flush(peer)
                if isinstance(event, NeedData):
                    return None
                if isinstance(event, PasswordKeyNeeded):
                    return event.salt
                if isinstance(event, ConnectionClosed):
                    raise Dropped("closed the connection")
                if isinstance(event, HandshakeDone):
                    continue
                if isinstance(event, MessageReceived):
                    self._dispatch(peer, event.message)
                    if peer.closed:
                        return None
        except RemoteProtocolError as exc:
            self._flush(peer)
            raise Dropped(f"protocol error: {exc}") from None
        except LocalProtocolError as exc:
            raise Dropped(f"local protocol error: {exc}") from None

    def _guessing_refusal(self, ip: str) -> tuple[str, dict[str, object]] | None:
        """Why `ip` may not have a password judged now (it failed too often lately), or None."""
        if self.password is None:
            return None
        now = time.monotonic()
        wait = self.throttle.delay(ip, now)
        if wait <= 0:
            return None
        if self.throttle.refused(ip, now):
            text = (
                "too many wrong passwords from your address: it is refused for "
                f"{math.ceil(wait / 60)} more minute(s)"
            )
        else:
            text = f"too many wrong passwords from your address: try again in {math.ceil(wait)} s"
        return text, {"retry_after_ms": max(1, round(wait * 1000))}

    async def _judge_password(self, peer: Peer, salt: bytes) -> None:
        """Check the client's password, one guess at a time per address, only once its wait is
        over; the slow scrypt runs in a worker thread, one at a time."""
        assert self.password is not None
        turn = self._turns.setdefault(peer.ip, _Turn())
        turn.users += 1
        try:
            async with turn.lock:
                refusal = self._guessing_refusal(peer.ip)
                if refusal is not None:
                    self._enqueue(peer, peer.conn.refuse(ErrorCode.THROTTLED, *refusal))
                    raise Dropped(refusal[0])
                async with self._stretching:
                    key = await asyncio.to_thread(self.password.stretch, salt)
                if peer.closed:
                    return
                try:
                    peer.conn.supply_password_key(key)
                except WrongPassword:
                    self.throttle.failure(peer.ip, time.monotonic())
                    self._flush(peer)
                    raise Dropped("wrong password") from None
                except RemoteProtocolError as exc:
                    self._flush(peer)
                    raise Dropped(f"protocol error: {exc}") from None
                self.throttle.success(peer.ip)
        finally:
            turn.users -= 1
            if turn.users == 0:
                del self._turns[peer.ip]

    def _flush(self, peer: Peer) -> None:
        out = peer.conn.data_to_send()
        if out:
            self._enqueue(peer, out)

    def _enqueue(self, peer: Peer, data: bytes) -> None:
        if peer.closed:
            return
        transport = peer.writer.transport
        if (
            peer.queue.empty()
            and not transport.get_write_buffer_size()
            and not transport.is_closing()
        ):
            # Nothing waits before these bytes and the socket keeps up: they go to it now, as
            # the writer would in a moment, without a task switch per peer. A peer that lags
            # has bytes waiting, and its queue takes them (and bounds them) as before.
            peer.writer.write(data)
            return
        try:
            peer.queue.put_nowait(data)
        except asyncio.QueueFull:
            self.log(f"dropped {peer.label}: it does not keep up (queue full)")
            self._close(peer)

    async def _write(self, peer: Peer) -> None:
        writer = peer.writer
        try:
            while True:
                data = await peer.queue.get()
                if data is None:
                    break
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    def _send(self, peer: Peer, message: Message | Packed) -> None:
        if peer.closed or not peer.conn.can_send:
            return
        try:
            self._enqueue(peer, peer.conn.send(message))
        except ProtocolError as exc:
            kind = (message.message if isinstance(message, Packed) else message).TYPE
            self.log(f"could not send '{kind}' to {peer.label}: {exc}")
            self._close(peer)

    def _close(self, peer: Peer) -> None:
        if peer.closed:
            return
        peer.closed = True
        try:
            peer.queue.put_nowait(None)
        except asyncio.QueueFull:
            peer.writer.close()

    def _forget(self, peer: Peer) -> None:
        if self.peers.pop(peer.number, None) is None or not peer.joined:
            return
        if peer.seat is not None and peer.token is not None:
            if any(p.seat == peer.seat and p.joined for p in self.peers.values()):
                return  # the seat has a newer connection already
            named_owner = self.owner_name is not None and peer.token == self.owner_token
            if self.table.phase == "lobby" and (peer.token != self.owner_token or named_owner):
                self.table.disconnect(peer.seat)
                if named_owner:
                    self.owner_token = None  # the owner may come back under the name
            else:
                self.table.seats[peer.seat].connected = False
                if self.table.phase == "playing":
                    why = "left" if peer.left else "away"
                    self._notice(why, seat=peer.seat, name=self.table.seats[peer.seat].name)
                    self._start_grace(peer.seat)
        problem = self.table.start_problem() if self.round is not None else None
        if problem is not None:
            self._call_off(problem)  # tells everyone, the lobby included
            return
        self._broadcast_lobby()

    async def _watch_liveness(self) -> None:
        while True:
            await asyncio.sleep(min(1.0, self.settings.ping_interval))
            now = time.monotonic()
            self._refusals.flush(now)
            for peer in list(self.peers.values()):
                if not peer.joined:
                    continue
                if peer.liveness.dead(now):
                    silent = f"silent for {self.settings.ping_timeout:.0f} s"
                    self.log(f"dropped {peer.label}: {silent}")
                    self._last_word(peer, ErrorCode.TIMEOUT, silent)
                    self._close(peer)
                    peer.writer.close()
                    continue
                ping = peer.liveness.poll(now)
                if ping is not None:
                    self._send(peer, ping)

    # -- messages ---------------------------------------------------------------------------------

    def _refuse(
        self,
        peer: Peer,
        code: ErrorCode,
        text: str,
        *,
        fatal: bool = False,
        detail: dict[str, Any] | None = None,
    ) -> None:
        self._send(peer, Error(code.value, text[:500], fatal, detail or {}))
        if fatal:
            self._close(peer)

    def _dispatch(self, peer: Peer, message: Message) -> None:
        if not peer.joined:
            if not isinstance(message, Join):
                self.log(f"dropped {peer.label}: it sent '{message.TYPE}' before joining")
                why = f"'{message.TYPE}' before 'join': join the table first"
                self._refuse(peer, ErrorCode.UNEXPECTED_MESSAGE, why, fatal=True)
                return
            self._join(peer, message)
            return
        if isinstance(message, Join):
            self._refuse(peer, ErrorCode.UNEXPECTED_MESSAGE, "already joined")
        elif isinstance(message, Action):
            self._action(peer, message)
        elif isinstance(message, Say):
            self._say(peer, message)
        elif isinstance(message, Ready):
            self._ready(peer, message)
        elif isinstance(message, Pledge | Contribute):
            self._deal_message(peer, message)
        elif isinstance(message, AddBot | RemoveBot | SetOptions):
            self._owner_request(peer, message)
        elif isinstance(message, Leave):
            self.log(f"{peer.label} left: {message.reason or 'no reason given'}")
            peer.left = True
            self._close(peer)
        elif isinstance(message, Error):
            self.log(f"{peer.label} reports: {message.text} [{message.code}]")
        # pongs need nothing: any bytes count as a sign of life

    def _join(self, peer: Peer, join: Join) -> None:
        table = self.table
        peer.joined = True
        peer.name = join.name
        if join.spectator:
            s = self.settings
            refusal = spectator_refusal(
                [p.ip for p in self.peers.values() if p.spectator and not p.closed],
                peer.ip,
                limit=s.max_spectators,
                per_address=s.max_spectators_per_address,
            )
            if refusal is not None:
                self._refuse(peer, ErrorCode.REFUSED, refusal, fatal=True)
                return
            peer.spectator = True
            self._send(peer, Seated(None, None, False, False))
            self.log(f"{peer.label} watches")
            self._broadcast_lobby()
            self._catch_up(peer)
            self._earlier_chat(peer)
            return
        if join.resume is not None:
            try:
                seat = table.rejoin(join.resume.hex())
            except LobbyError:
                self._refuse(
                    peer, ErrorCode.BAD_TOKEN, "this seat token is not valid here", fatal=True
                )
                return
            for other in list(self.peers.values()):
                if other is not peer and other.seat == seat.index and other.joined:
                    self.log(f"{other.label} replaced by a newer connection")
                    other.seat = None
                    # Said, so that a program still alive there stops instead of coming back
                    # with the same token and pushing the newer one out in turn, for ever.
                    self._refuse(
                        other,
                        ErrorCode.REPLACED,
                        "a newer connection took this seat with its seat token",
                        fatal=True,
                    )
            peer.seat, peer.token = seat.index, seat.token
            self._cancel_grace(seat.index)
            owner = seat.token == self.owner_token
            self._send(peer, Seated(seat.index, join.resume, True, owner))
            if table.phase == "playing":
                self._notice("back", seat=seat.index, name=seat.name)
            self.log(f"{peer.label} is back in seat {seat.index + 1}")
            self._broadcast_lobby()
            self._catch_up(peer)
            self._earlier_chat(peer)
            self._schedule_bots()
            self._sync_clock()
            return
        token = self.random_bytes(32)
        if table.phase == "over":  # say so: a player may be back for the next game too soon
            why = "the game at this table is over, and it is not open for another yet"
            self._refuse(peer, ErrorCode.TABLE_FULL, why, fatal=True, detail={"over": True})
            return
        try:
            seat = table.claim_seat(join.name, token.hex())
        except LobbyError as exc:  # full, or its game has begun: no seat for a newcomer
            self._refuse(
                peer, ErrorCode.TABLE_FULL, f"{exc}; you may join as a spectator", fatal=True
            )
            return
        peer.seat, peer.token = seat.index, seat.token
        owner = self.owner_token is None and seat.name == self.owner_name
        if owner:
            self.owner_token = seat.token
            self.log(f"{seat.name} owns the table")
        self._send(peer, Seated(seat.index, token, False, owner))
        self.log(f"{peer.label} sits in seat {seat.index + 1}")
        self._broadcast_lobby()
        self._earlier_chat(peer)

    def _catch_up(self, peer: Peer) -> None:
        """A (re)joining peer mid-game gets the start, its whole log and a snapshot."""
        table = self.table
        if table.phase == "lobby":
            if self.round is not None:  # the deal is being made: the joiner witnesses it too
                self._send(peer, self._commit_message(self.round))
                if self.round.stage == "revealing":
                    self._send(peer, self._pledges_message(self.round))
            return
        if self.taken_back_from is not None:  # before `start`, while it still has its old seq
            if self._run is None:  # drawn only here: a table never resumed draws nothing more
                self._run = int.from_bytes(self.random_bytes(6), "big")
            args = {"seq": self.taken_back_from, "run": self._run}
            self._send(peer, TableNotice("taken_back", args))
        self._send(peer, self._start_message(peer.seat))
        for chunk in history_messages(table.history_steps(peer.seat)):
            self._send(peer, chunk)
        self._send(peer, snapshot_for(table.game, table.state, self.seq, peer.seat))
        if table.phase == "over":
            self._send_results(peer)

    def _say(self, peer: Peer, say: Say) -> None:
        now = time.monotonic()
        s = self.settings
        peer.chat_allowance = min(
            float(s.chat_burst), peer.chat_allowance + (now - peer.chat_checked) * s.chat_per_second
        )
        peer.chat_checked = now
        if peer.chat_allowance < 1:
            if peer.chat_refusals >= s.chat_abuse_limit:
                raise Dropped("flooded the chat")
            peer.chat_refusals += 1
            self._refuse(peer, ErrorCode.REFUSED, "you are sending chat too fast; slow down")
            return
        peer.chat_allowance -= 1
        line = Chat(peer.seat, peer.name, say.text)
        self._chat.append(line)
        self._to_everyone(line)

    def _earlier_chat(self, peer: Peer) -> None:
        """What the table said before `peer` came: a newcomer, or a player back from a dropped
        link, reads the conversation it joins (its client skips lines it already showed)."""
        for line in self._chat:
            self._send(peer, replace(line, earlier=True))

    def _notice(self, code: str, **args: Any) -> None:
        self._to_everyone(TableNotice(code, args))

    def _ready(self, peer: Peer, ready: Ready) -> None:
        if peer.seat is None:
            self._refuse(peer, ErrorCode.NOT_ALLOWED, "spectators are never asked to be ready")
            return
        try:
            self.table.set_ready(peer.seat, ready.ready)
        except LobbyError as exc:
            self._refuse(peer, ErrorCode.NOT_ALLOWED, str(exc))
            return
        self._broadcast_lobby()
        self._maybe_deal()

    def _owner_request(self, peer: Peer, message: AddBot | RemoveBot | SetOptions) -> None:
        if peer.token is None or peer.token != self.owner_token:
            self._refuse(peer, ErrorCode.NOT_ALLOWED, "only the table's owner may do that")
            return
        try:
            if isinstance(message, AddBot):
                self.table.add_bot(message.level, message.seat)
            elif isinstance(message, RemoveBot):
                self.table.remove_bot(message.seat)
            else:
                options = dict(message.options)
                deck = self.table.config.options.get("deck")
                if (
                    "deck" not in options
                    and deck is not None
                    and message.game == self.table.game.id
                ):
                    options["deck"] = deck  # the lobby never shows the deck: unsaid, it stays
                before = [s for s in self.table.seats if s.kind == "bot"]
                self.table.reconfigure(message.game, message.players, options)
                table = self.table
                self.log(f"the table is now {table.game.name}, {table.config.players} seats")
                self._notice("changed", game=table.game.name, players=table.config.players)
                for bot in before:
                    if bot not in table.seats:  # the fewer seats had no room for it
                        self.log(f"{bot.name} leaves: no seat for it at the smaller table")
                        self._notice("bot_left", name=bot.name)
                for other in self.peers.values():
                    if other.token is not None and other.joined and not other.closed:
                        seat = self.table.seat_of_token(other.token)
                        other.seat = seat.index
                        # Said again: the seat may have a new number, and nobody is ready now.
                        owner = seat.token == self.owner_token
                        self._send(other, Seated(seat.index, None, False, owner))
        except GameError as exc:
            self._refuse(peer, ErrorCode.REFUSED, str(exc))
            return
        self._broadcast_lobby()
        self._maybe_deal()

    # -- the lobby and the deal -------------------------------------------------------------------

    def lobby_message(self) -> Lobby:
        table = self.table
        phase = "dealing" if self.dealing else table.phase
        note = table.start_problem() or "" if table.phase == "lobby" and not self.dealing else ""
        return Lobby(
            table.name,
            table.game.id,
            table.config.players,
            {k: v for k, v in table.config.options.items() if k != "deck"},
            tuple(
                SeatInfo(
                    s.index,
                    s.kind,
                    s.name,
                    s.ready or s.kind == "bot",
                    s.connected or s.kind == "bot",
                    s.bot_level,
                    s.stand_in,
                )
                for s in table.seats
            ),
            sum(1 for p in self.peers.values() if p.spectator),
            self.password is not None,
            phase,
            note,
            round(self.settings.turn_clock * 1000),
        )

    def _broadcast_lobby(self) -> None:
        self._to_everyone(self.lobby_message())

    def _maybe_deal(self) -> None:
        """Open a deal round once the table is full and ready: commit, then ask for pledges."""
        table = self.table
        if self.dealing or table.phase != "lobby" or table.start_problem() is not None:
            return
        asked = {
            p.seat
            for p in self.peers.values()
            if p.seat is not None and p.joined and not p.closed and p.token not in self._withheld
        }
        self.round = DealRound(asked)
        self._to_everyone(self._commit_message(self.round))
        self._broadcast_lobby()
        if not asked:
            self._close_pledges()
        else:
            self._set_deal_timer(self.settings.pledge_timeout, self._close_pledges)

    def _commit_message(self, round_: DealRound) -> Commit:
        return Commit(self.table.commit, tuple(sorted(round_.asked)))

    def _pledges_message(self, round_: DealRound) -> Pledges:
        return Pledges(tuple(SeatPledge(s, c) for s, c in sorted(round_.pledges.items())))

    def _set_deal_timer(self, delay: float, then: Callable[[], None]) -> None:
        if self._deal_timer is not None:
            self._deal_timer.cancel()
        self._deal_timer = asyncio.get_running_loop().call_later(delay, then)

    def _deal_message(self, peer: Peer, message: Pledge | Contribute) -> None:
        """A pledge, or a part, for the round being made; the round moves on once all are in."""
        round_ = self.round
        try:
            if round_ is None or peer.seat is None:
                raise DealRefusal("no deal is being made now")
            if isinstance(message, Pledge):
                round_.pledge(peer.seat, message.commitment)
            else:
                round_.reveal(peer.seat, message.part)
        except DealRefusal as exc:
            self._refuse(peer, ErrorCode.UNEXPECTED_MESSAGE, str(exc))
            return
        if round_.stage == "pledging" and round_.all_pledged:
            self._close_pledges()
        elif round_.all_revealed:
            self._deal()

    def _close_pledges(self) -> None:
        """Publish every pledge made so far; from now on players may reveal their parts."""
        round_ = self.round
        if round_ is None or round_.stage != "pledging":
            return
        problem = self.table.start_problem()
        if problem is not None:
            self._call_off(problem)
            return
        round_.close_pledges()
        self._to_everyone(self._pledges_message(round_))
        if round_.all_revealed:  # nobody pledged: the host's part alone makes the seed
            self._deal()
        else:
            self._set_deal_timer(self.settings.contribute_timeout, self._reveals_late)

    def _reveals_late(self) -> None:
        """Seats that pledged and kept their part to themselves lose their say in this table's
        deal (else one player could hold the table back for ever); the round is made again."""
        if self.round is not None and not self.round.all_revealed:
            late = self.round.missing()
            self._withheld.update(t for t in (self.table.seats[s].token for s in late) if t)
            names = ", ".join(self.table.seats[s].name for s in late)
            self._call_off(f"{names} did not reveal their seed part in time")

    def _call_off(self, reason: str) -> None:
        """This round is over without a deal; the next one starts with a new commit."""
        if self._deal_timer is not None:
            self._deal_timer.cancel()
        self.round = None
        self.log(f"the deal is off: {reason}")
        self._notice("deal_off", reason=reason)
        self._broadcast_lobby()
        self._maybe_deal()  # at once, if the table is still full and ready

    def _deal(self) -> None:
        round_ = self.round
        if round_ is None or not round_.all_revealed:
            return
        table = self.table
        problem = table.start_problem()
        if problem is not None:  # someone left while we waited
            self._call_off(problem)
            return
        if self._deal_timer is not None:
            self._deal_timer.cancel()
        self.round = None
        table.use_contributions(round_.parts)
        table.start()
        if self.journal is not None:
            self.journal.append(table.journal_start())
        self._journal_started = True
        self.log(f"the game starts: {table.game.name}, {table.config.players} players")
        for peer in self.peers.values():
            if peer.joined:
                self._send(peer, self._start_message(peer.seat))
                self._send(peer, snapshot_for(table.game, table.state, self.seq, peer.seat))
        self._broadcast_lobby()
        self._schedule_bots()
        self._sync_clock()

    def _to_everyone(self, message: Message) -> None:
        outgoing = _packed(message)
        for peer in self.peers.values():
            if peer.joined:
                self._send(peer, outgoing)

    def _start_message(self, seat: int | None) -> Start:
        table = self.table
        return Start(
            table.game.id,
            table.game.rules_version,
            table.config.players,
            dict(table.config.options),
            tuple(s.name for s in table.seats),
            seat,
            table.commit,
            tuple(Contribution(s, part) for s, part in sorted(table.contributions().items())),
            tuple(table.game.cards(table.config)),
        )

    # -- play ---------------------------------------------------------------------------------------

    def _action(self, peer: Peer, message: Action) -> None:
        table = self.table
        if peer.seat is None:
            self._refuse(peer, ErrorCode.NOT_ALLOWED, "spectators cannot play")
            return
        if table.phase != "playing":
            self._refuse(peer, ErrorCode.NOT_ALLOWED, "no game is being played")
            return
        try:
            events = table.submit(peer.seat, message.action, seen=message.seq)
        except (StaleMove, FutureMove) as exc:
            # Every update up to `latest` went out before this refusal: the player's view is
            # already the fresh one.
            code = ErrorCode.STALE_SEQ if isinstance(exc, StaleMove) else ErrorCode.FUTURE_SEQ
            detail = {
                "seq": message.seq,
                "latest": self.seq,
                "asked_at": table.decision_asked_at(peer.seat),
            }
            self._refuse(peer, code, str(exc), detail=detail)
            return
        except GameError as exc:
            self._refuse(peer, ErrorCode.ILLEGAL_ACTION, str(exc))
            return
        self._after_action(events)

    def _after_action(self, events: list[Any]) -> None:
        table = self.table
        actor = table.actions[-1][0]
        self._stop_clock(actor)
        self.seq += 1
        if self.journal is not None:
            self.journal.write(table.journal_action())
        # One update per seat (and one for all spectators), encoded once, sealed per peer.
        # The players first: they wait on it to play on, spectators only watch.
        audience = [
            peer
            for peer in self.peers.values()
            if peer.joined and (peer.seat is not None or peer.spectator)
        ]
        audience.sort(key=lambda peer: peer.seat is None)
        by_seat: dict[int | None, Message | Packed] = {}
        for peer in audience:
            if peer.seat not in by_seat:
                by_seat[peer.seat] = _packed(
                    update_for(table.game, table.state, events, self.seq, actor, peer.seat),
                    check=False,  # the engine's views and events: see encode_unchecked
                )
            self._send(peer, by_seat[peer.seat])
        self._sync_journal_soon()
        self._sync_clock()
        if table.phase == "over":
            # The results and the audit (the whole game's actions, encrypted for everyone)
            # wait until the writers have sent the last update: players see the end at once.
            asyncio.get_running_loop().call_soon(self._game_over)
            return
        self._schedule_bots()

    def _sync_journal_soon(self) -> None:
        """The players have their update: the sync to the disk need not keep them waiting."""
        if self.journal is not None and self._sync_timer is None:
            self._sync_timer = asyncio.get_running_loop().call_later(
                self.settings.journal_sync_delay, self._sync_journal
            )

    def _sync_journal(self) -> None:
        self._sync_timer = None
        if self.journal is None:
            return
        try:
            self.journal.make_durable()
        except OSError as exc:  # the game goes on; a crash now would still find the records
            self.log(f"could not sync the journal to the disk: {exc.strerror or exc}")

    def _game_over(self) -> None:
        for peer in self.peers.values():
            if peer.joined:
                self._send_results(peer)
        self.log("the game is over")
        self.finished.set()

    def _send_results(self, peer: Peer) -> None:
        if self._results is None:  # the same for everyone, and final: encoded once
            table = self.table
            outcome = table.outcome()
            assert outcome is not None
            last = [TableNotice("last_game", {})] if self.settings.one_game else []
            self._results = [
                *map(_packed, last),
                _packed(Result(outcome.to_data())),
                *map(_packed, audit_messages(table.host_part, table.seed, table.actions)),
            ]
        for message in self._results:
            self._send(peer, message)

    def _schedule_bots(self) -> None:
        if self._bots is None or self._bots.done():
            self._bots = asyncio.create_task(self._run_bots())
            self._bots.add_done_callback(self._bots_stopped)

    def _bots_stopped(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            self.log(f"the bots stopped after an internal error: {task.exception()!r}")

    async def _run_bots(self) -> None:
        """Plays the bots' moves one at a time while any bot is asked to act. The seats are asked
        again after each pause and each move: a player may have come back (its stand-in steps
        aside) or moved meanwhile. Stops when every bot asked has failed to move."""
        table = self.table
        while table.phase == "playing" and table.bot_seats_to_act():
            if self.settings.bot_delay:
                await asyncio.sleep(self.settings.bot_delay)
            seats = table.bot_seats_to_act()
            seq = self.seq
            for seat in seats:
                await self._bot_turn(seat)
                if self.seq != seq:
                    break
            else:
                if seats and seats == table.bot_seats_to_act():
                    return  # no bot asked could move (each said why in the log)

    def _bot_plays(self, seat: int, clock: bool) -> bool:
        """Whether a bot is (still) to answer `seat`'s decision: its own bot or stand-in, or the
        turn clock's bot for a player who ran out of time."""
        table = self.table
        if table.phase != "playing":
            return False
        return seat in (table.to_act() if clock else table.bot_seats_to_act())

    async def _bot_turn(self, seat: int, clock: bool = False) -> bool:
        """A bot's move for `seat`, thought out in a worker thread; True if it was played.

        The answer is dropped when the decision it answers is no longer the bot's by then (the
        table moved on, or the seat's player came back). A bot that fails (raises, or answers
        with an illegal move) is logged and the random bot's move is played instead: one bot's
        bug never stops the table or the other bots."""
        table = self.table
        if not self._bot_plays(seat, clock):
            return False
        seq = self.seq
        data: dict[str, Any] | None
        try:
            data = await asyncio.to_thread(table.bot_move(seat))
        except Exception as exc:
            self.log(f"the bot for seat {seat + 1} failed: {exc!r}; it plays a random move")
            data = None
        if self.seq != seq or not self._bot_plays(seat, clock):
            return False  # the table moved on while the bot was thinking
        if data is not None:
            try:
                events = table.submit(seat, data)
            except GameError as exc:
                self.log(f"the bot for seat {seat + 1} chose an illegal move: {exc}")
            else:
                self._after_action(events)
                return True
        try:
            events = table.submit(seat, table.bot_move(seat, "random")())
        except Exception as exc:
            self.log(f"no move could be played for seat {seat + 1}: {exc!r}")
            return False
        self._after_action(events)
        return True

    # -- the turn clock -----------------------------------------------------------------------------

    def _sync_clock(self) -> None:
        """Start a clock for each player asked to act who has none, stop the others, tell all."""
        per_turn = self.settings.turn_clock
        if not per_turn:
            return
        table = self.table
        acting = set(table.to_act()) if table.phase == "playing" else set()
        clocked = {
            s for s in acting if table.seats[s].kind == "human" and not table.seats[s].stand_in
        }
        for seat in list(self._clocks):
            if seat not in clocked:
                self._stop_clock(seat)
        loop = asyncio.get_running_loop()
        for seat in clocked - set(self._clocks):
            handle = loop.call_later(per_turn, self._clock_ran_out, seat)
            self._clocks[seat] = (handle, loop.time() + per_turn)
        now = loop.time()
        left = tuple(
            ClockEntry(s, max(0, int((deadline - now) * 1000)))
            for s, (_, deadline) in sorted(self._clocks.items())
        )
        self._to_everyone(Clock(round(per_turn * 1000), left))

    def _stop_clock(self, seat: int) -> None:
        entry = self._clocks.pop(seat, None)
        if entry is not None:
            entry[0].cancel()

    def _clock_ran_out(self, seat: int) -> None:
        self._clocks.pop(seat, None)
        table = self.table
        if table.phase != "playing" or seat not in table.to_act():
            return
        self.log(f"time ran out for seat {seat + 1}: a bot plays the turn")
        self._notice("clock", seat=seat, name=table.seats[seat].name)
        task = asyncio.create_task(self._bot_turn(seat, clock=True))
        self._clock_tasks.add(task)
        task.add_done_callback(self._clock_tasks.discard)

    # -- absent players ---------------------------------------------------------------------------

    def _start_grace(self, seat: int) -> None:
        self._cancel_grace(seat)
        loop = asyncio.get_running_loop()
        self._grace[seat] = loop.call_later(self.settings.grace, self._stand_in, seat)

    def _cancel_grace(self, seat: int) -> None:
        handle = self._grace.pop(seat, None)
        if handle is not None:
            handle.cancel()

    def _stand_in(self, seat: int) -> None:
        self._grace.pop(seat, None)
        s = self.table.seats[seat]
        if s.connected or self.table.phase != "playing":
            return
        self.table.set_stand_in(seat, True)
        self._notice("stand_in", seat=seat, name=s.name, level=self.table.stand_in_level)
        self.log(f"a bot stands in for seat {seat + 1}")
        self._broadcast_lobby()
        self._schedule_bots()
        self._sync_clock()


def _packed(message: Message, check: bool = True) -> Message | Packed:
    """`message` encoded once for every peer it goes to; left as it is when it cannot be (too
    big), so that sending it says so for each peer, as sending any message does."""
    try:
        return packed(message, check=check)
    except ProtocolError:
        return message
