"""The proof that goes with every mask-and-shuffle step: its output is its input, permuted,
every element multiplied by one and the same secret scalar, the one its key commits to.

Without it a seat could publish anything that looks like a deck: the host's bot, masking first,
could put in elements of known ratio to other cards' (a "tracer"), which every honest mask
after it keeps, and find them again once the deck is sealed. So every seat proves its step when
it makes it, and every party checks the proof before it makes its own next step and before any
card of the round is opened (docs/sealed.md, section 3).

The argument is Terelius and Wikström's proof of a shuffle ("Proofs of restricted shuffles",
AFRICACRYPT 2010), the one the Verificatum mix-net implements and documents byte by byte,
turned from re-encryptions to one common exponent. Chosen over the alternatives for its cost,
which is what a table waits on:

- cut-and-choose with k shadow shuffles costs k multiplications per card to make and as many
  to check: at k = 40 (soundness 2^-40) about 4,400 multiplications for Auf Achse's 109 cards,
  on each side, for each step, against about 650 here, with soundness 2^-200 or so;
- Bayer and Groth (2012) make proofs of about √N elements, which the table does not need (a
  proof here is 18 KiB for 109 cards, over a LAN), and need a multi-exponentiation argument
  that costs more to write and check right than it saves in bytes;
- Neff's (2001) is close to this one in cost but is written for ElGamal pairs whose exponents
  the prover knows, and ours are hashed card elements nobody knows the logarithm of.

The statement. Input X_0..X_(N-1), output Y_0..Y_(N-1), key A. The prover knows a with A = a·G
and a permutation with Y_j = a·X_(perm[j]) (the code's `mask_and_shuffle`); write pi for its
inverse, so that input i goes to output pi(i). H_0..H_(N-1) are generators nobody knows a
logarithm between (`generator`).

1. The prover commits to the permutation, u_i = r_i·G + H_(pi(i)), and from the statement and
   u hashes challenges e_0..e_(N-1). Write eps_j = e_(perm[j]): the challenges, permuted.
2. It proves, in one Σ-protocol with one challenge v: that it can open Σ e_i·u_i = k·G +
   Σ eps_j·H_j (the u commit to a matrix M, and this is M·e); that ∏ eps_j = ∏ e_i (a chain of
   commitments B_j = b_j·G + eps_j·B_(j-1), B_(-1) = H_0, whose last is d·G + (∏ e_i)·H_0); that
   Σ u_i - Σ H_i = r_sum·G (M's rows each sum to 1); and that Σ eps_j·Y_j = a·Σ e_i·X_i with
   A = a·G. The first three say M is a permutation matrix (Terelius and Wikström, Theorem 1,
   at a random point), the last that the output is the input under it, times a: a cheater
   who fixed its output before the e_i were drawn satisfies it with probability about N/n.

Everything the verifier uses is in a hash before the challenge it meets, so the proof is sound
against a prover who tries challenges until one suits it: each try costs a whole proof, and a
try succeeds with probability about 2^-250. It is zero-knowledge (honest-verifier, made
non-interactive): the u and B are Pedersen commitments, perfectly hiding, and every response
is masked by a uniform nonce. The exact bytes are in docs/sealed.md, section 3, with vectors.
"""

from __future__ import annotations

import functools
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
    combination,
    encode,
    hash_to_group,
    load,
    negate,
    scalar_from,
    times,
    total,
)

LABEL = b"netcards sealed shuffle proof v5"
GENERATOR_LABEL = b"netcards sealed generator v5"


class BadProof(ValueError):
    """A proof that does not show what it should (its detail says which part)."""


@functools.lru_cache(maxsize=512)
def generator(i: int) -> bytes:
    """H_i = hash_to_group(GENERATOR_LABEL || i as 4 bytes)."""
    return hash_to_group(GENERATOR_LABEL + u32(i))


@functools.lru_cache(maxsize=8)
def _generators(size: int) -> tuple[tuple[Point, ...], Point | None]:
    """H_0..H_(size-1) loaded, and -(Σ H_i)."""
    points = tuple(load(generator(i)) for i in range(size))
    return points, negate(total(points))


