"""The primitives of a session: X25519, the key schedule, the password stretch, sealed frames.

Everything that turns bytes into keys or keys into ciphertext is here, with the exact labels
docs/protocol.md gives, so that the handshake code reads as protocol logic only. Nothing here
draws randomness: private keys and salts arrive as bytes from the caller.
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError

TRANSCRIPT_LABEL = b"netcards transcript v1"
SIGNATURE_LABEL = b"netcards host auth v1"
KEYS_INFO = b"netcards session keys v1"

SCRYPT_N = 2**15
SCRYPT_R = 8
SCRYPT_P = 1
SALT_SIZE = 16
NONCE_PREFIX = b"\x00\x00\x00\x00"
MAX_COUNTER = 2**64 - 1


class Transcript:
    """SHA-256 over every handshake frame exactly as it crossed the wire, in order."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256(TRANSCRIPT_LABEL)

    def add(self, raw_frame: bytes) -> None:
        self._hash.update(raw_frame)

    def digest(self) -> bytes:
        return self._hash.copy().digest()


def signed_data(transcript_hash: bytes) -> bytes:
    """What the host signs: a label, so the signature cannot be reused in another context."""
    return SIGNATURE_LABEL + transcript_hash


class KeyShare:
    """An ephemeral X25519 key pair made from 32 caller-supplied random bytes."""

    __slots__ = ("_private", "public")

    def __init__(self, private: bytes) -> None:
        if len(private) != 32:
            raise LocalProtocolError(ErrorCode.MISUSE, "an X25519 private key is 32 bytes")
        self._private = X25519PrivateKey.from_private_bytes(private)
        self.public: bytes = self._private.public_key().public_bytes_raw()

    def shared_secret(self, peer_public: bytes) -> bytes:
        try:
            return self._private.exchange(X25519PublicKey.from_public_bytes(peer_public))
        except ValueError:
            # A low-order point gives an all-zero secret, which the library refuses.
            raise RemoteProtocolError(
                ErrorCode.BAD_KEY_SHARE, "the peer's key share is not a usable X25519 key"
            ) from None


def stretch_password(password: str, salt: bytes) -> bytes:
    """scrypt(NFC(password) as UTF-8, salt); slow on purpose (about 32 MiB and tens of ms)."""
    if len(salt) != SALT_SIZE:
        raise LocalProtocolError(ErrorCode.MISUSE, f"a password salt is {SALT_SIZE} bytes")
    data = unicodedata.normalize("NFC", password).encode("utf-8")
    return hashlib.scrypt(
        data, salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, maxmem=64 * 1024 * 1024, dklen=32
    )


@dataclass(frozen=True)
class TablePassword:
    """A table's password, as the host keeps it. Every handshake stretches it with a salt of
    its own, so a key computed for one handshake (or a table of them, for many guesses) is no
    use for the next: an online guess costs the guesser a whole scrypt, every time."""

    text: str

    def stretch(self, salt: bytes) -> bytes:
        return stretch_password(self.text, salt)

    def __repr__(self) -> str:
        return "TablePassword(<hidden>)"


def session_keys(
    shared_secret: bytes, password_key: bytes, transcript_hash: bytes
) -> tuple[bytes, bytes]:
    """(client-to-host key, host-to-client key) from HKDF-SHA256."""
    okm = HKDF(algorithm=hashes.SHA256(), length=64, salt=transcript_hash, info=KEYS_INFO).derive(
        shared_secret + password_key
    )
    return okm[:32], okm[32:]


def nonce(counter: int) -> bytes:
    return NONCE_PREFIX + counter.to_bytes(8, "big")


class Sealer:
    """Encrypts one direction's frames; the nonce is the count of frames sealed before."""

    __slots__ = ("_aead", "counter")

    def __init__(self, key: bytes) -> None:
        self._aead = ChaCha20Poly1305(key)
        self.counter = 0

    def seal(self, prefix: bytes, plaintext: bytes) -> bytes:
        if self.counter > MAX_COUNTER:
            raise LocalProtocolError(ErrorCode.COUNTER_EXHAUSTED, "too many frames on one key")
        out = self._aead.encrypt(nonce(self.counter), plaintext, prefix)
        self.counter += 1
        return out


class Opener:
    """Decrypts the other direction; any replayed, reordered, dropped or altered frame fails."""

    __slots__ = ("_aead", "counter")

    def __init__(self, key: bytes) -> None:
        self._aead = ChaCha20Poly1305(key)
        self.counter = 0

    def open(self, prefix: bytes, ciphertext: bytes) -> bytes:
        if self.counter > MAX_COUNTER:
            raise RemoteProtocolError(ErrorCode.COUNTER_EXHAUSTED, "too many frames on one key")
        try:
            out = self._aead.decrypt(nonce(self.counter), ciphertext, prefix)
        except InvalidTag:
            raise RemoteProtocolError(
                ErrorCode.AUTHENTICATION_FAILED,
                f"frame {self.counter} failed authentication (altered, replayed, reordered, "
                "dropped or not meant for this connection)",
            ) from None
        self.counter += 1
        return out
