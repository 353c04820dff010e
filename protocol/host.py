"""The host on asyncio TCP: the thin adapter that performs what the table's session decides.

Every decision about the table is `protocol/table_session`'s (a sans-IO state machine); this
module owns what it must not touch: the listening socket, one task reading bytes into each
connection's sans-IO `HostConnection` and one writer task draining a bounded queue (so a slow
or stuck client never delays the others: when its queue is full it is disconnected, and may
rejoin with its seat token), the handshake's password stretching in a worker thread, the
timers, the bots' thinking in a worker thread, pings, and the journal file. Every accepted
action is in the journal (flushed) before any player hears of it, and synced to the disk a
moment later (see `journal_file`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from netcards.game import Outcome
from netcards.table import Table
from protocol.connection import Packed
from protocol.crypto import TablePassword
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
from protocol.host_connection import HostConnection
from protocol.identity import IdentityKey
from protocol.journal_file import JournalWriter
from protocol.limits import PROTOCOL_VERSION
from protocol.liveness import Liveness
from protocol.messages import Lobby, Message
from protocol.table_session import BotQuestion, Effect, Member, TableSession
from protocol.table_session.config import HostSettings
from protocol.table_session.effects import (
    AskBot,
    BotFailed,
    CancelTimer,
    Close,
    Drop,
    Finished,
    Journal,
    Log,
    Send,
    SetTimer,
    TimerKey,
    WakeBots,
)
from protocol.throttle import FailureThrottle

__all__ = ["Dropped", "HostSettings", "Peer", "TableHost"]

LogLine = Callable[[str], None]


@dataclass
class Peer:
    """One connection's sockets and queues; who it is at the table is its session `member`."""

    member: Member
    conn: HostConnection
    writer: asyncio.StreamWriter
    queue: asyncio.Queue[bytes | None]
    liveness: Liveness
    closed: bool = False
    """The writer was told to stop (a sentinel is queued): nothing more is queued for it."""
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)

    @property
    def number(self) -> int:
        return self.member.number

    @property
    def ip(self) -> str:
        return self.member.ip

    @property
    def joined(self) -> bool:
        return self.member.joined

    @property
    def spectator(self) -> bool:
        return self.member.spectator

    @property
    def seat(self) -> int | None:
        return self.member.seat

    @property
    def name(self) -> str:
        return self.member.name

    @property
    def label(self) -> str:
        return self.member.label


class Dropped(Exception):
    """A peer must be disconnected; the message says why (for the host's log)."""


