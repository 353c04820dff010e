"""A seat's randomness for one sealed game, from one 32-byte seed (docs/sealed.md, section 8).

Whoever keeps the seed keeps the secrets: the signing key, every round's mask, permutation and
re-key scalars, and whatever else the seat draws for that game are the same bytes each time
the seed is read from the start. A seat that drops and comes back rebuilds itself from the seed
and the messages the host sent it, and the steps it signs again are byte-identical to those it
signed before (Ed25519 signs deterministically), so the host can tell a repeat from a change.

The stream: block i is SHA-256(label || seed || i as 8 bytes big-endian), the stream is block
0, block 1, ... and each draw takes its next bytes. The draws of a seat happen in answer to the
host's messages, in their order, so replaying the messages makes the same draws. A draw made at
another moment (say, when the player chooses) takes a stream of its own (`fork`), so that it
does not shift the others.
"""

from __future__ import annotations

import hashlib

LABEL = b"netcards sealed seat rng v5"
SEED_BYTES = 32


class SeedStream:
    """Deterministic bytes from a seed; called like `os.urandom`."""

    def __init__(self, seed: bytes, label: bytes = LABEL) -> None:
        if len(seed) != SEED_BYTES:
            raise ValueError(f"a seat's seed is {SEED_BYTES} bytes")
        self._prefix = label + seed
        self._seed = seed
        self._label = label
        self._counter = 0
        self._buffer = b""

    def __call__(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = self._prefix + self._counter.to_bytes(8, "big")
            self._buffer += hashlib.sha256(block).digest()
            self._counter += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def fork(self, purpose: str) -> SeedStream:
        """A stream of its own for draws made apart from the host's messages: the label is
        this one's, a space and `purpose`."""
        return SeedStream(self._seed, self._label + b" " + purpose.encode())
