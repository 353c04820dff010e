"""The host's long-term Ed25519 identity key and the fingerprint people compare.

Players pin a host's public key the first time they join it (like SSH's known_hosts) and are
warned loudly if it ever changes. The fingerprint is what two people read to each other:
20 base32 characters (100 bits of SHA-256) in five groups, letters and digits 2-7 only.
The key file format is text so that it survives copying and is easy to inspect.

The same key is the host key of the table's SSH door, so it also has OpenSSH's forms: the
`ssh-ed25519 AAAA...` public key line and the `SHA256:...` fingerprint that `ssh` prints and
records in `known_hosts`. One key then stands behind both fingerprints.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import struct
from collections.abc import Callable

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

KEY_FILE_HEADER = "netcards-identity-v1"
FINGERPRINT_CHARS = 20
FINGERPRINT_GROUP = 4
SSH_KEY_TYPE = b"ssh-ed25519"


class IdentityFileError(ValueError):
    """A stored identity key that cannot be read back (damaged or not ours)."""


def fingerprint(public_key: bytes) -> str:
    """The human-comparable form of a host's public key, e.g. `K3QZ-7TNB-XW2A-M4PD-9HRE`."""
    digest = hashlib.sha256(public_key).digest()
    text = base64.b32encode(digest).decode("ascii")[:FINGERPRINT_CHARS]
    groups = range(0, FINGERPRINT_CHARS, FINGERPRINT_GROUP)
    return "-".join(text[i : i + FINGERPRINT_GROUP] for i in groups)


def ssh_public_blob(public_key: bytes) -> bytes:
    """The key in SSH's wire format (RFC 8709): string "ssh-ed25519", string key."""
    return b"".join(struct.pack(">I", len(part)) + part for part in (SSH_KEY_TYPE, public_key))


def ssh_public_line(public_key: bytes) -> str:
    """The key as OpenSSH writes it in `known_hosts` and `authorized_keys`."""
    return f"{SSH_KEY_TYPE.decode()} {base64.b64encode(ssh_public_blob(public_key)).decode()}"


def ssh_fingerprint(public_key: bytes) -> str:
    """OpenSSH's fingerprint of the key (`ssh-keygen -l`, the first-visit question of `ssh`)."""
    return ssh_blob_fingerprint(ssh_public_blob(public_key))


def ssh_blob_fingerprint(blob: bytes) -> str:
    """OpenSSH's fingerprint of any key in SSH's wire format: `SHA256:` and the unpadded
    base64 of the SHA-256 of the blob."""
    digest = hashlib.sha256(blob).digest()
    return "SHA256:" + base64.b64encode(digest).decode("ascii").rstrip("=")


def verify_signature(public_key: bytes, signature: bytes, data: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, data)
    except (InvalidSignature, ValueError):
        return False
    return True


class IdentityKey:
    """A host's signing key; the private half never leaves this object except via `dump`."""

    __slots__ = ("_private", "public_key")

    def __init__(self, seed: bytes) -> None:
        if len(seed) != 32:
            raise ValueError("an identity key seed is 32 bytes")
        self._private = Ed25519PrivateKey.from_private_bytes(seed)
        self.public_key: bytes = self._private.public_key().public_bytes_raw()

    @classmethod
    def generate(cls, random_bytes: Callable[[int], bytes]) -> IdentityKey:
        return cls(random_bytes(32))

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key)

    @property
    def ssh_fingerprint(self) -> str:
        return ssh_fingerprint(self.public_key)

    def sign(self, data: bytes) -> bytes:
        return self._private.sign(data)

    def dump(self) -> str:
        """The key as the text of a key file (keep it private: it is the host's identity)."""
        seed = self._private.private_bytes_raw()
        return f"{KEY_FILE_HEADER}\n{base64.b64encode(seed).decode('ascii')}\n"

    def dump_openssh(self) -> bytes:
        """The private key in OpenSSH's own file format, for the SSH door's host key (kept in
        memory: the key file on disk stays the one above)."""
        return self._private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.OpenSSH,
            serialization.NoEncryption(),
        )

    @classmethod
    def load(cls, text: str) -> IdentityKey:
        """Inverse of `dump`; anything else raises IdentityFileError saying what is wrong."""
        lines = text.strip().splitlines()
        if not lines or lines[0].strip() != KEY_FILE_HEADER:
            raise IdentityFileError(f"not a netcards identity key (expected '{KEY_FILE_HEADER}')")
        if len(lines) != 2:
            raise IdentityFileError("an identity key file has exactly two lines")
        try:
            seed = base64.b64decode(lines[1].strip(), validate=True)
        except (binascii.Error, ValueError):
            raise IdentityFileError("the identity key is not valid base64") from None
        if len(seed) != 32:
            raise IdentityFileError(f"the identity key is {len(seed)} bytes, not 32")
        return cls(seed)

    def __repr__(self) -> str:
        return f"IdentityKey({self.fingerprint})"
