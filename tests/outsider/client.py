"""A minimal netcards client written from docs/protocol.md alone, as an outsider would.

It uses `cryptography` and `msgpack` directly and nothing of ours: frames (section 1), plain
msgpack maps (section 2), the handshake (section 3), encrypted frames (section 4), the
fingerprint (section 5) and the messages of section 6, over a blocking socket.
"""

from __future__ import annotations

import base64
import hashlib
import os
import socket
import struct
import time
import unicodedata
from typing import Any

import msgpack
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

VERSION = 5
TRANSCRIPT_LABEL = b"netcards transcript v1"
SIGNATURE_LABEL = b"netcards host auth v1"
KEYS_INFO = b"netcards session keys v1"
MAX_BODY = 65536


class Refused(Exception):
    """The host sent an `error`; `message` is it."""

    def __init__(self, message: dict[str, Any]) -> None:
        super().__init__(f"{message['code']}: {message['text']}")
        self.message = message


def fingerprint(identity: bytes) -> str:
    """Section 5: SHA-256, base32 without padding, 20 characters, groups of four."""
    text = base64.b32encode(hashlib.sha256(identity).digest()).decode().rstrip("=")[:20]
    return "-".join(text[i : i + 4] for i in range(0, 20, 4))


def raw_public(key: X25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def pack_wide(value: Any) -> bytes:
    """msgpack as nobody would choose to write it, and as section 2 allows: every integer in
    8 bytes, every string, binary, array and map with a 4-byte length, map keys in reverse."""
    if value is None or isinstance(value, bool):
        return {None: b"\xc0", False: b"\xc2", True: b"\xc3"}[value]
    if isinstance(value, int):
        if value >= 2**63:
            return b"\xcf" + value.to_bytes(8, "big")
        return b"\xd3" + value.to_bytes(8, "big", signed=True)
    if isinstance(value, float):
        return b"\xcb" + struct.pack(">d", value)
    if isinstance(value, str | bytes):
        data = value.encode() if isinstance(value, str) else value
        return (
            (b"\xdb" if isinstance(value, str) else b"\xc6") + len(data).to_bytes(4, "big") + data
        )
    if isinstance(value, list | tuple):
        return b"\xdd" + len(value).to_bytes(4, "big") + b"".join(map(pack_wide, value))
    if isinstance(value, dict):
        pairs = reversed(list(value.items()))
        body = b"".join(pack_wide(k) + pack_wide(v) for k, v in pairs)
        return b"\xdf" + len(value).to_bytes(4, "big") + body
    raise TypeError(f"not plain data: {value!r}")


def nonce(counter: int) -> bytes:
    return b"\x00\x00\x00\x00" + counter.to_bytes(8, "big")


class OutsideClient:
    """One connection to a table: `handshake()`, then `send()` and `receive()` messages."""

    def __init__(
        self, port: int, host: str = "127.0.0.1", password: str | None = None, wide: bool = False
    ) -> None:
        self.sock = socket.create_connection((host, port), timeout=30)
        self.password = password
        self.wide = wide
        """Send every payload in the widest encoding msgpack has (section 2: any is valid)."""
        self.buffer = b""
        self.identity = b""
        self.session_id = b""
        self._send_key: ChaCha20Poly1305 | None = None
        self._receive_key: ChaCha20Poly1305 | None = None
        self._sent = 0
        self._received = 0

    # -- frames and payloads (sections 1 and 2) -----------------------------------------------

    def _write_frame(self, body: bytes) -> bytes:
        frame = len(body).to_bytes(4, "big") + body
        self.sock.sendall(frame)
        return frame

    def _read_exactly(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the host closed the connection")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def _read_frame(self) -> tuple[bytes, bytes]:
        prefix = self._read_exactly(4)
        length = int.from_bytes(prefix, "big")
        if not 1 <= length <= MAX_BODY:
            raise ConnectionError(f"a frame of {length} bytes")
        return prefix, self._read_exactly(length)

    def _pack(self, message: dict[str, Any]) -> bytes:
        if self.wide:
            return pack_wide(message)
        return msgpack.packb(message, use_bin_type=True)  # type: ignore[no-any-return]

    @staticmethod
    def _unpack(body: bytes) -> dict[str, Any]:
        data = msgpack.unpackb(body, raw=False)
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise ConnectionError("a payload that is not a message")
        return data

    # -- the handshake (section 3) --------------------------------------------------------------

    def handshake(self) -> None:
        transcript = hashlib.sha256(TRANSCRIPT_LABEL)
        ephemeral = X25519PrivateKey.from_private_bytes(os.urandom(32))
        hello = {"type": "client_hello", "version": VERSION, "key_share": raw_public(ephemeral)}
        transcript.update(self._write_frame(self._pack(hello)))
        prefix, body = self._read_frame()
        host_hello = self._unpack(body)
        if host_hello["type"] == "error":
            raise Refused(host_hello)
        assert host_hello["type"] == "host_hello" and host_hello["version"] == VERSION
        transcript.update(prefix + body)
        prefix, body = self._read_frame()
        auth = self._unpack(body)
        Ed25519PublicKey.from_public_bytes(host_hello["identity"]).verify(
            auth["signature"], SIGNATURE_LABEL + transcript.digest()
        )
        transcript.update(prefix + body)
        th3 = transcript.digest()
        shared = ephemeral.exchange(X25519PublicKey.from_public_bytes(host_hello["key_share"]))
        assert shared != bytes(32), "a low-order key share"
        password_key = b""
        if host_hello["password_salt"] is not None:
            assert self.password is not None, "the table has a password"
            password_key = hashlib.scrypt(
                unicodedata.normalize("NFC", self.password).encode(),
                salt=host_hello["password_salt"],
                n=32768,
                r=8,
                p=1,
                maxmem=64 * 1024 * 1024,
                dklen=32,
            )
        okm = HKDF(hashes.SHA256(), 64, th3, KEYS_INFO).derive(shared + password_key)
        self._send_key = ChaCha20Poly1305(okm[:32])
        self._receive_key = ChaCha20Poly1305(okm[32:])
        self.identity = host_hello["identity"]
        self.session_id = th3
        self.send("confirm")
        confirm = self.receive()
        assert confirm["type"] == "confirm", confirm

    # -- encrypted messages (sections 4 and 6) ----------------------------------------------------

    def send(self, kind: str, **fields: Any) -> None:
        self.send_payload(self._pack({"type": kind, **fields}))

    def send_payload(self, payload: bytes) -> bytes:
        """Seal any bytes as the next frame's plaintext, even bytes that are no message; returns
        the frame sent."""
        assert self._send_key is not None
        prefix = (len(payload) + 16).to_bytes(4, "big")
        body = self._send_key.encrypt(nonce(self._sent), payload, prefix)
        self._sent += 1
        self.sock.sendall(prefix + body)
        return prefix + body

    def receive(self, timeout: float = 30) -> dict[str, Any]:
        """The next message from the host; pings are answered here and not returned."""
        assert self._receive_key is not None
        deadline = time.monotonic() + timeout
        while True:
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            prefix, body = self._read_frame()
            try:
                message = self._unpack(
                    self._receive_key.decrypt(nonce(self._received), body, prefix)
                )
            except Exception:
                if self._received == 0:  # a plaintext refusal instead of the host's confirm
                    raise Refused(self._unpack(body)) from None
                raise
            self._received += 1
            if message["type"] == "ping":
                self.send("pong", nonce=message["nonce"])
                continue
            return message

    def close(self) -> None:
        self.sock.close()
