"""Sealed tables from docs/sealed.md alone (no code of ours): the canonical encoding and signed
steps (section 5), card elements (2), a sealing round as every party keeps it and its audit
(3, 4), the transcript (5) and the game layer's hashes (section 7 and the game pages: the public
seed, a choice's commitment, a draw, a private transfer, `steal_positions`)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgpack
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from tests.outsider.curve import N, b32, commit, hash_to_group, inverse, load, mul, sha, u32
from tests.outsider.deal import Generator
from tests.outsider.proofs import (
    Statement,
    check_rekey,
    check_shuffle,
    list_digest,
    prove_rekey,
    prove_shuffle,
)

SLOT_BASE = 65536


def canonical(value: Any) -> bytes:
    """Section 5: msgpack, str and bin apart, shortest integers, map keys sorted."""

    def normal(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: normal(v[k]) for k in sorted(v)}
        if isinstance(v, list | tuple):
            return [normal(x) for x in v]
        return v

    return msgpack.packb(normal(value), use_bin_type=True)  # type: ignore[no-any-return]


def signed_bytes(table: bytes, round_no: int, kind: str, seat: int, body: Any) -> bytes:
    domain = "netcards sealed step v5"
    step = {"domain": domain, "table": table, "round": round_no, "kind": kind, "seat": seat}
    return canonical({**step, "body": body})


def verify(key: bytes, signature: bytes, data: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(signature, data)
    except Exception:
        return False
    return True


def card_element(game: bytes, card: int) -> bytes:
    return hash_to_group(canonical(["netcards sealed card v5", game, card]))


def scalar_of(data: bytes) -> int:
    return int.from_bytes(data, "big")


def random_scalar() -> int:
    while True:
        k = int.from_bytes(os.urandom(32), "big")
        if 1 <= k < N:
            return k


def random_permutation(n: int) -> list[int]:
    items = list(range(n))
    for i in range(n - 1, 0, -1):
        j = int.from_bytes(os.urandom(8), "big") % (i + 1)  # bias far below anything seen
        items[i], items[j] = items[j], items[i]
    return items


# -- the game layer's hashes (docs/sealed.md sections 6 and 7, the game pages) ---------------


def public_seed(commitment: bytes, parts: Mapping[int, bytes]) -> bytes:
    material = b"netcards sealed public seed v4" + commitment
    for seat in sorted(parts):
        material += bytes([seat]) + parts[seat]
    return sha(material)


def choice_commitment(step: int, seat: int, slots: Sequence[int], nonce: bytes) -> bytes:
    numbers = b"".join(x.to_bytes(8, "big", signed=True) for x in (step, seat, len(slots), *slots))
    return sha(b"netcards sealed choice v1\x00", numbers, nonce)


def draw_commitment(draw: int, seat: int, nonce: bytes) -> bytes:
    return sha(
        b"netcards sealed draw commitment v5",
        draw.to_bytes(8, "big"),
        seat.to_bytes(8, "big"),
        nonce,
    )


def draw_value(draw: int, nonces: Mapping[int, bytes]) -> bytes:
    return sha(
        b"netcards sealed draw v5", draw.to_bytes(8, "big"), *(nonces[s] for s in sorted(nonces))
    )


def pass_pad(shared: bytes, round_no: int, position: int) -> bytes:
    return sha(b"netcards sealed pass v5", shared, u32(round_no), u32(position))


def xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b, strict=True))


def steal_positions(value: bytes, size: int, count: int) -> list[int]:
    """docs/games/velonimo.md, `steal_positions`."""
    key = hashlib.blake2b(b"b" + value, digest_size=32, person=b"netcards-seed").digest()
    generator = Generator(key)
    pool = list(range(size))
    return [pool.pop(generator.below(len(pool))) for _ in range(count)]


# -- a seat's key and the transcript -----------------------------------------------------------


class Signer:
    def __init__(self) -> None:
        self.key = Ed25519PrivateKey.generate()
        self.public = self.key.public_key().public_bytes_raw()

    def sign(self, data: bytes) -> bytes:
        return self.key.sign(data)


class Chain:
    """Section 5: d_0, then d_k = SHA-256(d_(k-1) || len(s) || s)."""

    def __init__(self, table: bytes) -> None:
        self.digest = sha(b"netcards sealed transcript v5", table)

    def add(self, item: bytes) -> None:
        self.digest = sha(self.digest, u32(len(item)), item)


# -- a sealing round (section 3) ----------------------------------------------------------------


@dataclass
class Secrets:
    mask: int
    permutation: list[int]
    rekeys: list[int]

    @classmethod
    def draw(cls, n: int) -> Secrets:
        return cls(random_scalar(), random_permutation(n), [random_scalar() for _ in range(n)])


@dataclass
class Round:
    """One sealing round as a party keeps it from the relayed steps."""

    table: bytes
    number: int
    game: bytes
    seats: list[int]
    cards: list[int]
    first: int
    """Its first slot (docs/sealed.md section 7, "Slots, positions and the public seed")."""
    start: list[bytes] = field(default_factory=list)
    masked: list[list[bytes]] = field(default_factory=list)
    rekeyed: list[list[bytes]] = field(default_factory=list)
    keys: dict[int, bytes] = field(default_factory=dict)
    commitments: dict[int, list[bytes]] = field(default_factory=dict)
    scalars: dict[int, dict[int, int]] = field(default_factory=dict)
    """y_ij published so far: seat -> position -> scalar."""
    keepers: dict[int, int] = field(default_factory=dict)
    """Each opened position's first owner."""
    passed: dict[int, set[int]] = field(default_factory=dict)
    """Every seat a position was passed to."""
    cards_at: dict[int, int] = field(default_factory=dict)
    """The cards this party knows, by position."""

    def __post_init__(self) -> None:
        self.start = [card_element(self.game, c) for c in self.cards]
        assert len(set(self.start)) == len(self.start)

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def current(self) -> list[bytes]:
        return (self.rekeyed or self.masked or [self.start])[-1]

    @property
    def sealed(self) -> bool:
        return len(self.rekeyed) == len(self.seats)

    @property
    def turn(self) -> tuple[str, int] | None:
        if len(self.masked) < len(self.seats):
            return "mask", self.seats[len(self.masked)]
        if len(self.rekeyed) < len(self.seats):
            return "rekey", self.seats[len(self.rekeyed)]
        return None

    def statement(self, seat: int) -> Statement:
        return Statement(self.table, self.number, seat, list_digest(self.current))

    def mask_body(self, seat: int, s: Secrets) -> dict[str, Any]:
        given = self.current
        out = [mul(given[k], s.mask) for k in s.permutation]
        key = commit(s.mask)
        proof = prove_shuffle(
            self.statement(seat), given, out, key, s.mask, s.permutation, random_scalar
        )
        return {"input": list_digest(given), "elements": out, "key": key, "proof": proof}

    def rekey_body(self, seat: int, s: Secrets) -> dict[str, Any]:
        given = self.current
        undo = inverse(s.mask)
        out = [mul(x, y * undo % N) for x, y in zip(given, s.rekeys, strict=True)]
        commitments = [commit(y) for y in s.rekeys]
        proof = prove_rekey(
            self.statement(seat),
            given,
            out,
            commitments,
            self.keys[seat],
            s.mask,
            s.rekeys,
            random_scalar,
        )
        return {
            "input": list_digest(given),
            "elements": out,
            "commitments": commitments,
            "proof": proof,
        }

    def take(self, kind: str, seat: int, body: Mapping[str, Any]) -> None:
        """A relayed mask or re-key step, checked in full as section 3 says."""
        assert self.turn == (kind, seat), f"a {kind} step of seat {seat} out of turn"
        elements = list(body["elements"])
        assert len(elements) == self.size and len(set(elements)) == self.size
        for x in elements:
            load(x)
        assert body["input"] == list_digest(self.current), "made from another list"
        st = self.statement(seat)
        if kind == "mask":
            load(body["key"])
            assert check_shuffle(st, self.current, elements, body["key"], body["proof"])
            self.masked.append(elements)
            self.keys[seat] = body["key"]
        else:
            commitments = list(body["commitments"])
            for c in commitments:
                load(c)
            assert check_rekey(
                st, self.current, elements, commitments, self.keys[seat], body["proof"]
            )
            self.rekeyed.append(elements)
            self.commitments[seat] = commitments

    def publish(self, seat: int, position: int, y: int) -> None:
        """A scalar of `seat` published (checked against its commitment)."""
        assert commit(y) == self.commitments[seat][position], f"seat {seat}'s scalar fails"
        self.scalars.setdefault(seat, {})[position] = y

    def published(self, position: int, seats: Sequence[int]) -> bool:
        return all(position in self.scalars.get(s, {}) for s in seats)

    def unmask(self, position: int, own: Mapping[int, int] | None = None) -> int:
        """The card at `position` from every seat's scalar (`own`: scalars this party holds
        that are not published), looked up among the round's cards."""
        total = 1
        for seat in self.seats:
            y = (own or {}).get(seat, self.scalars.get(seat, {}).get(position))
            assert y is not None
            total = total * y % N
        element = mul(self.current[position], inverse(total))
        card = self.cards[self.start.index(element)]
        known = self.cards_at.setdefault(position, card)
        assert known == card and list(self.cards_at.values()).count(card) == 1
        return card

    def audit(self, secrets: Mapping[int, Secrets]) -> list[int]:
        """Section 4: every step replayed from its author's published secrets; every card."""
        given = self.start
        for seat, published in zip(self.seats, self.masked, strict=True):
            s = secrets[seat]
            assert sorted(s.permutation) == list(range(self.size)) and 1 <= s.mask < N
            assert self.keys[seat] == commit(s.mask), f"seat {seat}: wrong_key"
            assert [mul(given[k], s.mask) for k in s.permutation] == published, f"seat {seat}"
            given = published
        for seat, published in zip(self.seats, self.rekeyed, strict=True):
            s = secrets[seat]
            assert [commit(y) for y in s.rekeys] == self.commitments[seat], f"seat {seat}"
            undo = inverse(s.mask)
            again = [mul(x, y * undo % N) for x, y in zip(given, s.rekeys, strict=True)]
            assert again == published, f"seat {seat}: wrong_rekey"
            given = published
        for seat, ys in self.scalars.items():
            for p, y in ys.items():
                assert y == secrets[seat].rekeys[p], f"seat {seat}: wrong_scalar at {p}"
        out = []
        for p in range(self.size):
            total = 1
            for seat in self.seats:
                total = total * secrets[seat].rekeys[p] % N
            out.append(self.cards[self.start.index(mul(self.current[p], inverse(total)))])
        assert sorted(out) == sorted(self.cards)
        return out


def secrets_body(digest: bytes, kept: Sequence[Secrets]) -> dict[str, Any]:
    return {
        "digest": digest,
        "masks": [b32(s.mask) for s in kept],
        "permutations": [list(s.permutation) for s in kept],
        "rekeys": [[b32(y) for y in s.rekeys] for s in kept],
    }


def secrets_of(body: Mapping[str, Any]) -> list[Secrets]:
    return [
        Secrets(scalar_of(m), list(p), [scalar_of(y) for y in ys])
        for m, p, ys in zip(body["masks"], body["permutations"], body["rekeys"], strict=True)
    ]
