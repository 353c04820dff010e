"""The host's end of one connection: answers the hello, proves its identity, checks the password.

The host speaks second. From the client's hello it makes its own ephemeral key, sends its hello
and a signature over the transcript, derives the keys, and waits for the client's encrypted
`confirm`. A confirm that does not decrypt means the client derived other keys: with a table
password that is a wrong password, and the client is told so in a plaintext `error`.
"""

from __future__ import annotations

from protocol.connection import Connection, RandomBytes
from protocol.crypto import KeyShare, Opener, Sealer, TablePassword, session_keys, signed_data
from protocol.errors import ErrorCode, PeerError, RemoteProtocolError, WrongPassword
from protocol.events import HandshakeDone
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
        self._password = password
        self._table = table
        self._awaiting_confirm = False

    def _peer_error(self, message: Error) -> RemoteProtocolError:
        return PeerError(
            f"the client gave up the handshake: {message.text} [{message.code}]", message.code
        )

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
        shared = share.shared_secret(hello.key_share)
        salt = self._password.salt if self._password else None
        self._transcript.add(
            self._queue_plain(
                HostHello(
                    PROTOCOL_VERSION, self._identity.public_key, share.public, salt, self._table
                )
            )
        )
        signature = self._identity.sign(signed_data(self._transcript.digest()))
        self._transcript.add(self._queue_plain(HostAuth(signature)))
        password_key = self._password.key if self._password else b""
        c2h, h2c = session_keys(shared, password_key, self._transcript.digest())
        self._opener = Opener(c2h)
        self._sealer = Sealer(h2c)
        self._awaiting_confirm = True

    def _on_client_confirm(self, body: bytes) -> None:
        try:
            message = self._open(body)
        except RemoteProtocolError as exc:
            if exc.code is not ErrorCode.AUTHENTICATION_FAILED:
                raise
            # Not decryptable: the client's own complaint in plaintext, or other keys.
            complaint = self._plain_error(body)
            if complaint is not None:
                raise self._peer_error(complaint) from None
            if self._password is not None:
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
                password_protected=self._password is not None,
            )
        )
