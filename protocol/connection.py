"""The sans-IO connection both roles share: bytes in, events out, bytes out.

Modelled on h11's `Connection`. The caller feeds received bytes with `receive_data` (b"" means
the peer closed its side), then calls `next_event` until it returns `NeedData`, writing
`data_to_send()` after each call; `send(message)` returns the bytes to write (anything the
connection had queued first). Nothing here reads a clock, draws randomness or touches a socket:
randomness comes from the `random_bytes` callable given at construction.

Any error, the peer's (`RemoteProtocolError`) or ours (`LocalProtocolError`), moves the
connection to ERROR for good; every later call raises. When the peer is at fault we queue an
`error` message telling it why, so the adapter should write `data_to_send()` before closing.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import ClassVar, Literal

from protocol.crypto import Opener, Sealer, Transcript
from protocol.errors import (
    ErrorCode,
    LocalProtocolError,
    PasswordRequired,
    PeerError,
    ProtocolError,
    RemoteProtocolError,
    VersionMismatch,
    WrongPassword,
)
from protocol.events import (
    ConnectionClosed,
    ConnectionEvent,
    HandshakeDone,
    MessageReceived,
    NeedData,
)
from protocol.framing import FrameReader, frame, length_prefix
from protocol.limits import MAX_PLAINTEXT, PROTOCOL_VERSION, TAG_SIZE
from protocol.messages import (
    Confirm,
    Error,
    Message,
    Ping,
    Pong,
    decode,
    encode,
    encode_unchecked,
)
from protocol.wire import pack, pack_unchecked, unpack

RandomBytes = Callable[[int], bytes]
Role = Literal["host", "client"]


class ConnectionState(Enum):
    HANDSHAKE = "handshake"
    OPEN = "open"
    CLOSED = "closed"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class Packed:
    """A session message encoded once (`packed`), to be sealed for any number of connections:
    what a table tells every spectator, or every player at the end, is encoded once, not once
    per connection. Only the sealing is per connection: each has its own keys."""

    message: Message
    payload: bytes


def packed(message: Message, *, check: bool = True) -> Packed:
    """`message` as the plaintext every connection seals; LocalProtocolError if it is too big.

    `check=False` skips checking its fields and walking its game payloads, for what the host
    makes from the engine at every move (`messages.encode_unchecked` says why that is safe)."""
    try:
        payload = pack(encode(message)) if check else pack_unchecked(encode_unchecked(message))
    except LocalProtocolError as exc:
        raise LocalProtocolError(exc.code, f"message '{message.TYPE}': {exc.text}") from None
    if len(payload) > MAX_PLAINTEXT:
        raise LocalProtocolError(
            ErrorCode.TOO_LARGE,
            f"message '{message.TYPE}' is {len(payload)} bytes; the limit is {MAX_PLAINTEXT}",
        )
    return Packed(message, payload)


class Connection:
    """Shared machinery; `HostConnection` and `ClientConnection` add their handshake."""

    ROLE: ClassVar[Role]
    PEER: ClassVar[Role]

    def __init__(self, random_bytes: RandomBytes) -> None:
        self._random = random_bytes
        self._reader = FrameReader()
        self._outbox = bytearray()
        self._events: deque[ConnectionEvent] = deque()
        self._transcript = Transcript()
        self._sealer: Sealer | None = None
        self._opener: Opener | None = None
        self._sending_encrypted = False
        self._paused = False
        """Waiting for something from the adapter (a password key): no frame is read."""
        self.state = ConnectionState.HANDSHAKE
        self.error: ProtocolError | None = None
        self.handshake: HandshakeDone | None = None

    # -- the public surface ---------------------------------------------------------------------

    def receive_data(self, data: bytes) -> None:
        """Bytes from the peer; b"" when the peer closed its side of the stream."""
        self._usable()
        try:
            self._reader.feed(data)
        except ProtocolError as exc:
            self._fail(exc)
            raise

    def next_event(self) -> ConnectionEvent:
        """The next event; raises RemoteProtocolError (and queues an `error` for the peer)."""
        self._usable()
        try:
            return self._next_event()
        except ProtocolError as exc:
            self._fail(exc)
            raise

    def send(self, message: Message | Packed) -> bytes:
        """Encrypt and frame one session message (or one `packed` already, for many
        connections); returns every byte owed to the peer."""
        self._usable()
        try:
            out = self._send(message)
        except ProtocolError as exc:
            self._fail(exc)
            raise
        return self.data_to_send() + out

    def data_to_send(self) -> bytes:
        """Bytes the connection queued by itself (handshake frames, pongs, error reports)."""
        out = bytes(self._outbox)
        self._outbox.clear()
        return out

    def refuse(self, code: ErrorCode, text: str, detail: dict[str, object] | None = None) -> bytes:
        """End the connection with our own refusal (a plaintext `error` during the handshake,
        an encrypted one after it); returns every byte owed to the peer. The connection is in
        ERROR afterwards."""
        self._usable()
        self._fail(_Refusal(code, text, detail or {}))
        return self.data_to_send()

    @property
    def can_send(self) -> bool:
        """Session messages may be sent (a client may start before the host's confirm)."""
        return (
            self._sealer is not None
            and self._sending_encrypted
            and self.state is not ConnectionState.ERROR
        )

    # -- for the roles ----------------------------------------------------------------------------

    def _on_handshake_frame(self, body: bytes, raw: bytes) -> None:
        raise NotImplementedError

    def _peer_error(self, message: Error) -> RemoteProtocolError:
        """The exception for an `error` the peer sent during the handshake."""
        if message.code == ErrorCode.PASSWORD_REQUIRED:
            return PasswordRequired()
        if message.code == ErrorCode.WRONG_PASSWORD:
            return WrongPassword()
        if message.code == ErrorCode.VERSION_MISMATCH:
            theirs = message.detail.get(f"{self.PEER}_version")
            theirs = theirs if type(theirs) is int else -1
            return version_mismatch(self.ROLE, theirs)
        return PeerError(
            f"the {self.PEER} ended the handshake: {message.text} [{message.code}]",
            message.code,
            dict(message.detail),
        )

    def _plain(self, body: bytes, expected: type[Message]) -> Message:
        """A plaintext handshake frame, which may also be the peer's `error`."""
        data = unpack(body)
        if (
            type(data) is dict
            and data.get("type") == expected.TYPE
            and type(data.get("version")) is int
            and data["version"] != PROTOCOL_VERSION
        ):
            raise version_mismatch(self.ROLE, data["version"])
        message = decode(data)
        if isinstance(message, Error):
            raise self._peer_error(message)
        if type(message) is not expected:
            raise RemoteProtocolError(
                ErrorCode.UNEXPECTED_MESSAGE,
                f"expected '{expected.TYPE}' during the handshake, got '{message.TYPE}'",
            )
        return message

    def _plain_error(self, body: bytes) -> Error | None:
        """`body` read as a plaintext `error`, if it is one (it replaces an encrypted frame)."""
        try:
            message = decode(unpack(body))
        except RemoteProtocolError:
            return None
        return message if isinstance(message, Error) else None

    def _open(self, body: bytes) -> Message:
        """Decrypt and decode one session frame, checking the sender may send it."""
        assert self._opener is not None
        plaintext = self._opener.open(length_prefix(len(body)), body)
        message = decode(unpack(plaintext))
        if message.SENDER not in (self.PEER, "both") or message.PHASE == "handshake":
            raise RemoteProtocolError(
                ErrorCode.UNEXPECTED_MESSAGE,
                f"a {self.PEER} may not send '{message.TYPE}' at this point",
            )
        return message

    def _seal(self, message: Message | Packed) -> bytes:
        assert self._sealer is not None
        payload = (message if isinstance(message, Packed) else packed(message)).payload
        prefix = length_prefix(len(payload) + TAG_SIZE)
        return prefix + self._sealer.seal(prefix, payload)

    def _queue_plain(self, message: Message) -> bytes:
        raw = frame(pack(encode(message)))
        self._outbox += raw
        return raw

    def _finish_handshake(self, done: HandshakeDone) -> None:
        self.handshake = done
        self.state = ConnectionState.OPEN
        self._events.append(done)

    # -- internals --------------------------------------------------------------------------------

    def _usable(self) -> None:
        if self.state is ConnectionState.ERROR:
            raise LocalProtocolError(
                ErrorCode.MISUSE, f"the connection failed earlier ({self.error}); open a new one"
            )

    def _next_event(self) -> ConnectionEvent:
        while True:
            if self._events:
                return self._events.popleft()
            if self._paused:
                return NeedData()
            if self.state is ConnectionState.CLOSED:
                return ConnectionClosed()
            body = self._reader.next_body()
            if body is None:
                if not self._reader.eof:
                    return NeedData()
                if self.state is ConnectionState.HANDSHAKE:
                    raise RemoteProtocolError(
                        ErrorCode.CLOSED,
                        f"the {self.PEER} closed the connection during the handshake",
                    )
                self.state = ConnectionState.CLOSED
                return ConnectionClosed()
            if self.state is ConnectionState.HANDSHAKE:
                self._on_handshake_frame(body, frame(body))
                continue
            message = self._open(body)
            if isinstance(message, Confirm):
                raise RemoteProtocolError(
                    ErrorCode.UNEXPECTED_MESSAGE, "'confirm' is sent once, during the handshake"
                )
            if isinstance(message, Ping):
                self._outbox += self._seal(Pong(message.nonce))
                continue
            return MessageReceived(message)

    def _send(self, outgoing: Message | Packed) -> bytes:
        message = outgoing.message if isinstance(outgoing, Packed) else outgoing
        if not self.can_send:
            raise LocalProtocolError(
                ErrorCode.MISUSE, "messages can only be sent once the handshake has done its part"
            )
        if message.SENDER not in (self.ROLE, "both") or message.PHASE == "handshake":
            raise LocalProtocolError(
                ErrorCode.UNEXPECTED_MESSAGE, f"a {self.ROLE} does not send '{message.TYPE}'"
            )
        if isinstance(message, Confirm):
            raise LocalProtocolError(ErrorCode.MISUSE, "the connection sends 'confirm' itself")
        return self._seal(outgoing)

    def _fail(self, exc: ProtocolError) -> None:
        if self.state is ConnectionState.ERROR:
            return
        self.state = ConnectionState.ERROR
        self.error = exc
        if not isinstance(exc, RemoteProtocolError) or isinstance(exc, PeerError):
            return
        detail: dict[str, object] = {}
        if isinstance(exc, _Refusal):
            detail = exc.detail
        if isinstance(exc, VersionMismatch):
            detail = {f"{self.ROLE}_version": exc.ours, f"{self.PEER}_version": exc.theirs}
        report = Error(exc.code.value, exc.text[:500], True, detail)
        try:
            if self._sending_encrypted and self._sealer is not None:
                self._outbox += self._seal(report)
            else:
                self._queue_plain(report)
        except ProtocolError:
            pass


class _Refusal(RemoteProtocolError):
    """Our own decision to end a connection (`Connection.refuse`), told to the peer."""

    def __init__(self, code: ErrorCode, text: str, detail: dict[str, object]) -> None:
        super().__init__(code, text)
        self.detail = detail


def version_mismatch(role: Role, theirs: int) -> VersionMismatch:
    ours = PROTOCOL_VERSION
    if role == "client":
        text = (
            f"the host speaks protocol version {theirs}, this program speaks version {ours}: "
            "both players need a netcards release with the same protocol version"
        )
    else:
        text = (
            f"a client speaking protocol version {theirs} tried to join; this host speaks "
            f"version {ours}: both players need a release with the same protocol version"
        )
    return VersionMismatch(ours, theirs, text)