@dataclass
class _Turn:
    """Password checks of one address take turns: a burst of guesses is judged one by one, each
    against the throttle as it stands after the one before."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class TableHost:
    session_class: type[TableSession] = TableSession
    """The state machine this adapter drives (tests put a dishonest one in its place)."""

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
        log: LogLine | None = None,
        random_bytes: Callable[[int], bytes] = os.urandom,
        throttle: FailureThrottle | None = None,
    ) -> None:
        self.identity = identity
        self.settings = settings or HostSettings()
        self.journal = journal
        self.log: LogLine = log or (lambda _line: None)
        self.random_bytes = random_bytes
        self.password = TablePassword(password) if password is not None else None
        self.session = self.session_class(
            table,
            settings=self.settings,
            random_bytes=random_bytes,
            password_protected=self.password is not None,
            throttle=throttle,
            owner_token=owner_token,
            owner_name=owner_name,
        )
        self._turns: dict[str, _Turn] = {}
        self._stretching = asyncio.Semaphore(1)
        self.peers: dict[int, Peer] = {}
        self.finished = asyncio.Event()
        self.port = 0
        self.discovery_port = 0
        self._server: asyncio.Server | None = None
        self._timers: dict[TimerKey, asyncio.TimerHandle] = {}
        self._bots: asyncio.Task[None] | None = None
        self._liveness_task: asyncio.Task[None] | None = None
        self._responder: Responder | None = None
        self._clock_tasks: set[asyncio.Task[bool]] = set()
        self._sync_timer: asyncio.TimerHandle | None = None

    # -- what the session holds, as the host's public face -----------------------------------------

    @property
    def table(self) -> Table:
        return self.session.table

    @property
    def seq(self) -> int:
        return self.session.seq

    @property
    def taken_back_from(self) -> int | None:
        return self.session.taken_back_from

    @taken_back_from.setter
    def taken_back_from(self, value: int | None) -> None:
        self.session.taken_back_from = value

    @property
    def throttle(self) -> FailureThrottle:
        return self.session.throttle

    @property
    def dealing(self) -> bool:
        return self.session.dealing

    @property
    def outcome(self) -> Outcome | None:
        return self.table.outcome()

    def lobby_message(self) -> Lobby:
        return self.session.lobby_message()

    # -- life cycle -------------------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        self._server = await asyncio.start_server(self._accept, host, port, limit=2**16)
        self.port = int(self._server.sockets[0].getsockname()[1])
        self._liveness_task = asyncio.create_task(self._watch_liveness())
        self._perform(self.session.start(time.monotonic()))
        return self.port

    async def close(self) -> None:
        """Close the table on purpose: the session says goodbye to everyone (`ending.py`);
        this waits a moment for the last words to leave, then stops every task and timer."""
        if self._responder is not None:
            await self._responder.close()
        if self._server is not None:
            self._server.close()
        self._perform(self.session.end_table())
        writers = [task for peer in self.peers.values() for task in peer.tasks]
        if writers:
            await asyncio.wait(writers, timeout=2.0)  # the last words reach everyone first
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        if self._sync_timer is not None:
            self._sync_timer.cancel()
            self._sync_journal()
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
            self.journal.close()

    async def linger(self, seconds: float) -> None:
        """Give clients a moment to receive the last messages (results, audit)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and any(not p.queue.empty() for p in self.peers.values()):
            await asyncio.sleep(0.05)

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

    # -- carrying out the session's effects --------------------------------------------------------

    def _perform(self, effects: Iterable[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, Send):
                peer = self.peers.get(effect.to)
                if peer is not None:
                    self._send(peer, effect.message)
            elif isinstance(effect, Close):
                peer = self.peers.get(effect.to)
                if peer is not None:
                    self._close(peer)
            elif isinstance(effect, Drop):
                self._drop(effect)
            elif isinstance(effect, Journal):
                self._journal(effect)
            elif isinstance(effect, SetTimer):
                self._set_timer(effect.key, effect.delay)
            elif isinstance(effect, CancelTimer):
                handle = self._timers.pop(effect.key, None)
                if handle is not None:
                    handle.cancel()
            elif isinstance(effect, WakeBots):
                self._schedule_bots()
            elif isinstance(effect, AskBot):
                task = asyncio.create_task(self._bot_turn(effect.question))
                self._clock_tasks.add(task)
                task.add_done_callback(self._clock_tasks.discard)
            elif isinstance(effect, Log):
                self.log(effect.line)
            elif isinstance(effect, Finished):
                self.finished.set()
            # BotFailed is read by the bots' loop (`_bot_turn`)

    def _drop(self, effect: Drop) -> None:
        peer = self.peers.get(effect.to)
        if peer is None:
            return
        self.log(f"dropped {peer.label}: {effect.why}")
        self._close(peer)
        if effect.at_once:
            # Hung up now: its writer task may not have run yet, and the end of its reading
            # (EOF, at once) forgets it as for any other connection that goes.
            peer.writer.close()

    def _set_timer(self, key: TimerKey, delay: float) -> None:
        old = self._timers.pop(key, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self._timers[key] = loop.call_later(delay, self._timer_fired, key)

    def _timer_fired(self, key: TimerKey) -> None:
        self._timers.pop(key, None)
        self._perform(self.session.timer_fired(key, time.monotonic()))

    def _journal(self, effect: Journal) -> None:
        if self.journal is None:
            return
        if effect.durable:
            with contextlib.suppress(OSError):
                self.journal.append(effect.record)
            return
        self.journal.write(effect.record)
        if self._sync_timer is None:
            # The players get their update first: the sync to the disk need not keep them
            # waiting (the updates are sent before this timer can fire).
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

    # -- the bots -----------------------------------------------------------------------------------

    def _schedule_bots(self) -> None:
        if self._bots is None or self._bots.done():
            self._bots = asyncio.create_task(self._run_bots())

    async def _run_bots(self) -> None:
        """Bots take their turns one at a time, each after `bot_delay`, until none is asked."""
        session = self.session
        while session.bot_to_act() is not None:
            if self.settings.bot_delay:
                await asyncio.sleep(self.settings.bot_delay)
            question = session.next_bot_question()
            if question is None or not await self._bot_turn(question):
                return

    async def _bot_turn(self, question: BotQuestion) -> bool:
        """A bot's move, thought out in a worker thread; False if the rules refused it."""
        data = await asyncio.to_thread(question.think)
        effects = self.session.bot_answered(question, data, time.monotonic())
        self._perform(effects)
        return not any(isinstance(effect, BotFailed) for effect in effects)

    # -- connections ------------------------------------------------------------------------------

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peername = writer.get_extra_info("peername")
        ip = str(peername[0]) if peername else "?"
        address = f"{peername[0]}:{peername[1]}" if peername else "?"
        now = time.monotonic()
        arrival = self.session.arrive(ip, address, now)
        if arrival.number is None:
            assert arrival.refusal is not None
            text, detail = arrival.refusal
            conn = HostConnection(self.identity, self.random_bytes, password=self.password)
            writer.write(conn.refuse(ErrorCode.THROTTLED, text, detail))
            writer.close()
            self._perform(arrival.effects)
            return
        self._perform(arrival.effects)  # the waiting room may shed others first
        conn = HostConnection(
            self.identity, self.random_bytes, password=self.password, table=self.table.name
        )
        peer = Peer(
            self.session.members[arrival.number],
            conn,
            writer,
            asyncio.Queue(self.settings.queue_limit),
            Liveness(now, self.settings.ping_interval, self.settings.ping_timeout),
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
        """Feed `data` (None: go on with what is buffered) and hand every message to the
        session; the salt if the connection waits for its password key."""
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
                    self._perform(
                        self.session.received(peer.number, event.message, time.monotonic())
                    )
                    if peer.closed:
                        return None
        except RemoteProtocolError as exc:
            self._flush(peer)
            raise Dropped(f"protocol error: {exc}") from None
        except LocalProtocolError as exc:
            raise Dropped(f"local protocol error: {exc}") from None

    async def _judge_password(self, peer: Peer, salt: bytes) -> None:
        """Check the client's password, one guess at a time per address, only once its wait is
        over; the slow scrypt runs in a worker thread, one at a time."""
        assert self.password is not None
        session = self.session
        turn = self._turns.setdefault(peer.ip, _Turn())
        turn.users += 1
        try:
            async with turn.lock:
                refusal = session.guessing_refusal(peer.ip, time.monotonic())
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
                    session.password_judged(peer.ip, False, time.monotonic())
                    self._flush(peer)
                    raise Dropped("wrong password") from None
                except RemoteProtocolError as exc:
                    self._flush(peer)
                    raise Dropped(f"protocol error: {exc}") from None
                session.password_judged(peer.ip, True, time.monotonic())
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
        self.session.closing(peer.number)
        try:
            peer.queue.put_nowait(None)
        except asyncio.QueueFull:
            peer.writer.close()

    def _forget(self, peer: Peer) -> None:
        if self.peers.pop(peer.number, None) is not None:
            self._perform(self.session.gone(peer.number, time.monotonic()))

    async def _watch_liveness(self) -> None:
        while True:
            await asyncio.sleep(min(1.0, self.settings.ping_interval))
            now = time.monotonic()
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
