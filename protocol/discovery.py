"""Finding tables on the LAN: a UDP query, answered by every host that hears it.

Replies are hints from anyone on the network, so they are validated strictly and never trusted:
the fingerprint in a reply is only a prefix to compare with what the handshake later proves.
The query goes to a configurable target (the broadcast address by default, 127.0.0.1 in tests).

Several hosts may run on one machine: each answers on the first free UDP port of a small range,
and a query goes to every port of that range, so every table is found.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import asyncio_dgram
import msgpack

from protocol.settings import discovery_port, discovery_target

QUERY_TAG = "netcards?"
REPLY_TAG = "netcards!"
DISCOVERY_VERSION = 1
MAX_DATAGRAM = 1200
NONCE_BYTES = 8
PORT_SPAN = 8
"""Hosts answer on the first free port of discovery_port() .. discovery_port() + 7."""


def discovery_ports(port: int | None = None) -> list[int]:
    """The UDP ports a query goes to: `port` alone when given, else the whole range."""
    if port is not None:
        return [port]
    base = discovery_port()
    return [p for p in range(base, base + PORT_SPAN) if p < 65536]


class BadDatagram(ValueError):
    """A datagram that is not a valid discovery message; it is ignored."""


@dataclass(frozen=True)
class TableInfo:
    """What a host tells the LAN about its table."""

    name: str
    game: str
    players: int
    free: int
    port: int
    protocol: int
    fingerprint: str
    password: bool = False
    sealed: bool = False

    def to_data(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "game": self.game,
            "players": self.players,
            "free": self.free,
            "port": self.port,
            "protocol": self.protocol,
            "fp": self.fingerprint,
            "pw": self.password,
            "sealed": self.sealed,
        }


@dataclass(frozen=True)
class FoundTable:
    host: str
    info: TableInfo

    @property
    def address(self) -> str:
        from protocol.address import format_address

        return format_address(self.host, self.info.port)


def encode_query(nonce: bytes) -> bytes:
    return msgpack.packb({"t": QUERY_TAG, "v": DISCOVERY_VERSION, "n": nonce})


def encode_reply(nonce: bytes, info: TableInfo) -> bytes:
    return msgpack.packb({"t": REPLY_TAG, "v": DISCOVERY_VERSION, "n": nonce, **info.to_data()})


def _unpack(data: bytes) -> dict[str, Any]:
    if len(data) > MAX_DATAGRAM:
        raise BadDatagram("too large")
    try:
        obj = msgpack.unpackb(
            data,
            max_str_len=256,
            max_bin_len=64,
            max_array_len=0,
            max_map_len=16,
            max_ext_len=0,
            strict_map_key=True,
        )
    except Exception as exc:  # msgpack raises several types for bad input
        raise BadDatagram(f"not msgpack: {type(exc).__name__}") from None
    if not isinstance(obj, dict):
        raise BadDatagram("not a map")
    return obj


def decode_query(data: bytes) -> bytes:
    """The query's nonce; BadDatagram if it is not a query."""
    obj = _unpack(data)
    if obj.get("t") != QUERY_TAG or obj.get("v") != DISCOVERY_VERSION:
        raise BadDatagram("not a query")
    if set(obj) != {"t", "v", "n"}:  # exactly, as the protocol says: a later version may add
        raise BadDatagram("unexpected fields")  # fields, and then must bump "v" to be answered
    nonce = obj.get("n")
    if not isinstance(nonce, bytes) or len(nonce) != NONCE_BYTES:
        raise BadDatagram("bad nonce")
    return nonce


def _text(obj: dict[str, Any], key: str, limit: int) -> str:
    value = obj.get(key)
    if not isinstance(value, str) or not value or len(value) > limit:
        raise BadDatagram(f"bad {key}")
    if not value.isprintable():
        raise BadDatagram(f"unprintable {key}")
    return value


def _int(obj: dict[str, Any], key: str, lo: int, hi: int) -> int:
    value = obj.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise BadDatagram(f"bad {key}")
    return value


