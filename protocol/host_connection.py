"""The host's end of one connection: answers the hello, proves its identity, checks the password.

The host speaks second. From the client's hello it makes its own ephemeral key (and, with a
table password, a fresh salt for this connection alone), sends its hello and a signature over
the transcript, and waits for the client's encrypted `confirm`. With a password, the keys need
the password stretched with that salt: the connection asks for it with a `PasswordKeyNeeded`
event instead of running scrypt itself, so that the adapter can throttle repeated failures and
keep the slow work off its event loop. A confirm that does not decrypt means the client derived
other keys: with a table password that is a wrong password, and the client is told so in a
plaintext `error`.
"""

from __future__ import annotations

from protocol.connection import Connection, RandomBytes
from protocol.crypto import (
    SALT_SIZE,
    KeyShare,
    Opener,
    Sealer,
    TablePassword,
    session_keys,
    signed_data,
)
from protocol.errors import (
    ErrorCode,
    LocalProtocolError,
    PeerError,
    ProtocolError,
    RemoteProtocolError,
    WrongPassword,
)
from protocol.events import HandshakeDone, PasswordKeyNeeded
from protocol.identity import IdentityKey
from protocol.limits import PROTOCOL_VERSION
from protocol.messages import ClientHello, Confirm, Error, HostAuth, HostHello


class HostConnection(Connection):
    ROLE = "host"
    PEER = "client"

    def __init__(
        self,
        identity: IdentityKey,
        random_bytes: RandomBytes,
        *,
        password: TablePassword | None = None,
        table: str = "",
    ) -> None:
        super().__init__(random_bytes)
        self._identity = identity
        self.password = password
        self._table = table
        self._awaiting_confirm = False
        self._salt: bytes | None = None
        self._shared = b""
        self._held: bytes | None = None
        """The client's confirm, kept until the password key for this connection arrives."""

    def _peer_error(self, message: Error) -> RemoteProtocolError:
        return PeerError(
            f"the client gave up the handshake: {message.text} [{message.code}]",
            message.code,
            dict(message.detail),
        )

    def supply_password_key(self, key: bytes) -> None:
        """The answer to `PasswordKeyNeeded`: the password stretched with its salt. Judges the
        client's confirm: raises WrongPassword (with an `error` queued for the client) if it
        does not decrypt; otherwise the handshake is done and `next_event` goes on."""
        self._usable()
        if self._held is None or self._opener is not None:
            raise LocalProtocolError(ErrorCode.MISUSE, "no password key was asked for")
        held, self._held = self._held, None
        try:
            self._derive_keys(key)
            self._on_client_confirm(held)
        except ProtocolError as exc:
            self._fail(exc)
            raise
        finally:
            self._paused = False

    def _on_handshake_frame(self, body: bytes, raw: bytes) -> None:
        if not self._awaiting_confirm:
            self._on_client_hello(body, raw)
        else:
            self._on_client_confirm(body)

    def _on_client_hello(self, body: bytes, raw: bytes) -> None:
        hello = self._plain(body, ClientHello)
        assert isinstance(hello, ClientHello)
        self._transcript.add(raw)
        share = KeyShare(self._random(32))
        self._shared = share.shared_secret(hello.key_share)
        self._salt = self._random(SALT_SIZE) if self.password else None
        self._transcript.add(
            self._queue_plain(
                HostHello(
                    PROTOCOL_VERSION,
                    self._identity.public_key,
                    share.public,
                    self._salt,
                    self._table,
                )
            )
        )
        signature = self._identity.sign(signed_data(self._transcript.digest()))
        self._transcript.add(self._queue_plain(HostAuth(signature)))
        if self.password is None:
            self._derive_keys(b"")
        self._awaiting_confirm = True

    def _derive_keys(self, password_key: bytes) -> None:
        c2h, h2c = session_keys(self._shared, password_key, self._transcript.digest())
        self._opener = Opener(c2h)
        self._sealer = Sealer(h2c)

    def _on_client_confirm(self, body: bytes) -> None:
        if self._opener is None:  # a password table: judging needs the key for our salt
            assert self._salt is not None
            complaint = self._plain_error(body)
            if complaint is not None:  # the client gave up (say, it has no password)
                raise self._peer_error(complaint)
            self._held = body
            self._paused = True
            self._events.append(PasswordKeyNeeded(self._salt))
            return
        try:
            message = self._open(body)
        except RemoteProtocolError as exc:
            if exc.code is not ErrorCode.AUTHENTICATION_FAILED:
                raise
            # Not decryptable: the client's own complaint in plaintext, or other keys.
            complaint = self._plain_error(body)
            if complaint is not None:
                raise self._peer_error(complaint) from None
            if self.password is not None:
                raise WrongPassword() from None
            raise
        if not isinstance(message, Confirm):
            raise RemoteProtocolError(
                ErrorCode.UNEXPECTED_MESSAGE,
                f"expected 'confirm' as the client's first encrypted message, got '{message.TYPE}'",
            )
        self._outbox += self._seal(Confirm())
        self._sending_encrypted = True
        self._finish_handshake(
            HandshakeDone(
                host_key=self._identity.public_key,
                fingerprint=self._identity.fingerprint,
                session_id=self._transcript.digest(),
                table=self._table,
                password_protected=self.password is not None,
            )
        )
