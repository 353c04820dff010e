"""The group of docs/sealed.md section 1, written from the page alone: the points of secp256k1
through `coincurve`, elements as their 33-byte compressed encoding, the identity as None (its
hash is 33 zero bytes), `hash_to_group` by try-and-increment, and SHA-256 as a scalar."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable

from coincurve import PublicKey

P = 2**256 - 2**32 - 977
N = int("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", 16)
IDENTITY = bytes(33)

Point = PublicKey | None


def u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def b32(k: int) -> bytes:
    return (k % N).to_bytes(32, "big")


def sha(*parts: bytes) -> bytes:
    return hashlib.sha256(b"".join(parts)).digest()


def as_scalar(digest: bytes) -> int:
    """'SHA-256 as a scalar' (section 3.1): 1 + the digest mod (n - 1)."""
    return 1 + int.from_bytes(digest, "big") % (N - 1)


@functools.lru_cache(maxsize=1 << 14)
def load(element: bytes) -> PublicKey:
    """A received element, refused (ValueError) unless it is 33 bytes, 02 or 03, then an x
    below p for which x³ + 7 is a square mod p."""
    if len(element) != 33 or element[0] not in (2, 3):
        raise ValueError("an element is 33 bytes, 02 or 03 then x")
    x = int.from_bytes(element[1:], "big")
    rhs = (x**3 + 7) % P
    if x >= P or rhs == 0 or pow(rhs, (P - 1) // 2, P) != 1:
        raise ValueError("no point of secp256k1 has this x")
    return PublicKey(element)


def enc(point: Point) -> bytes:
    return IDENTITY if point is None else point.format()


def base(k: int) -> Point:
    """k·G."""
    k %= N
    return None if k == 0 else PublicKey.from_valid_secret(b32(k))


def times(point: Point, k: int) -> Point:
    k %= N
    return None if point is None or k == 0 else point.multiply(b32(k))


def add(points: Iterable[Point]) -> Point:
    present = [p for p in points if p is not None]
    if not present:
        return None
    if len(present) == 1:
        return present[0]
    try:
        return PublicKey.combine_keys(present)
    except ValueError:  # the sum is the identity
        return None


def neg(point: Point) -> Point:
    return times(point, N - 1)


def mul(element: bytes, k: int) -> bytes:
    """mul(X, k) of section 1, on encodings."""
    return enc(times(load(element), k))


def commit(y: int) -> bytes:
    return enc(base(y))


def inverse(k: int) -> int:
    return pow(k, -1, N)


@functools.cache
def hash_to_group(label: bytes) -> bytes:
    counter = 0
    while True:
        h = sha(b"netcards sealed hash-to-group v5", u32(len(label)), label, u32(counter))
        x = int.from_bytes(h, "big") % P
        rhs = (x**3 + 7) % P
        if rhs and pow(rhs, (P - 1) // 2, P) == 1:
            return b"\x02" + x.to_bytes(32, "big")
        counter += 1


@functools.cache
def generator(i: int) -> PublicKey:
    """H_i of section 3.1."""
    return load(hash_to_group(b"netcards sealed generator v5" + u32(i)))
