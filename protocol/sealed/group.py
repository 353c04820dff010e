"""The group the sealed deck computes in: the points of secp256k1, through `coincurve`.

Mental poker needs encryption that commutes: a card masked by Ann then Bob must unmask in any
order. Scalar multiplication in a prime-order group does (a·(b·C) = b·(a·C)), and a group whose
discrete logarithm is hard keeps the masks secret. Every step of a sealing round is also proved
correct when it is made (`protocol.sealed.shuffle_proof`, `protocol.sealed.rekey_proof`), and
those proofs add points: a permutation commitment is a sum, a proof's check is a linear
combination of points. So the group must offer addition, not only Diffie-Hellman.

Why secp256k1 through `coincurve`: the README's two commands must work on a fresh machine from
PyPI wheels alone, and `coincurve`'s wheels carry libsecp256k1 itself. `cryptography` (already a
dependency, for the links) offers P-256 only as ECDH, which returns an x-coordinate and has no
addition; PyNaCl's ed25519 core functions add, but the curve has cofactor 8 (every received
point would need a subgroup check) and they cost three times more. Measured on this project's
two-core machine (`python -m bench.sealed` prints the figures of the machine it runs on): a
multiplication by a scalar 0.022 ms, of the generator 0.014 ms, an addition 0.003 ms, against
0.068 and 0.014 ms for PyNaCl's and 0.046 ms for an exchange on P-256. secp256k1 has prime
order n and cofactor 1: every point of the curve but the identity is an element.

An **element** is a point in its 33-byte compressed encoding (0x02 or 0x03 for the parity of
y, then x, big-endian). The identity has no encoding and is never an element; a computation
that lands on it (which an honest party meets with probability about 2^-256) is `None` here,
and hashes as 33 zero bytes (`encode`), so that a proof that leads there simply fails.

Card elements come from `hash_to_group` (try-and-increment), so that nobody, their author
included, knows the discrete logarithm of one card element with respect to another or to the
generator: with such a logarithm a seat could recognise a masked card.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar, cast

from coincurve import PublicKey

ELEMENT_BYTES = 33
SCALAR_BYTES = 32

P = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFC2F
"""The field prime of secp256k1 (y² = x³ + 7)."""
N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
"""The order of the group (prime; the cofactor is 1)."""
G = bytes.fromhex("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")
"""The generator, compressed."""
IDENTITY = bytes(ELEMENT_BYTES)
"""How the identity is hashed (it is never sent)."""

HASH_LABEL = b"netcards sealed hash-to-group v5"
REMEMBERED = 1 << 13
"""How many results of each group operation a process keeps (`_remembered`)."""

RandomBytes = Callable[[int], bytes]
"""Where secrets come from (`os.urandom` at a table, a fixed stream in tests)."""

Point = PublicKey
"""A loaded element: what the proofs compute with."""


class BadElement(ValueError):
    """Bytes received as a group element that are not a compressed point of secp256k1."""


class BadScalar(ValueError):
    """A scalar outside [1, n-1]."""


def check_scalar(k: int) -> int:
    if not 1 <= k < N:
        raise BadScalar("a scalar must lie in [1, n-1]")
    return k


Operation = TypeVar("Operation", bound=Callable[..., Any])


def _remembered(fn: Operation) -> Operation:
    """The operation, keeping its last `REMEMBERED` results. One process often computes the
    same operation on the same inputs twice: at the host the relay checks a step, then each of
    its bots' seats checks the same step again; a seat checks its own reveal against the
    commitment it computed at the re-key. Each operation is a pure function of its inputs, so a
    remembered result is the result; a failure (`BadElement`, `BadScalar`) is never kept."""
    cached = functools.lru_cache(maxsize=REMEMBERED)(fn)
    _caches.append(cached)
    return cast(Operation, cached)


_caches: list[Any] = []


def forget_remembered() -> None:
    """Empty every operation's remembered results (a benchmark measures the work itself)."""
    for cached in _caches:
        cached.cache_clear()


@_remembered
def inverse(k: int) -> int:
    """k⁻¹ mod n: the scalar that undoes k."""
    return pow(check_scalar(k), -1, N)


def product(scalars: Iterable[int]) -> int:
    out = 1
    for k in scalars:
        out = out * check_scalar(k) % N
    return out


def _bytes32(k: int) -> bytes:
    return k.to_bytes(SCALAR_BYTES, "big")


