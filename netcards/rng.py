"""The deterministic random source kept inside every game state.

A keyed BLAKE2b in counter mode: the whole generator is (key, counter), so it serializes in two
fields, replays identically on every platform and Python version, and seeing shuffled cards
reveals nothing about the key, so a player cannot work out the rest of the deck from their hand.
"""

from __future__ import annotations

import hashlib
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


class Rng:
    """Keyed counter-mode generator; every draw consumes whole 64-bit blocks."""

    __slots__ = ("counter", "key")

    def __init__(self, key: bytes, counter: int = 0) -> None:
        if len(key) != 32:
            raise ValueError("an Rng key is 32 bytes; use make_seed()")
        self.key = key
        self.counter = counter

    def _block(self) -> int:
        digest = hashlib.blake2b(
            self.counter.to_bytes(8, "big"), key=self.key, digest_size=8
        ).digest()
        self.counter += 1
        return int.from_bytes(digest, "big")

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self._block()
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: MutableSequence[T] | tuple[T, ...] | list[T]) -> T:
        return items[self.below(len(items))]

    def sample(self, items: list[T], k: int) -> list[T]:
        """k distinct elements, in draw order."""
        pool = list(items)
        out: list[T] = []
        for _ in range(k):
            out.append(pool.pop(self.below(len(pool))))
        return out

    def fork(self, label: str) -> Rng:
        """An independent generator derived from this one (for a new stage, a bot, ...)."""
        key = hashlib.blake2b(
            label.encode() + self.counter.to_bytes(8, "big"), key=self.key, digest_size=32
        ).digest()
        return Rng(key)

    def copy(self) -> Rng:
        return Rng(self.key, self.counter)

    def to_data(self) -> list[Any]:
        return [self.key.hex(), self.counter]

    @classmethod
    def from_data(cls, data: list[Any]) -> Rng:
        return cls(bytes.fromhex(data[0]), int(data[1]))
