"""The client's end of one connection: checks the host's identity, proves it knows the password.

The client speaks first (its hello), checks the host's identity against the pinned key if there
is one, verifies the host's signature over the transcript, derives the keys (with the stretched
password when the host's hello carries a salt) and sends its encrypted `confirm`. It may send
session messages right behind it; the handshake is done when the host's `confirm` decrypts.
"""

from __future__ import annotations

from protocol.connection import Connection, RandomBytes
from protocol.crypto import KeyShare, Opener, Sealer, session_keys, signed_data, stretch_password
from protocol.errors import (
    ErrorCode,
    HostKeyChanged,
    LocalProtocolError,
    PasswordRequired,
    RemoteProtocolError,
)
from protocol.events import HandshakeDone
from protocol.identity import fingerprint, verify_signature
from protocol.limits import PROTOCOL_VERSION
from protocol.messages import ClientHello, Confirm, HostAuth, HostHello


class ClientConnection(Connection):
    """`pinned_host_key`: the host's public key from an earlier visit (None on first contact)."""

    ROLE = "client"
    PEER = "host"

    def __init__(
        self,
        random_bytes: RandomBytes,
        *,
        password: str | None = None,
        pinned_host_key: bytes | None = None,
    ) -> None:
        super().__init__(random_bytes)
        if pinned_host_key is not None and len(pinned_host_key) != 32:
            raise LocalProtocolError(ErrorCode.MISUSE, "a pinned host key is 32 bytes")
        self._password = password
        self._pinned = pinned_host_key
        self._share: KeyShare | None = KeyShare(random_bytes(32))
        self._hello: HostHello | None = None
        self._step = "host_hello"
        self._transcript.add(self._queue_plain(ClientHello(PROTOCOL_VERSION, self._share.public)))

    def _on_handshake_frame(self, body: bytes, raw: bytes) -> None:
        if self._step == "host_hello":
            self._on_host_hello(body, raw)
        elif self._step == "host_auth":
            self._on_host_auth(body, raw)
        else:
            self._on_host_confirm(body)

    def _on_host_hello(self, body: bytes, raw: bytes) -> None:
        hello = self._plain(body, HostHello)
        assert isinstance(hello, HostHello)
        if self._pinned is not None and hello.identity != self._pinned:
            raise HostKeyChanged(fingerprint(self._pinned), fingerprint(hello.identity))
        if hello.password_salt is not None and self._password is None:
            raise PasswordRequired()
        self._transcript.add(raw)
        self._hello = hello
        self._step = "host_auth"

    def _on_host_auth(self, body: bytes, raw: bytes) -> None:
        auth = self._plain(body, HostAuth)
        assert isinstance(auth, HostAuth) and self._hello is not None and self._share is not None
        hello = self._hello
        if not verify_signature(
            hello.identity, auth.signature, signed_data(self._transcript.digest())
        ):
            raise RemoteProtocolError(
                ErrorCode.BAD_SIGNATURE,
                "the host's signature over the handshake does not verify: the connection may "
                "have been tampered with",
            )
        self._transcript.add(raw)
        shared = self._share.shared_secret(hello.key_share)
        self._share = None
        password_key = b""
        if hello.password_salt is not None:
            assert self._password is not None
            password_key = stretch_password(self._password, hello.password_salt)
        c2h, h2c = session_keys(shared, password_key, self._transcript.digest())
        self._sealer = Sealer(c2h)
        self._opener = Opener(h2c)
        self._outbox += self._seal(Confirm())
        self._sending_encrypted = True
        self._step = "confirm"

    def _on_host_confirm(self, body: bytes) -> None:
        try:
            message = self._open(body)
        except RemoteProtocolError as exc:
            if exc.code is not ErrorCode.AUTHENTICATION_FAILED:
                raise
            # The host refuses in plaintext when it cannot read our confirm (a wrong password).
            refusal = self._plain_error(body)
            if refusal is not None:
                raise self._peer_error(refusal) from None
            raise
        if not isinstance(message, Confirm):
            raise RemoteProtocolError(
                ErrorCode.UNEXPECTED_MESSAGE,
                f"expected 'confirm' as the host's first encrypted message, got '{message.TYPE}'",
            )
        assert self._hello is not None
        self._finish_handshake(
            HandshakeDone(
                host_key=self._hello.identity,
                fingerprint=fingerprint(self._hello.identity),
                session_id=self._transcript.digest(),
                table=self._hello.table,
                password_protected=self._hello.password_salt is not None,
            )
        )