def load(x: bytes) -> Point:
    """The point encoded by `x`, refusing anything else as `BadElement`."""
    if not isinstance(x, bytes) or len(x) != ELEMENT_BYTES or x[0] not in (2, 3):
        raise BadElement("a group element is 33 bytes: 02 or 03, then x")
    return _load(x)


@_remembered
def _load(x: bytes) -> Point:
    try:
        return PublicKey(x)
    except ValueError:
        raise BadElement("not a point of secp256k1") from None


def check_element(x: bytes) -> bytes:
    load(x)
    return x


def encode(point: Point | None) -> bytes:
    """A point's 33 bytes; the identity's are 33 zero bytes (hashed, never sent)."""
    return IDENTITY if point is None else point.format()


# -- arithmetic on loaded points (the proofs') -----------------------------------------------


def times(point: Point | None, k: int) -> Point | None:
    """k·point, any integer k (taken mod n); the identity for k = 0 mod n."""
    k %= N
    if point is None or k == 0:
        return None
    return point.multiply(_bytes32(k))


def base_times(k: int) -> Point | None:
    """k·G, any integer k (taken mod n)."""
    k %= N
    return None if k == 0 else PublicKey.from_valid_secret(_bytes32(k))


def total(points: Iterable[Point | None]) -> Point | None:
    """The sum of `points` (the identity left out); None if it is the identity."""
    present = [p for p in points if p is not None]
    if not present:
        return None
    if len(present) == 1:
        return present[0]
    try:
        return PublicKey.combine_keys(present)
    except ValueError:  # the sum is the identity
        return None


def negate(point: Point | None) -> Point | None:
    """-point: the same x, the other y (the other parity byte)."""
    if point is None:
        return None
    raw = point.format()
    return PublicKey(bytes([raw[0] ^ 1]) + raw[1:])


def combination(terms: Iterable[tuple[int, Point | None]], base: int = 0) -> Point | None:
    """base·G + Σ k·P over `terms`."""
    return total([base_times(base), *(times(p, k) for k, p in terms)])


# -- elements as bytes (the deck's) ------------------------------------------------------------


@_remembered
def mul(x: bytes, k: int) -> bytes:
    """k·X for the element X encoded by `x`."""
    return load(x).multiply(_bytes32(check_scalar(k))).format()


def mul_many(xs: Sequence[bytes], k: int) -> list[bytes]:
    """Every element times the same scalar."""
    raw = _bytes32(check_scalar(k))
    return [load(x).multiply(raw).format() for x in xs]


def mul_each(xs: Sequence[bytes], ks: Sequence[int]) -> list[bytes]:
    """Each element times its own scalar."""
    if len(xs) != len(ks):
        raise ValueError("one scalar per element")
    return [mul(x, k) for x, k in zip(xs, ks, strict=True)]


@_remembered
def commit(y: int) -> bytes:
    """y·G, a binding commitment to y."""
    return PublicKey.from_valid_secret(_bytes32(check_scalar(y))).format()


def commit_many(ys: Sequence[int]) -> list[bytes]:
    return [commit(y) for y in ys]


def is_x_coordinate(x: int) -> bool:
    """Whether x³ + 7 is a nonzero square mod p (Euler's criterion)."""
    if not 0 <= x < P:
        return False
    rhs = (x * x * x + 7) % P
    return rhs != 0 and pow(rhs, (P - 1) // 2, P) == 1


@functools.lru_cache(maxsize=4096)
def hash_to_group(label: bytes) -> bytes:
    """An element nobody knows the discrete logarithm of: for counter = 0, 1, ..., x =
    SHA-256(HASH_LABEL || len(label) as 4 bytes || label || counter as 4 bytes), big-endian,
    reduced mod p, until x³ + 7 is a square (about every other try); the element is the point
    with that x and even y (02 || x)."""
    prefix = HASH_LABEL + len(label).to_bytes(4, "big") + label
    for counter in range(256):
        digest = hashlib.sha256(prefix + counter.to_bytes(4, "big")).digest()
        x = int.from_bytes(digest, "big") % P
        candidate = b"\x02" + x.to_bytes(32, "big")
        try:  # libsecp256k1 decompresses it if x³ + 7 is a square: `is_x_coordinate`, faster
            PublicKey(candidate)
        except ValueError:
            continue
        return candidate
    raise AssertionError("256 failed tries: SHA-256 is broken")  # probability 2^-256


def scalar_from(random_bytes: RandomBytes) -> int:
    """A uniform scalar in [1, n-1] by rejection from 32-byte draws of `random_bytes`."""
    while True:
        k = int.from_bytes(random_bytes(SCALAR_BYTES), "big")
        if 1 <= k < N:
            return k
