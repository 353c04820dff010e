"""The group the sealed deck computes in: the x-coordinates of P-256, through `cryptography`.

Mental poker needs encryption that commutes: a card masked by Ann then Bob must unmask in any
order. Scalar multiplication in a prime-order group does (a·(b·C) = b·(a·C)), and a group whose
discrete logarithm is hard keeps the masks secret. We use NIST P-256 (prime order n, cofactor
1) and only the x-coordinate of a point: an element is the 32-byte big-endian x of a point, and
`mul(x, k)` is x(k·P) for either point P with that x. Because x(k·(-P)) = x(-(k·P)) = x(k·P),
the result does not depend on which of the two points we take, so x-only multiplication is
well defined and commutative, and it is exactly what ECDH computes: load the point from its
compressed encoding (0x02 || x), exchange with the private key k, get x(k·P).

Why P-256 through `cryptography` and not ristretto255 through libsodium, the textbook choice:
the README's two commands must work on a fresh machine from PyPI wheels alone. `cryptography`
is already a dependency (the link encryption), ships OpenSSL inside its wheels and exposes
P-256 ECDH, which is all we need; ristretto255 would mean PyNaCl built against a system
libsodium or an extra pure-Python curve. The price is small. Measured here (`cryptography` 51,
a shared two-core machine): deriving a private key from a scalar 0.025 ms, decoding a point
0.018 ms, one exchange 0.052 ms, so one `mul` 0.10 ms and a batch of one scalar over many
elements about 0.07 ms an element; a whole sealed deal of Auf Achse at 5 seats (109 cards
masked and shuffled, then re-keyed, by each seat, and 10 cards opened to each seat, every step
signed and checked) takes about 0.2 s of one core, and its audit about 0.1 s
(`python -m bench.sealed` prints the figures of the machine it runs on).

The x-only subtlety: k and n-k act identically on x-coordinates (x((n-k)·P) = x(-(k·P))).
It does not matter here because every party only ever uses a scalar through its action on
elements: a seat that publishes n-k where it used k has published a scalar that removes and
checks exactly like k (the commitment x(k·G) is the same too), so it gains nothing and hides
nothing; an inverse taken mod n inverts either sign. Nothing in the protocol compares scalars
themselves, only what they do to elements.

Card elements come from `hash_to_group` (try-and-increment), so that nobody, their author
included, knows the discrete logarithm of one card element with respect to another or to the
generator: with such a logarithm a seat could recognise a masked card.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar, cast

from cryptography.hazmat.primitives.asymmetric import ec

ELEMENT_BYTES = 32
SCALAR_BYTES = 32

P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
"""The field prime of P-256."""
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
"""The curve's constant: y² = x³ - 3x + b."""
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
"""The order of the group (prime; the cofactor is 1)."""

HASH_LABEL = b"netcards sealed hash-to-group v1"
REMEMBERED = 1 << 13
"""How many results of each group operation a process keeps (`_remembered`)."""
_CURVE = ec.SECP256R1()

RandomBytes = Callable[[int], bytes]
"""Where secrets come from (`os.urandom` at a table, a fixed stream in tests)."""


class BadElement(ValueError):
    """Bytes received as a group element that are not the x-coordinate of a point of P-256."""


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
    """k⁻¹ mod n: the scalar that undoes k (and n-k)."""
    return pow(check_scalar(k), -1, N)


def product(scalars: Iterable[int]) -> int:
    out = 1
    for k in scalars:
        out = out * check_scalar(k) % N
    return out


def load(x: bytes) -> ec.EllipticCurvePublicKey:
    """The point (either one) with x-coordinate `x`, refusing anything else as `BadElement`."""
    if not isinstance(x, bytes) or len(x) != ELEMENT_BYTES:
        raise BadElement("a group element is 32 bytes")
    return _load(x)


@_remembered
def _load(x: bytes) -> ec.EllipticCurvePublicKey:
    try:
        return ec.EllipticCurvePublicKey.from_encoded_point(_CURVE, b"\x02" + x)
    except ValueError:
        raise BadElement("not the x-coordinate of a point of P-256") from None


def check_element(x: bytes) -> bytes:
    load(x)
    return x


def _private(k: int) -> ec.EllipticCurvePrivateKey:
    return ec.derive_private_key(check_scalar(k), _CURVE)


@_remembered
def mul(x: bytes, k: int) -> bytes:
    """x(k·P) for the point P with x-coordinate `x`."""
    return _private(k).exchange(ec.ECDH(), load(x))


def mul_many(xs: Sequence[bytes], k: int) -> list[bytes]:
    """Every element times the same scalar: the private key is derived once."""
    key = _private(k)
    return [key.exchange(ec.ECDH(), load(x)) for x in xs]


def mul_each(xs: Sequence[bytes], ks: Sequence[int]) -> list[bytes]:
    """Each element times its own scalar."""
    if len(xs) != len(ks):
        raise ValueError("one scalar per element")
    return [mul(x, k) for x, k in zip(xs, ks, strict=True)]


@_remembered
def commit(y: int) -> bytes:
    """x(y·G): the public key's x-coordinate, a binding commitment to y's action."""
    point = _private(y).public_key().public_numbers()
    return point.x.to_bytes(ELEMENT_BYTES, "big")


def commit_many(ys: Sequence[int]) -> list[bytes]:
    return [commit(y) for y in ys]


def is_x_coordinate(x: int) -> bool:
    """Whether x³ - 3x + b is a nonzero square mod p (Euler's criterion)."""
    if not 0 <= x < P:
        return False
    rhs = (x * x * x - 3 * x + B) % P
    return rhs != 0 and pow(rhs, (P - 1) // 2, P) == 1


def hash_to_group(label: bytes) -> bytes:
    """An element nobody knows the discrete logarithm of: SHA-256(HASH_LABEL || len(label) as
    4 bytes || label || counter as 4 bytes), big-endian, reduced mod p, for counter = 0, 1, ...
    until the result is an x-coordinate (about every other try)."""
    prefix = HASH_LABEL + len(label).to_bytes(4, "big") + label
    for counter in range(256):
        digest = hashlib.sha256(prefix + counter.to_bytes(4, "big")).digest()
        x = int.from_bytes(digest, "big") % P
        if is_x_coordinate(x):
            return x.to_bytes(ELEMENT_BYTES, "big")
    raise AssertionError("256 failed tries: SHA-256 is broken")  # probability 2^-256


def scalar_from(random_bytes: RandomBytes) -> int:
    """A uniform scalar in [1, n-1] by rejection from 32-byte draws of `random_bytes`."""
    while True:
        k = int.from_bytes(random_bytes(SCALAR_BYTES), "big")
        if 1 <= k < N:
            return k
