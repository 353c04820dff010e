"""The proof that goes with every re-key step: each position's new element is its old one with
the seat's mask swapped for that position's committed scalar.

A re-key multiplies X_j by y_j·a⁻¹ and publishes C_j = y_j·G; opening position j to a seat is
the other seats publishing their y_j, each checked against its C_j. Unproved, a seat could
re-key a position to anything (another position's element, an element it planted) and commit
to whatever it likes: the check at the opening would pass and the card would be another. So
the seat proves, for every position at once, that it knows a and y_j with

    A = a·G (its key, from its mask step), C_j = y_j·G and a·X'_j = y_j·X_j,

which is Chaum and Pedersen's proof of equal discrete logarithms ("Wallet databases with
observers", CRYPTO '92) with one shared witness a and one y_j per position, under one
challenge (Fiat-Shamir, `protocol.sealed.challenge`). Its cost is three multiplications per
position to make and four to check, and its size one scalar per position.

1. The prover draws phi and rho_0..rho_(N-1) and computes T_a = phi·G, T_j = rho_j·G and
   U_j = phi·X'_j - rho_j·X_j.
2. v = 1 + (SHA-256(S || T_a || T_0..T_(N-1) || U_0..U_(N-1)) mod (n-1)), S the hash of the
   statement (`_head`).
3. s_a = phi + v·a and s_j = rho_j + v·y_j, mod n. The proof is (v, s_a, s_0..s_(N-1)).

The verifier recomputes T_a = s_a·G - v·A, T_j = s_j·G - v·C_j and U_j = s_a·X'_j - s_j·X_j,
and accepts if the hash gives v back. It is special-sound (two answers to one commitment give
a and every y_j, so a·X'_j = y_j·X_j holds) and zero-knowledge (each response is masked by a
uniform nonce).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from protocol.sealed.challenge import sha256, statement, to_scalar, u32
from protocol.sealed.checked import Checked
from protocol.sealed.group import (
    SCALAR_BYTES,
    BadElement,
    N,
    Point,
    RandomBytes,
    base_times,
    encode,
    load,
    scalar_from,
    times,
    total,
)
from protocol.sealed.shuffle_proof import BadProof, Context

LABEL = b"netcards sealed rekey proof v5"


@dataclass(frozen=True)
class RekeyProof:
    v: int
    s_a: int
    s: tuple[int, ...]

    def to_body(self) -> dict[str, Any]:
        def b(k: int) -> bytes:
            return k.to_bytes(SCALAR_BYTES, "big")

        return {"v": b(self.v), "s_a": b(self.s_a), "s": [b(k) for k in self.s]}

    @classmethod
    def of_body(cls, body: Mapping[str, Any]) -> RekeyProof:
        def n(raw: bytes) -> int:
            return int.from_bytes(raw, "big")

        return cls(n(body["v"]), n(body["s_a"]), tuple(n(k) for k in body["s"]))


def _head(
    ctx: Context, outputs: Sequence[bytes], commitments: Sequence[bytes], key: bytes
) -> bytes:
    """S = SHA-256(LABEL || table length || table || round || seat || input digest || N ||
    X'_0..X'_(N-1) || C_0..C_(N-1) || A), every integer as 4 bytes big-endian."""
    return sha256(
        statement(LABEL, ctx.table, ctx.round, ctx.seat),
        ctx.input,
        u32(len(outputs)),
        *outputs,
        *commitments,
        key,
    )


def _challenge(
    head: bytes, t_a: Point | None, ts: Sequence[Point | None], us: Sequence[Point | None]
) -> int:
    return to_scalar(sha256(head, encode(t_a), *(encode(t) for t in ts), *(encode(u) for u in us)))


def prove(
    ctx: Context,
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    commitments: Sequence[bytes],
    key: bytes,
    mask: int,
    rekeys: Sequence[int],
    random_bytes: RandomBytes,
) -> RekeyProof:
    """The proof that outputs[j] = (rekeys[j]/mask)·inputs[j], commitments[j] = rekeys[j]·G
    and key = mask·G. Nonces drawn from `random_bytes` in this order: phi, rho_0..rho_(N-1)."""
    phi = scalar_from(random_bytes)
    rho = [scalar_from(random_bytes) for _ in inputs]
    head = _head(ctx, outputs, commitments, key)
    ts = [base_times(r) for r in rho]
    us = [
        total([times(load(y), phi), times(load(x), -r)])
        for x, y, r in zip(inputs, outputs, rho, strict=True)
    ]
    v = _challenge(head, base_times(phi), ts, us)
    return RekeyProof(
        v,
        (phi + v * mask) % N,
        tuple((r + v * y) % N for r, y in zip(rho, rekeys, strict=True)),
    )


_checked = Checked()


def verify(
    ctx: Context,
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    commitments: Sequence[bytes],
    key: bytes,
    proof: RekeyProof,
) -> None:
    """Nothing if `proof` shows the re-key right; `BadProof` otherwise. The lists' elements
    and the commitments were checked already (each a point)."""
    size = len(inputs)
    if not (len(outputs) == len(commitments) == len(proof.s) == size) or size == 0:
        raise BadProof("not one element, commitment and response per position")
    if not all(0 <= k < N for k in (proof.v, proof.s_a, *proof.s)):
        raise BadProof("a response out of range")
    head = _head(ctx, outputs, commitments, key)
    memo = sha256(head, *(k.to_bytes(SCALAR_BYTES, "big") for k in (proof.v, proof.s_a, *proof.s)))
    if memo in _checked:
        return
    try:
        a = load(key)
    except BadElement as exc:
        raise BadProof(f"its key: {exc}") from None
    v = proof.v
    t_a = total([base_times(proof.s_a), times(a, -v)])
    ts = [
        total([base_times(s), times(load(c), -v)])
        for s, c in zip(proof.s, commitments, strict=True)
    ]
    us = [
        total([times(load(y), proof.s_a), times(load(x), -s)])
        for x, y, s in zip(inputs, outputs, proof.s, strict=True)
    ]
    if _challenge(head, t_a, ts, us) != v:
        raise BadProof("its challenge is not the hash of its commitments")
    _checked.add(memo)


forget_verified = _checked.forget
