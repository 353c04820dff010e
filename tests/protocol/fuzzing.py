"""Feeding arbitrary bytes to the decoder and to connections; shared by the tests and the bench.

Each function returns the name of the outcome ("ok", "need_data", "closed" or an error code)
and lets any exception that is not a documented protocol error escape, which is the failure
the fuzzers look for. Every loop is bounded, so a hang cannot hide in here either.
"""

from __future__ import annotations

import random

from protocol.client_connection import ClientConnection
from protocol.connection import Connection
from protocol.errors import ProtocolError, RemoteProtocolError
from protocol.events import ConnectionClosed, NeedData
from protocol.host_connection import HostConnection
from protocol.messages import Chat, Join, Say, Update, decode
from protocol.wire import unpack
from tests.protocol.support import IDENTITY, VIEW, ConnectionPair, one_of_each, randomness


def decode_outcome(payload: bytes) -> str:
    try:
        decode(unpack(payload))
    except RemoteProtocolError as exc:
        return exc.code.value
    return "ok"


def feed_outcome(conn: Connection, chunks: list[bytes], eof: bool) -> str:
    """Feed chunks, draining events after each; the first error ends it."""
    outcome = "need_data"
    try:
        for chunk in [*chunks, *([b""] if eof else [])]:
            conn.receive_data(chunk)
            for _ in range(10_000):
                event = conn.next_event()
                if isinstance(event, NeedData):
                    break
                if isinstance(event, ConnectionClosed):
                    return "closed"
                outcome = "ok"
            else:
                raise AssertionError("next_event() did not stop")
    except RemoteProtocolError as exc:
        return exc.code.value
    except ProtocolError as exc:  # pragma: no cover - a local error here is a bug
        raise AssertionError(f"local error from remote input: {exc}") from exc
    return outcome


def fresh_host(seed: int) -> Connection:
    return HostConnection(IDENTITY, randomness(seed))


def fresh_client(seed: int) -> Connection:
    conn = ClientConnection(randomness(seed))
    conn.data_to_send()
    return conn


def open_client(seed: int) -> tuple[ConnectionPair, list[bytes]]:
    """A client after the handshake, and real frames its host sent it."""
    pair = ConnectionPair(seed=seed)
    pair.handshake()
    frames = [pair.host.send(m) for m in one_of_each() if m.SENDER in ("host", "both")]
    frames.append(pair.host.send(Update(99, 0, (), VIEW, (0,))))
    return pair, frames


def open_host(seed: int) -> tuple[ConnectionPair, list[bytes]]:
    pair = ConnectionPair(seed=seed)
    pair.handshake()
    frames = [pair.client.send(m) for m in (Join("Ann", None, False), Say("hi"))]
    return pair, frames


def handshake_transcript(seed: int) -> tuple[bytes, bytes]:
    """(what the client sends, what the host sends) in a whole handshake plus a message each."""
    pair = ConnectionPair(seed=seed)
    c1 = pair.client.data_to_send()
    pair.host.receive_data(c1)
    for _ in range(3):
        if isinstance(pair.host.next_event(), NeedData):
            break
    h1 = pair.host.data_to_send()
    pair.client.receive_data(h1)
    while not isinstance(pair.client.next_event(), NeedData):
        pass
    c2 = pair.client.data_to_send() + pair.client.send(Say("x"))
    pair.host.receive_data(c2)
    while not isinstance(pair.host.next_event(), NeedData):
        pass
    h2 = pair.host.data_to_send() + pair.host.send(Chat(None, "h", "y"))
    return c1 + c2, h1 + h2


def mutate(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(5)
        if not out:
            out += rng.randbytes(rng.randint(1, 8))
        pos = rng.randrange(len(out))
        if op == 0:
            out[pos] ^= 1 << rng.randrange(8)
        elif op == 1:
            out[pos] = rng.randrange(256)
        elif op == 2:
            del out[pos : pos + rng.randint(1, 8)]
        elif op == 3:
            out[pos:pos] = rng.randbytes(rng.randint(1, 8))
        else:
            out[pos : pos + 4] = rng.choice([b"\xff\xff\xff\xff", b"\x00\x00\x00\x00", b"\xc1"])
    return bytes(out)


def split(data: bytes, rng: random.Random) -> list[bytes]:
    chunks = []
    while data:
        n = rng.randint(1, max(1, len(data)))
        chunks.append(data[:n])
        data = data[n:]
    return chunks
