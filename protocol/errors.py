"""The protocol's exceptions and their stable error codes.

As in h11, whose fault an error is decides its class: `RemoteProtocolError` when the peer sent
something we refuse, `LocalProtocolError` when our own code misused a connection. Either one
moves the connection to its ERROR state. Every error carries an `ErrorCode`, a short string that
also travels in the `error` message, so that both ends (and a second implementation) can react
to the reason without parsing English.
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """Stable reasons. Values are part of the wire format: never rename one, only add."""

    # Framing and encoding.
    FRAME_TOO_LARGE = "frame_too_large"
    EMPTY_FRAME = "empty_frame"
    TRUNCATED = "truncated"
    BAD_ENCODING = "bad_encoding"
    EXT_TYPE = "ext_type"
    TOO_DEEP = "too_deep"
    TOO_LARGE = "too_large"
    BAD_KEY = "bad_key"
    DUPLICATE_KEY = "duplicate_key"
    # Message schema.
    NOT_A_MAP = "not_a_map"
    UNKNOWN_TYPE = "unknown_type"
    MISSING_FIELD = "missing_field"
    EXTRA_FIELD = "extra_field"
    WRONG_TYPE = "wrong_type"
    OUT_OF_RANGE = "out_of_range"
    UNEXPECTED_MESSAGE = "unexpected_message"
    # Handshake and encryption.
    VERSION_MISMATCH = "version_mismatch"
    BAD_SIGNATURE = "bad_signature"
    BAD_KEY_SHARE = "bad_key_share"
    HOST_KEY_CHANGED = "host_key_changed"
    PASSWORD_REQUIRED = "password_required"
    WRONG_PASSWORD = "wrong_password"
    AUTHENTICATION_FAILED = "authentication_failed"
    COUNTER_EXHAUSTED = "counter_exhausted"
    # Lifecycle.
    CLOSED = "closed"
    PEER_ERROR = "peer_error"
    MISUSE = "misuse"
    # Reasons the application (the table) gives in an `error` message.
    REFUSED = "refused"
    ILLEGAL_ACTION = "illegal_action"
    STALE_SEQ = "stale_seq"
    FUTURE_SEQ = "future_seq"
    TABLE_FULL = "table_full"
    BAD_TOKEN = "bad_token"
    NOT_ALLOWED = "not_allowed"
    TIMEOUT = "timeout"
    INTERNAL = "internal"
    THROTTLED = "throttled"
    REPLACED = "replaced"
    STEP_PENDING = "step_pending"
    CHEATED = "cheated"


STREAM_ERRORS = frozenset(
    {
        ErrorCode.FRAME_TOO_LARGE,
        ErrorCode.EMPTY_FRAME,
        ErrorCode.TRUNCATED,
        ErrorCode.BAD_ENCODING,
        ErrorCode.EXT_TYPE,
        ErrorCode.TOO_DEEP,
        ErrorCode.TOO_LARGE,
        ErrorCode.BAD_KEY,
        ErrorCode.DUPLICATE_KEY,
        ErrorCode.NOT_A_MAP,
        ErrorCode.UNKNOWN_TYPE,
        ErrorCode.MISSING_FIELD,
        ErrorCode.EXTRA_FIELD,
        ErrorCode.WRONG_TYPE,
        ErrorCode.OUT_OF_RANGE,
        ErrorCode.AUTHENTICATION_FAILED,
        ErrorCode.COUNTER_EXHAUSTED,
        ErrorCode.TIMEOUT,
    }
)
"""Reasons that are about the bytes of one connection (a damaged frame, a silent link), not
about who is connecting: a player refused for one of these reconnects with its seat token,
as after a cut; any other fatal reason (a full table, a bad token...) ends its session."""


class ProtocolError(Exception):
    """Base of every error this package raises about a connection or its data."""

    def __init__(self, code: ErrorCode, text: str) -> None:
        super().__init__(text)
        self.code = code
        self.text = text

    def __str__(self) -> str:
        return f"{self.text} [{self.code.value}]"


class RemoteProtocolError(ProtocolError):
    """The peer sent something we refuse: bad bytes, a bad message, a failed check."""


class LocalProtocolError(ProtocolError):
    """Our own code used a connection wrongly (sent in the wrong state, an invalid message...)."""


class VersionMismatch(RemoteProtocolError):
    """The two ends speak different protocol versions; both numbers are kept for the message."""

    def __init__(self, ours: int, theirs: int, text: str) -> None:
        super().__init__(ErrorCode.VERSION_MISMATCH, text)
        self.ours = ours
        self.theirs = theirs


class HostKeyChanged(RemoteProtocolError):
    """The host's identity key is not the one pinned for it: a possible impersonation."""

    def __init__(self, expected: str, received: str) -> None:
        super().__init__(
            ErrorCode.HOST_KEY_CHANGED,
            "WARNING: the host's identity has changed. Expected fingerprint "
            f"{expected}, but this host presented {received}. Someone may be impersonating the "
            "host, or the host may have a new key (a reinstall, another computer). Do not join. "
            "Ask the host in person or on another channel to read out its fingerprint; only if "
            "it matches the new one, forget the old key for this host and connect again.",
        )
        self.expected = expected
        self.received = received


class PasswordRequired(RemoteProtocolError):
    """The table has a password and none was given; ask the user and connect again."""

    def __init__(self) -> None:
        super().__init__(
            ErrorCode.PASSWORD_REQUIRED, "this table needs a password: enter it and join again"
        )


class WrongPassword(RemoteProtocolError):
    """The key confirmation failed because the two ends derived keys from different passwords."""

    def __init__(self) -> None:
        super().__init__(ErrorCode.WRONG_PASSWORD, "wrong password for this table")


class PeerError(RemoteProtocolError):
    """The peer ended the handshake with an `error` message; `peer_code` is its reason and
    `detail` its details (such as `retry_after_ms` of a `throttled`)."""

    def __init__(self, text: str, peer_code: str, detail: dict[str, object] | None = None) -> None:
        super().__init__(ErrorCode.PEER_ERROR, text)
        self.peer_code = peer_code
        self.detail = detail or {}
