"""The deterministic random source kept inside every game state.

A keyed BLAKE2b in counter mode: the whole generator is (key, counter), so it serializes in two
fields, replays identically on every platform and Python version, and seeing shuffled cards
reveals nothing about the key, so a player cannot work out the rest of the deck from their hand.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import MutableSequence
from typing import Any, TypeVar

T = TypeVar("T")

_SEED_PERSON = b"netcards-seed"


def make_seed(material: int | str | bytes) -> bytes:
    """Turn any seed material (a number typed on the command line, combined seed parts) into a key."""
    if isinstance(material, bool):
        raise TypeError("a seed cannot be a bool")
    if isinstance(material, int):
        data = b"i" + str(material).encode()
    elif isinstance(material, str):
        data = b"s" + material.encode()
    else:
        data = b"b" + bytes(material)
    return hashlib.blake2b(data, digest_size=32, person=_SEED_PERSON).digest()


_BLOCK = struct.Struct(">Q").pack
_PACKED = 1024
_BLOCKS = tuple(_BLOCK(counter) for counter in range(_PACKED))
"""The first counters' blocks, packed once: a game's deal and shuffles draw a few hundred."""
_SPAN = 1 << 64


_SMALL = 512  # bounds below this (every deck's sizes) have their limit worked out once


def _limit(n: int) -> int:
    """The largest multiple of `n` that fits in 64 bits: blocks at or above it are redrawn."""
    return _LIMITS[n] if n < _SMALL else _SPAN - (_SPAN % n)


_LIMITS = (0, *(_SPAN - (_SPAN % n) for n in range(1, _SMALL)))


class Rng:
    """Keyed counter-mode generator; every draw consumes whole 64-bit blocks.

    Block `i` is BLAKE2b(key, 8-byte big-endian i) cut to 8 bytes. The key's own compression is
    done once per generator (`_keyed`, copied for each block), and shuffles and samples draw
    their blocks in one loop: the same blocks, in the same order, as one call per draw.
    """

    __slots__ = ("_keyed", "counter", "key")

    def __init__(self, key: bytes, counter: int = 0, *, _keyed: Any = None) -> None:
        if len(key) != 32:
            raise ValueError("an Rng key is 32 bytes; use make_seed()")
        self.key = key
        self.counter = counter
        self._keyed = _keyed or hashlib.blake2b(key=key, digest_size=8)

    def _block(self) -> int:
        hasher = self._keyed.copy()
        hasher.update(_BLOCK(self.counter))
        self.counter += 1
        return int.from_bytes(hasher.digest(), "big")

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _limit(n)
        while True:
            x = self._block()
            if x < limit:
                return x % n

    def _indices(self, bounds: range) -> list[int]:
        """`below(n)` for each n of `bounds`, in order, in one loop."""
        copy = self._keyed.copy
        from_bytes = int.from_bytes
        counter = self.counter
        out: list[int] = []
        append = out.append
        limits = _LIMITS
        blocks = _BLOCKS
        for n in bounds:
            hasher = copy()
            hasher.update(blocks[counter] if counter < _PACKED else _BLOCK(counter))
            counter += 1
            x = from_bytes(hasher.digest(), "big")
            if x >= (limits[n] if n < _SMALL else _limit(n)):  # for a deck: next to never
                self.counter = counter
                x = self._redraw(n)
                counter = self.counter
            append(x % n)
        self.counter = counter
        return out

    def _redraw(self, n: int) -> int:
        """A block below `n`'s limit (the next ones, as `below` would draw them)."""
        limit = _limit(n)
        while True:
            x = self._block()
            if x < limit:
                return x

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Fisher-Yates in place."""
        size = len(items)
        if size < 2:
            return
        for i, j in zip(range(size - 1, 0, -1), self._indices(range(size, 1, -1)), strict=True):
            items[i], items[j] = items[j], items[i]

    def choice(self, items: MutableSequence[T] | tuple[T, ...] | list[T]) -> T:
        return items[self.below(len(items))]

    def sample(self, items: list[T], k: int) -> list[T]:
        """k distinct elements, in draw order."""
        pool = list(items)
        size = len(pool)
        if k > size:
            raise ValueError(f"cannot draw {k} items from {size}")
        return [pool.pop(j) for j in self._indices(range(size, size - k, -1))]

    def fork(self, label: str) -> Rng:
        """An independent generator derived from this one (for a new stage, a bot, ...)."""
        key = hashlib.blake2b(
            label.encode() + self.counter.to_bytes(8, "big"), key=self.key, digest_size=32
        ).digest()
        return Rng(key)

    def copy(self) -> Rng:
        return Rng(self.key, self.counter, _keyed=self._keyed)

    def to_data(self) -> list[Any]:
        return [self.key.hex(), self.counter]

    @classmethod
    def from_data(cls, data: list[Any]) -> Rng:
        return cls(bytes.fromhex(data[0]), int(data[1]))