@dataclass(frozen=True)
class ShuffleProof:
    u: tuple[bytes, ...]
    """The permutation commitments, one per input position."""
    B: tuple[bytes, ...]
    """The product chain, one per output position."""
    v: int
    """The challenge."""
    k_A: int
    k_B: tuple[int, ...]
    k_C: int
    k_D: int
    k_E: tuple[int, ...]
    k_a: int

    def to_body(self) -> dict[str, Any]:
        def s(k: int) -> bytes:
            return k.to_bytes(SCALAR_BYTES, "big")

        return {
            "u": list(self.u),
            "B": list(self.B),
            "v": s(self.v),
            "k_A": s(self.k_A),
            "k_B": [s(k) for k in self.k_B],
            "k_C": s(self.k_C),
            "k_D": s(self.k_D),
            "k_E": [s(k) for k in self.k_E],
            "k_a": s(self.k_a),
        }

    @classmethod
    def of_body(cls, body: Mapping[str, Any]) -> ShuffleProof:
        def n(raw: bytes) -> int:
            return int.from_bytes(raw, "big")

        return cls(
            tuple(body["u"]),
            tuple(body["B"]),
            n(body["v"]),
            n(body["k_A"]),
            tuple(n(k) for k in body["k_B"]),
            n(body["k_C"]),
            n(body["k_D"]),
            tuple(n(k) for k in body["k_E"]),
            n(body["k_a"]),
        )


@dataclass(frozen=True)
class Context:
    """What a proof is about besides the lists: the table, the round, the seat, and the digest
    of the list the step was made from (`challenge.list_digest`)."""

    table: bytes
    round: int
    seat: int
    input: bytes


def _head(ctx: Context, outputs: Sequence[bytes], key: bytes, u: Sequence[bytes]) -> bytes:
    """S = SHA-256(LABEL || table length || table || round || seat || input digest || N ||
    Y_0..Y_(N-1) || A || u_0..u_(N-1)), every integer as 4 bytes big-endian."""
    return sha256(
        statement(LABEL, ctx.table, ctx.round, ctx.seat),
        ctx.input,
        u32(len(outputs)),
        *outputs,
        key,
        *u,
    )


def challenges(head: bytes, size: int) -> list[int]:
    """e_i = 1 + (SHA-256(S || i as 4 bytes) mod (n-1))."""
    return [to_scalar(sha256(head, u32(i))) for i in range(size)]


def _final(head: bytes, chain: Sequence[bytes], commitments: Sequence[Point | None]) -> int:
    """v = 1 + (SHA-256(S || B_0..B_(N-1) || A' || B'_0..B'_(N-1) || C' || D' || F' || M')
    mod (n-1)), the identity hashed as 33 zero bytes."""
    return to_scalar(sha256(head, *chain, *(encode(p) for p in commitments)))


