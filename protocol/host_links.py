"""The host's connections on asyncio: accepting, reading into each `HostConnection`, judging the
table password, writing through a bounded queue per peer, pings. What a peer says goes to the
table's session (`TableHost._perform` carries out what it answers)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from protocol.connection import Packed
from protocol.crypto import TablePassword
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
from protocol.liveness import Liveness
from protocol.messages import Message
from protocol.table_session import Effect, Member, TableSession
from protocol.table_session.config import HostSettings

LogLine = Callable[[str], None]

LINGER = 2.0
"""Seconds a connection the host closes on purpose stays open for reading after its last words
(`Links._linger`), at most."""


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
    read_done: asyncio.Event = field(default_factory=asyncio.Event)
    """Nothing more is read from it: it closed its side, or the host stopped reading."""

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


class Links:
    """The connection half of `TableHost` (see `protocol/host.py`)."""

    session: TableSession
    settings: HostSettings
    identity: IdentityKey
    password: TablePassword | None
    random_bytes: Callable[[int], bytes]
    log: LogLine
    peers: dict[int, Peer]
    _turns: dict[str, _Turn]
    _stretching: asyncio.Semaphore

    def _perform(self, effects: Iterable[Effect]) -> None:
        raise NotImplementedError  # protocol/host.py

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
            self.identity, self.random_bytes, password=self.password, table=self.session.table.name
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
            peer.read_done.set()
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
            except (ConnectionError, OSError):
                if peer.closed:  # the host had said its last words; the peer hung up on them
                    return
                raise
            peer.liveness.received(time.monotonic())
            salt = self._receive(peer, data)
            while salt is not None and not peer.closed:
                await self._judge_password(peer, salt)
                salt = self._receive(peer, None)
            if peer.closed:
                await self._read_to_the_end(reader)
                return

    @staticmethod
    async def _read_to_the_end(reader: asyncio.StreamReader) -> None:
        """What a peer the host is closing still sends is read and dropped, until it closes its
        side (or `LINGER` seconds): see `_linger`."""
        with contextlib.suppress(TimeoutError, ConnectionError, OSError):
            async with asyncio.timeout(LINGER):
                while await reader.read(65536):
                    pass

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
                    await self._linger(peer)
                    break
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    @staticmethod
    async def _linger(peer: Peer) -> None:
        """The host's last words to a peer are out (a table closed, `leave`): its side is shut
        and the socket stays open until the peer closes its own, a moment at most, reading
        what the peer still sends (`_read_to_the_end`). A socket closed on bytes it has not
        read resets the connection, and the reset makes the peer's next write fail before it
        has read those last words: a player's program that was sending a step of a sealed
        round as the table closed would take the host for crashed and try to reconnect for
        minutes, never hearing the table closed nor its results so far."""
        writer = peer.writer
        with contextlib.suppress(ConnectionError, OSError, RuntimeError):
            if writer.can_write_eof():
                writer.write_eof()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(peer.read_done.wait(), LINGER)

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
            self._perform(self.session.tick(now))
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
