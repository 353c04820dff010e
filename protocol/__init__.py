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
from protocol.fanout import (
    SPECTATOR,
    audit_messages,
    history_messages,
    snapshot_for,
    update_for,
    updates_by_seat,
)
from protocol.host_connection import HostConnection
from protocol.identity import IdentityKey, fingerprint
from protocol.limits import PROTOCOL_VERSION
from protocol.liveness import Liveness
from protocol.messages import MESSAGE_TYPES, Message, decode, encode

__all__ = [
    "MESSAGE_TYPES",
    "PROTOCOL_VERSION",
    "SPECTATOR",
    "ClientConnection",
    "Connection",
    "ConnectionClosed",
    "ConnectionState",
    "ErrorCode",
    "HandshakeDone",
    "HostConnection",
    "HostKeyChanged",
    "IdentityKey",
    "Liveness",
    "LocalProtocolError",
    "Message",
    "MessageReceived",
    "NeedData",
    "PasswordRequired",
    "PeerError",
    "ProtocolError",
    "RemoteProtocolError",
    "TablePassword",
    "VersionMismatch",
    "WrongPassword",
    "audit_messages",
    "decode",
    "encode",
    "fingerprint",
    "history_messages",
    "snapshot_for",
    "update_for",
    "updates_by_seat",
]