def prove(
    ctx: Context,
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    mask: int,
    permutation: Sequence[int],
    key: bytes,
    random_bytes: RandomBytes,
) -> ShuffleProof:
    """The proof that outputs[j] = mask·inputs[permutation[j]] and key = mask·G. The nonces
    are drawn from `random_bytes` in this order: r_0..r_(N-1), b_0..b_(N-1), alpha, beta_0..beta_(N-1),
    gamma, delta, eta_0..eta_(N-1), phi."""
    size = len(inputs)
    hs, _ = _generators(size)
    pi = [0] * size
    for j, i in enumerate(permutation):
        pi[i] = j

    def draw(count: int) -> list[int]:
        return [scalar_from(random_bytes) for _ in range(count)]

    r, b = draw(size), draw(size)
    [alpha], beta, [gamma, delta], eta, [phi] = draw(1), draw(size), draw(2), draw(size), draw(1)

    u = [encode(total([base_times(r[i]), hs[pi[i]]])) for i in range(size)]
    head = _head(ctx, outputs, key, u)
    e = challenges(head, size)
    eps = [e[permutation[j]] for j in range(size)]

    chain: list[Point | None] = []
    previous: Point | None = hs[0]
    d = 0
    for j in range(size):
        previous = total([base_times(b[j]), times(previous, eps[j])])
        chain.append(previous)
        d = (b[j] + eps[j] * d) % N
    xs = [load(x) for x in inputs]
    ys = [load(y) for y in outputs]
    f = combination(zip(e, xs, strict=True))
    commitments = [
        combination(zip(eta, hs, strict=True), alpha),
        *(
            total([base_times(beta[j]), times(hs[0] if j == 0 else chain[j - 1], eta[j])])
            for j in range(size)
        ),
        base_times(gamma),
        base_times(delta),
        total([combination(zip(eta, ys, strict=True)), times(f, -phi)]),
        base_times(phi),
    ]
    chain_bytes = [encode(p) for p in chain]
    v = _final(head, chain_bytes, commitments)
    k = sum(ri * ei for ri, ei in zip(r, e, strict=True))
    return ShuffleProof(
        tuple(u),
        tuple(chain_bytes),
        v,
        (alpha + v * k) % N,
        tuple((beta[j] + v * b[j]) % N for j in range(size)),
        (gamma + v * sum(r)) % N,
        (delta + v * d) % N,
        tuple((eta[j] + v * eps[j]) % N for j in range(size)),
        (phi + v * mask) % N,
    )


_checked = Checked()


def verify(
    ctx: Context,
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    key: bytes,
    proof: ShuffleProof,
) -> None:
    """Nothing if `proof` shows that `outputs` is `inputs` permuted and multiplied by the
    scalar `key` commits to; `BadProof` otherwise. The lists' elements were checked already
    (each a point); the proof's own are checked here."""
    size = len(inputs)
    if len(outputs) != size or size == 0:
        raise BadProof("the lists are not of one and the same nonzero length")
    if not (len(proof.u) == len(proof.B) == len(proof.k_B) == len(proof.k_E) == size):
        raise BadProof("not one commitment, chain link and response per position")
    scalars = [proof.v, proof.k_A, proof.k_C, proof.k_D, proof.k_a, *proof.k_B, *proof.k_E]
    if not all(0 <= k < N for k in scalars):
        raise BadProof("a response out of range")
    head = _head(ctx, outputs, key, proof.u)
    memo = sha256(head, *proof.B, *(k.to_bytes(SCALAR_BYTES, "big") for k in scalars))
    if memo in _checked:
        return
    try:
        u = [load(x) for x in proof.u]
        chain = [load(x) for x in proof.B]
        a = load(key)
    except BadElement as exc:
        raise BadProof(f"an element of the proof: {exc}") from None
    hs, minus_sum_h = _generators(size)
    e = challenges(head, size)
    v = proof.v
    product = 1
    for ei in e:
        product = product * ei % N
    big_a = combination(zip(e, u, strict=True))
    big_c = total([*u, minus_sum_h])
    big_d = total([chain[-1], times(hs[0], -product)])
    f = combination(zip(e, (load(x) for x in inputs), strict=True))
    commitments = [
        total([combination(zip(proof.k_E, hs, strict=True), proof.k_A), times(big_a, -v)]),
        *(
            total(
                [
                    base_times(proof.k_B[j]),
                    times(hs[0] if j == 0 else chain[j - 1], proof.k_E[j]),
                    times(chain[j], -v),
                ]
            )
            for j in range(size)
        ),
        total([base_times(proof.k_C), times(big_c, -v)]),
        total([base_times(proof.k_D), times(big_d, -v)]),
        total(
            [
                combination(zip(proof.k_E, (load(y) for y in outputs), strict=True)),
                times(f, -proof.k_a),
            ]
        ),
        total([base_times(proof.k_a), times(a, -v)]),
    ]
    if _final(head, proof.B, commitments) != v:
        raise BadProof("its challenge is not the hash of its commitments")
    _checked.add(memo)


forget_verified = _checked.forget
