"""Fiat-Shamir: the challenges of the sealing proofs, hashed from what the proof is about.

A proof is made alone, with no verifier to pick its challenge, so the challenge is a hash of
everything the verifier would have seen before picking it: the statement (the table, the round,
the seat, the list the step was made from, the list it published and its key) and the
prover's commitments. A prover who changes any of them gets another challenge, and must start
again (Fiat and Shamir, 1986; the strong form of Bernhard, Pereira and Warinschi, 2012, which
hashes the statement too, so that a proof cannot be moved to another statement).

The list a step was made from enters as its digest (`list_digest`), which the step also signs
(`input`): a seat that was shown another list than the prover was sees it before it checks
anything else, and names the relay, not the prover.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from protocol.sealed.group import N

LIST_LABEL = b"netcards sealed list v5"


def u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def list_digest(elements: Iterable[bytes]) -> bytes:
    """SHA-256(LIST_LABEL || count as 4 bytes || each element's 33 bytes)."""
    items = list(elements)
    return hashlib.sha256(LIST_LABEL + u32(len(items)) + b"".join(items)).digest()


def statement(label: bytes, table: bytes, round_no: int, seat: int) -> bytes:
    """The bytes every proof's hash starts with: its label, then the table id (its length as
    4 bytes first), the round and the seat, each as 4 bytes."""
    return label + u32(len(table)) + table + u32(round_no) + u32(seat)


def to_scalar(digest: bytes) -> int:
    """A challenge in [1, n-1]: 1 + (the digest as a big-endian integer mod n-1)."""
    return 1 + int.from_bytes(digest, "big") % (N - 1)


def sha256(*parts: bytes) -> bytes:
    h = hashlib.sha256()
    for part in parts:
        h.update(part)
    return h.digest()
