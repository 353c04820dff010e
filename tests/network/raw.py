"""A bare client connection for tests that act like strangers: from any loopback address, with
any password, doing only as much of the protocol as the test wants (no reconnecting, no
answering beyond what the connection does by itself)."""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field

from protocol.client_connection import ClientConnection
from protocol.events import (
    ConnectionClosed,
    ConnectionEvent,
    HandshakeDone,
    MessageReceived,
    NeedData,
)
from protocol.framing import FrameReader
from protocol.messages import HostHello, Message, decode
from protocol.wire import unpack


@dataclass
class Raw:
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    conn: ClientConnection
    messages: list[Message] = field(default_factory=list)
    taken: int = 0
    """How many of `messages` `message()` has returned."""
    received: bytearray = field(default_factory=bytearray)
    """Every byte the host sent, as someone on the network would capture it."""

    async def _pump(self, timeout: float) -> list[ConnectionEvent]:
        """Read once (or time out), and return the events that came of it."""
        data = await asyncio.wait_for(self.reader.read(65536), timeout)
        self.received += data
        self.conn.receive_data(data)
        events: list[ConnectionEvent] = []
        try:
            while not isinstance(event := self.conn.next_event(), NeedData):
                events.append(event)
                if isinstance(event, MessageReceived):
                    self.messages.append(event.message)
                if isinstance(event, ConnectionClosed):
                    break
        finally:
            self.writer.write(self.conn.data_to_send())
        return events

    async def handshake(self, timeout: float = 10) -> HandshakeDone:
        """Until the host confirms; the connection's ProtocolError if it refuses."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.conn.handshake is None:
            events = await self._pump(max(0.01, deadline - loop.time()))
            if any(isinstance(e, ConnectionClosed) for e in events):
                raise ConnectionError("the host closed the connection")
        return self.conn.handshake

    async def send(self, message: Message) -> None:
        self.writer.write(self.conn.send(message))
        await self.writer.drain()

    async def message(self, timeout: float = 10) -> Message:
        """The next message from the host that this method has not returned yet."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.taken == len(self.messages):
            events = await self._pump(max(0.01, deadline - loop.time()))
            if any(isinstance(e, ConnectionClosed) for e in events):
                raise ConnectionError("the host closed the connection")
        self.taken += 1
        return self.messages[self.taken - 1]

    def host_hello(self) -> HostHello:
        """The host's plaintext hello, read back from the captured bytes."""
        bodies = frame_bodies(bytes(self.received))
        assert bodies, "no frame from the host yet"
        hello = decode(unpack(bodies[0]))
        assert isinstance(hello, HostHello), hello
        return hello

    def close(self) -> None:
        self.writer.close()


def frame_bodies(data: bytes) -> list[bytes]:
    """The bodies of the whole frames in `data` (bytes captured off the wire), in order."""
    reader = FrameReader()
    reader.feed(data)
    bodies = []
    while (body := reader.next_body()) is not None:
        bodies.append(body)
    return bodies


async def connect(
    port: int, *, source: str = "127.0.0.1", password: str | None = None, target: str = "127.0.0.1"
) -> Raw:
    reader, writer = await asyncio.open_connection(target, port, local_addr=(source, 0))
    conn = ClientConnection(os.urandom, password=password)
    writer.write(conn.data_to_send())
    return Raw(reader, writer, conn)
