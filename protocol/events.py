"""What `next_event()` returns. Errors are not events: they are raised (h11's convention)."""

from __future__ import annotations

from dataclasses import dataclass

from protocol.messages import Message


@dataclass(frozen=True, slots=True)
class HandshakeDone:
    """Both ends hold the same keys; the host proved its identity with `host_key`.

    A client stores `host_key` (with `fingerprint` for people) to pin it next time.
    `session_id` is the final transcript hash: the same on both ends, unique per connection.
    """

    host_key: bytes
    fingerprint: str
    session_id: bytes
    table: str
    password_protected: bool


@dataclass(frozen=True, slots=True)
class MessageReceived:
    message: Message


@dataclass(frozen=True, slots=True)
class PasswordKeyNeeded:
    """(Host, table with a password.) The client's `confirm` is in, and judging it needs the
    password stretched with this connection's `salt`: slow on purpose, so the adapter computes
    it off the event loop (after any throttling) and hands it to `supply_password_key`. Until
    then the connection reads nothing more."""

    salt: bytes


@dataclass(frozen=True, slots=True)
class NeedData:
    """Nothing more can be decoded until `receive_data` is called again."""


@dataclass(frozen=True, slots=True)
class ConnectionClosed:
    """The peer ended its stream cleanly, between two frames, after the handshake."""


ConnectionEvent = HandshakeDone | MessageReceived | PasswordKeyNeeded | NeedData | ConnectionClosed
