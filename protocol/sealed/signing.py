"""Signed steps: every list, commitment and scalar a seat publishes carries its signature.

The host relays everything and is itself a player, so it must not be able to alter or forge a
step in passing. Each seat draws a per-table Ed25519 key (its public half goes to the others
with the seat's place at the table) and signs each step it publishes. The signed bytes are the
canonical msgpack encoding (`protocol.sealed.canonical`) of the map

    {"domain": "netcards sealed step v5", "table": table id (bin), "round": int,
     "kind": str, "seat": int, "body": map}

so that a signature cannot be replayed at another table, in another round, as another kind of
step or for another seat. Whoever receives a step checks its signature; a relay checks before
it relays, so a step that reaches a seat with a bad signature names the relay, not the seat
it claims to come from.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from protocol.sealed.canonical import canonical
from protocol.sealed.errors import Caught
from protocol.sealed.group import RandomBytes

STEP_LABEL = "netcards sealed step v5"
KINDS = (
    "mask",
    "rekey",
    "scalars",
    "reveal",
    "secrets",
    "pass_key",
    "pass",
    "draw_commit",
    "draw_open",
    "move",
    "choice",
    "broken",
    "wrong_pass",
)


def table_signing_key(random_bytes: RandomBytes) -> Ed25519PrivateKey:
    """A seat's signing key for one table, from 32 fresh bytes."""
    return Ed25519PrivateKey.from_private_bytes(random_bytes(32))


@dataclass(frozen=True)
class Step:
    table: bytes
    round: int
    kind: str
    seat: int
    body: Mapping[str, Any]

    @property
    def slot(self) -> tuple[object, ...]:
        """What a seat says once only: one step of each kind per round, except scalars and reveals,
        said once per set of positions opened, a transfer's steps once per set of positions
        and new owner, a draw's once per draw, and a choice opening once per choice step."""
        if self.kind in ("scalars", "reveal"):
            positions = tuple(sorted(p for p, _ in self.body.get("scalars", ())))
            return (self.round, self.kind, self.seat, positions)
        if self.kind in ("pass_key", "pass"):
            moved = self.body.get("positions") or [p for p, _ in self.body.get("scalars", ())]
            return (self.round, self.kind, self.seat, self.body.get("to"), tuple(sorted(moved)))
        if self.kind in ("draw_commit", "draw_open"):
            return (self.round, self.kind, self.seat, self.body.get("draw"))
        if self.kind == "choice":
            return (self.round, self.kind, self.seat, self.body.get("step"))
        return (self.round, self.kind, self.seat)

    def signed_bytes(self) -> bytes:
        return self._signed_bytes

    @functools.cached_property
    def _signed_bytes(self) -> bytes:
        """Computed once per step: a step is checked, then recorded in the transcript, and
        its body is never changed once it is a step."""
        if self.kind not in KINDS:
            raise ValueError(f"unknown step kind {self.kind!r}")
        return canonical(
            {
                "domain": STEP_LABEL,
                "table": self.table,
                "round": self.round,
                "kind": self.kind,
                "seat": self.seat,
                "body": self.body,
            }
        )


@dataclass(frozen=True)
class SignedStep:
    step: Step
    signature: bytes

    def encoded(self) -> bytes:
        """The step as a transcript records it: its signed bytes, then its signature."""
        return self.step.signed_bytes() + self.signature


class _Checked:
    """The signatures this process has checked (or made) lately, with the key each is by.

    One process often checks one signature twice: at the host the relay checks a step, then
    each of its bots' seats checks the same step again; a seat checks its own step when the
    host relays it back. A signature that checked once over the same bytes by the same key
    checks again, so its result is kept; a failure is never kept."""

    SIZE = 1 << 12

    def __init__(self) -> None:
        self._by: OrderedDict[tuple[bytes, bytes], bytes] = OrderedDict()

    def clear(self) -> None:
        self._by.clear()

    def known(self, signature: bytes, data: bytes, key: bytes) -> bool:
        by = self._by.get((signature, data))
        if by is None:
            return False
        self._by.move_to_end((signature, data))
        return by == key

    def add(self, signature: bytes, data: bytes, key: bytes) -> None:
        self._by[(signature, data)] = key
        if len(self._by) > self.SIZE:
            self._by.popitem(last=False)


_checked = _Checked()


def forget_checked() -> None:
    """Forget every signature checked (a benchmark measures the checks themselves)."""
    _checked.clear()


def sign(key: Ed25519PrivateKey, step: Step) -> SignedStep:
    data = step.signed_bytes()
    signature = key.sign(data)
    _checked.add(signature, data, key.public_key().public_bytes_raw())
    return SignedStep(step, signature)


def verify(signed: SignedStep, keys: Mapping[int, Ed25519PublicKey], relay: int) -> Step:
    """The step, if the seat it names signed it; otherwise the relay that passed it is caught."""
    key = keys.get(signed.step.seat)
    if key is None:
        raise Caught(relay, "forged", f"a step from seat {signed.step.seat + 1}, which has no key")
    try:
        data, raw = signed.step.signed_bytes(), key.public_bytes_raw()
        if not _checked.known(signed.signature, data, raw):
            key.verify(signed.signature, data)
            _checked.add(signed.signature, data, raw)
    except (InvalidSignature, ValueError, TypeError):
        raise Caught(
            relay, "forged", f"a {signed.step.kind} step said to be seat {signed.step.seat + 1}'s"
        ) from None
    return signed.step
