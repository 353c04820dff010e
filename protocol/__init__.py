"""The wire protocol: messages, frames, the handshake and sans-IO connections.

Nothing in this package does I/O. The asyncio adapters (next to it, later) only move bytes
between sockets and these objects; the table logic decides what to send.
"""

from protocol.client_connection import ClientConnection
from protocol.connection import Connection, ConnectionState
from protocol.crypto import TablePassword
from protocol.errors import (
    ErrorCode,
    HostKeyChanged,
    LocalProtocolError,
    PasswordRequired,
    PeerError,
    ProtocolError,
    RemoteProtocolError,
    VersionMismatch,
    WrongPassword,
)
from protocol.events import ConnectionClosed, HandshakeDone, MessageReceived, NeedData
from protocol.host_connection import HostConnection
from protocol.identity import IdentityKey, fingerprint
from protocol.limits import PROTOCOL_VERSION

__all__ = [
    "PROTOCOL_VERSION",
    "ClientConnection",
    "Connection",
    "ConnectionClosed",
    "ConnectionState",
    "ErrorCode",
    "HandshakeDone",
    "HostConnection",
    "HostKeyChanged",
    "IdentityKey",
    "LocalProtocolError",
    "MessageReceived",
    "NeedData",
    "PasswordRequired",
    "PeerError",
    "ProtocolError",
    "RemoteProtocolError",
    "TablePassword",
    "VersionMismatch",
    "WrongPassword",
    "fingerprint",
]