def decode_reply(data: bytes, nonce: bytes) -> TableInfo:
    """A validated reply to our query with `nonce`; BadDatagram for anything else."""
    obj = _unpack(data)
    if obj.get("t") != REPLY_TAG or obj.get("v") != DISCOVERY_VERSION:
        raise BadDatagram("not a reply")
    if obj.get("n") != nonce:
        raise BadDatagram("reply to another query")
    expected = {"t", "v", "n", "name", "game", "players", "free", "port", "protocol", "fp"}
    if set(obj) - {"pw", "sealed"} != expected:  # hosts before "pw" (or "sealed") did not say
        raise BadDatagram("unexpected fields")
    password = obj.get("pw", False)
    if not isinstance(password, bool):
        raise BadDatagram("bad pw")
    sealed = obj.get("sealed", False)
    if not isinstance(sealed, bool):
        raise BadDatagram("bad sealed")
    players = _int(obj, "players", 1, 16)
    return TableInfo(
        name=_text(obj, "name", 64),
        game=_text(obj, "game", 32),
        players=players,
        free=_int(obj, "free", 0, players),
        port=_int(obj, "port", 1, 65535),
        protocol=_int(obj, "protocol", 0, 1000),
        fingerprint=_text(obj, "fp", 64),
        password=password,
        sealed=sealed,
    )


class Responder:
    """Answers discovery queries for one table, at most `rate` replies a second."""

    def __init__(self, describe: Callable[[], TableInfo], rate: float = 50.0) -> None:
        self.describe = describe
        self.rate = rate
        self._stream: Any = None
        self._task: asyncio.Task[None] | None = None
        self._allowance = rate
        self._last = time.monotonic()

    async def start(self, host: str = "0.0.0.0", port: int | None = None) -> int:
        """Listen on `port`, or on the first free port of the range; returns the port."""
        ports = discovery_ports(port)
        for candidate in ports:
            try:
                self._stream = await asyncio_dgram.bind((host, candidate))
                break
            except OSError as exc:
                if exc.errno != errno.EADDRINUSE or candidate == ports[-1]:
                    raise
        self._task = asyncio.create_task(self._serve())
        return int(self._stream.sockname[1])

    def _allowed(self) -> bool:
        now = time.monotonic()
        self._allowance = min(self.rate, self._allowance + (now - self._last) * self.rate)
        self._last = now
        if self._allowance < 1:
            return False
        self._allowance -= 1
        return True

    async def _serve(self) -> None:
        while True:
            try:
                data, addr = await self._stream.recv()
            except (asyncio_dgram.TransportClosed, OSError):
                return
            try:
                nonce = decode_query(data)
            except BadDatagram:
                continue
            if self._allowed():
                try:
                    await self._stream.send(encode_reply(nonce, self.describe()), addr)
                except OSError:
                    continue

    async def close(self) -> None:
        if self._stream is not None:
            self._stream.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


async def discover(
    *,
    target: str | None = None,
    port: int | None = None,
    timeout: float = 1.5,
    nonce: bytes,
) -> list[FoundTable]:
    """Ask `target` (default: the configured discovery target) on `port` (default: every port
    of the range) and collect replies for `timeout` seconds."""
    dest = target or discovery_target()
    family = socket.AF_INET6 if ":" in dest else socket.AF_INET
    stream = await asyncio_dgram.bind(("::" if family == socket.AF_INET6 else "0.0.0.0", 0))
    found: dict[tuple[str, int], FoundTable] = {}
    try:
        if dest.endswith(".255"):
            stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        for each in discovery_ports(port):
            with contextlib.suppress(ConnectionError):  # an earlier port said nobody listens
                await stream.send(encode_query(nonce), (dest, each))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (left := deadline - loop.time()) > 0:
            try:
                data, addr = await asyncio.wait_for(stream.recv(), left)
            except TimeoutError:
                break
            except ConnectionError:  # a port of the range where nobody listens
                continue
            try:
                info = decode_reply(data, nonce)
            except BadDatagram:
                continue
            host = str(addr[0]) if isinstance(addr, tuple) else str(addr)
            found[(host, info.port)] = FoundTable(host, info)
    finally:
        stream.close()
    return sorted(found.values(), key=lambda t: (t.info.name, t.host, t.info.port))
