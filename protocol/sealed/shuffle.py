"""What one seat does to the deck in a sealing round, and the secrets it does it with.

A round has two passes, each made by every seat in turn (the round's seat order):

1. Mask and shuffle. Seat i multiplies every element of the current list by its mask a_i and
   permutes the result: output[j] = (a_i · input)[pi_i[j]]. After the last seat, position j
   holds x(a_1⋯a_m · C) for a card C that no single seat can place: each seat knows only its
   own permutation, and without a_i nobody can tell which masked element came from which card
   (that would decide Diffie-Hellman in P-256).
2. Re-key. A single mask per seat cannot open one position without opening them all, so each
   seat i swaps its mask for one fresh scalar per position: X_j ← x((y_ij · a_i⁻¹) · X_j), and
   publishes c_ij = commit(y_ij) = x(y_ij · G). After the last seat, X_j = x(y_1j⋯y_mj · C).
   Opening position j to seat s is every other seat publishing its y_ij (checked against c_ij);
   only s can then remove y_sj. Publishing y_ij reveals nothing about another position.

Each step is published with its proof (`mask_body`, `rekey_body`): a seat proves, when it
makes the step, that it did exactly this, and every party checks the proof before it goes on
(`protocol.sealed.shuffle_proof`, `protocol.sealed.rekey_proof`). The mask step also publishes
the seat's key A = a_i·G, which ties its re-key step's proof to the same mask.

Secrets are drawn from a `random_bytes` callable passed in, never read here, so that tests
and the document's vectors are deterministic; a table passes `os.urandom`. A proof's nonces
come from `proof_nonces`: a stream of the seat's own, bound to what the proof is about, so that
a seat rebuilt from its seed proves the same step with the very same bytes, and a step made
again from another list (which a seat only does if its host rewinds it) never reuses a nonce.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

from protocol.sealed import rekey_proof, shuffle_proof
from protocol.sealed.challenge import sha256, u32
from protocol.sealed.group import (
    N,
    RandomBytes,
    check_scalar,
    commit,
    commit_many,
    inverse,
    mul_each,
    mul_many,
    scalar_from,
)
from protocol.sealed.seed_stream import SeedStream
from protocol.sealed.shuffle_proof import Context

NONCE_LABEL = b"netcards sealed proof nonces v5"
PROOF_KEY_LABEL = b"netcards sealed proof key v5"


def permutation_from(size: int, random_bytes: RandomBytes) -> tuple[int, ...]:
    """A uniform permutation of range(size): Fisher-Yates, each index drawn by rejection from
    8-byte big-endian draws."""
    items = list(range(size))
    for i in range(size - 1, 0, -1):
        bound = i + 1
        limit = 2**64 - (2**64 % bound)
        while True:
            r = int.from_bytes(random_bytes(8), "big")
            if r < limit:
                break
        j = r % bound
        items[i], items[j] = items[j], items[i]
    return tuple(items)


def is_permutation(perm: Sequence[int], size: int) -> bool:
    return len(perm) == size and sorted(perm) == list(range(size))


@dataclass(frozen=True)
class SeatSecrets:
    """Everything one seat keeps to itself for one round, revealed only at the audit."""

    mask: int
    permutation: tuple[int, ...]
    rekeys: tuple[int, ...]
    """y_ij, one per position of the final list."""

    @classmethod
    def draw(cls, size: int, random_bytes: RandomBytes) -> SeatSecrets:
        """The mask, then the permutation, then the re-key scalars, in that order."""
        mask = scalar_from(random_bytes)
        permutation = permutation_from(size, random_bytes)
        rekeys = tuple(scalar_from(random_bytes) for _ in range(size))
        return cls(mask, permutation, rekeys)

    def problems(self, size: int) -> list[str]:
        """Why these secrets cannot be a seat's secrets for a round of `size` cards."""
        out = []
        if not 1 <= self.mask < N:
            out.append("mask out of range")
        if not is_permutation(self.permutation, size):
            out.append("not a permutation of the round's positions")
        if len(self.rekeys) != size or not all(1 <= y < N for y in self.rekeys):
            out.append("not one re-key scalar in range per position")
        return out


def mask_and_shuffle(
    elements: Sequence[bytes], mask: int, permutation: Sequence[int]
) -> list[bytes]:
    """Pass 1 for one seat: output[j] = mask · elements[permutation[j]]."""
    if not is_permutation(permutation, len(elements)):
        raise ValueError("the permutation does not fit the list")
    masked = mul_many(elements, check_scalar(mask))
    return [masked[k] for k in permutation]


def rekey_scalars(mask: int, rekeys: Sequence[int]) -> list[int]:
    """y_ij · a_i⁻¹ for each position: what multiplies X_j in the re-key pass."""
    undo = inverse(mask)
    return [check_scalar(y) * undo % N for y in rekeys]


def rekey(
    elements: Sequence[bytes], mask: int, rekeys: Sequence[int]
) -> tuple[list[bytes], list[bytes]]:
    """Pass 2 for one seat: the re-keyed list and the commitments c_ij to publish with it."""
    if len(rekeys) != len(elements):
        raise ValueError("one re-key scalar per position")
    return mul_each(elements, rekey_scalars(mask, rekeys)), commit_many(rekeys)


def proof_key(signing: Ed25519PrivateKey) -> bytes:
    """What a seat's proof nonces come from: SHA-256(PROOF_KEY_LABEL || its table signing
    key's 32 private bytes). Secret as that key is, found again with it from the seat's seed,
    and drawn from no stream (the secrets drawn after the key stay where they were)."""
    raw = signing.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    return sha256(PROOF_KEY_LABEL, raw)


def proof_nonces(key: bytes, kind: str, ctx: Context) -> RandomBytes:
    """The nonces of one proof: the seed stream (`SeedStream`) whose seed is SHA-256(key ||
    kind || table length || table || round || seat || input digest), `key` being the seat's
    `proof_key`. The same step made from the same list gets the same nonces; anything else,
    others."""
    seed = sha256(
        key, kind.encode(), u32(len(ctx.table)), ctx.table, u32(ctx.round), u32(ctx.seat), ctx.input
    )
    return SeedStream(seed, NONCE_LABEL)


def mask_body(
    ctx: Context, inputs: Sequence[bytes], secrets: SeatSecrets, nonces: RandomBytes
) -> dict[str, Any]:
    """A mask step's body: the list it was made from (`input`, its digest), the masked and
    shuffled list, the seat's key A = a·G, and the proof."""
    elements = mask_and_shuffle(inputs, secrets.mask, secrets.permutation)
    key = commit(secrets.mask)
    proof = shuffle_proof.prove(
        ctx, inputs, elements, secrets.mask, secrets.permutation, key, nonces
    )
    return {"input": ctx.input, "elements": elements, "key": key, "proof": proof.to_body()}


def rekey_body(
    ctx: Context, inputs: Sequence[bytes], secrets: SeatSecrets, nonces: RandomBytes
) -> dict[str, Any]:
    """A re-key step's body: `input`, the re-keyed list, its commitments, and the proof."""
    elements, commitments = rekey(inputs, secrets.mask, secrets.rekeys)
    proof = rekey_proof.prove(
        ctx,
        inputs,
        elements,
        commitments,
        commit(secrets.mask),
        secrets.mask,
        secrets.rekeys,
        nonces,
    )
    return {
        "input": ctx.input,
        "elements": elements,
        "commitments": commitments,
        "proof": proof.to_body(),
    }
