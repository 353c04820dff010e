"""What the two halves of a sealing round share: the rounds as each keeps them, and the checks
of a step that a seat and the relay make alike (docs/sealed.md, sections 3 and 7).

Each check takes whom to name for what it finds (`blame`): the relay names the sender, the
first to see a step; a seat names the relay for what the relay had to refuse before relaying.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from protocol.sealed.canonical import canonical
from protocol.sealed.deck import SealedRound
from protocol.sealed.errors import Caught
from protocol.sealed.messages import (
    SealMessage,
    SealRound,
    encode,
)
from protocol.sealed.passing import Moves
from protocol.sealed.shuffle import SeatSecrets
from protocol.sealed.signing import Step

DRAW_KINDS = ("draw_commit", "draw_open")
PASS_KINDS = ("pass_key", "pass")

Outgoing = tuple[int, SealMessage]
"""A message and the seat it goes to."""

EVIDENT = frozenset({"bad_proof", "malformed", "bad_element", "duplicated", "wrong_scalar"})
SEALING_KINDS = frozenset({"mask", "rekey", "scalars", "reveal"})
"""A step of these kinds refused for one of these findings is its own signer's proof against
itself: a proof that fails, a list that is not one, a scalar that fails its commitment. The
relay does not merely refuse it (which would leave the table waiting on a seat that will not
make a good step, and only the relay's word against it): it shows it to every seat, which
checks it and names the signer itself, and the game stops there (`RelayDriver.proved`)."""
RELAY_CHECKS = frozenset({"out_of_turn", "wrong_input"})
WRONG_PASS = "wrong_pass"
"""Findings the round state makes against a step's signer that a seat puts on the relay: the
relay had to check the turn before relaying, and an honest seat only ever steps in turn; and a
step made from another list than this seat holds was made from a list the relay showed its
author and not this seat (an honest seat signs the digest of the list it was given)."""


def setup_bytes(msg: SealRound) -> bytes:
    """A round's setup as every seat records it in its transcript."""
    return canonical(encode(msg))


def public_bytes(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw)


def load_key(sender: int, raw: bytes) -> Ed25519PublicKey:
    try:
        return Ed25519PublicKey.from_public_bytes(raw)
    except ValueError:
        raise Caught(sender, "malformed", "not an Ed25519 public key") from None


def on_reveal_scalars(r: SealedRound, moves: Moves, step: Step) -> None:
    """Record a reveal's scalars, each as the seat's whose commitment it opens: the signer's
    own, or, for a card passed to the signer, its keeper's. A scalar that fails names the
    signer, who sent it."""
    by_seat: dict[int, dict[int, int]] = {}
    for p, (whose, y) in moves.holder_scalars(step).items():
        by_seat.setdefault(whose, {})[p] = y
    for whose, ys in sorted(by_seat.items()):
        try:
            r.on_scalars(whose, ys)
        except Caught as e:
            raise Caught(step.seat, e.kind, e.finding.detail) from None


@dataclass
class SeatRound:
    """One round as a seat keeps it: the public state, its own secrets, who each opened
    position went to, its own cards and every card revealed to everyone."""

    round: SealedRound
    secrets: SeatSecrets
    owners: dict[int, int] = field(default_factory=dict)
    hand: dict[int, int] = field(default_factory=dict)
    revealing: set[int] = field(default_factory=set)
    """Positions the relay asked every seat to reveal (`seal_reveal`)."""
    revealed: dict[int, int] = field(default_factory=dict)
    stepped: set[str] = field(default_factory=set)
    moves: Moves = field(default_factory=Moves)
    """Cards handed from one seat to another privately (`protocol.sealed.transfer`)."""
    pass_secrets: dict[int, int] = field(default_factory=dict)
    """This seat's `pass_key` secret b, by position passed to it."""
    learnt: dict[int, int] = field(default_factory=dict)
    """The keeper's y_kj of positions passed to this seat (so that it can play or pass them)."""


@dataclass
class RelayRound:
    """One round as the relay keeps it."""

    round: SealedRound
    owners: dict[int, int] = field(default_factory=dict)
    revealing: set[int] = field(default_factory=set)
    revealed: dict[int, int] = field(default_factory=dict)
    moves: Moves = field(default_factory=Moves)


def check_reveal(
    step: Step, size: int, owners: dict[int, int], revealing: set[int], blame: int, moves: Moves
) -> None:
    """A reveal is of positions opened (or passed) to its signer, or asked of everyone; `blame`
    is named for any other (the signer at the relay, the relay at a seat). A card given back to
    a seat that was shown it before is not opened again, so "opened to" is "ever shown to"."""
    positions = [p for p, _ in step.body["scalars"]]
    if len(set(positions)) != len(positions) or not all(0 <= p < size for p in positions):
        raise Caught(step.seat, "malformed", "a reveal of a position twice or of no position")
    stray = [
        p
        for p in positions
        if owners.get(p) != step.seat and not moves.knows(step.seat, p) and p not in revealing
    ]
    if stray:
        raise Caught(blame, "unrequested", f"seat {step.seat + 1} revealed positions {stray}")


def reveal_ready(
    r: SealedRound, positions: Sequence[int], done: dict[int, int], known: Mapping[int, int]
) -> None:
    """Every position whose scalars are all in is shown: its card, for everyone. A card this
    program unmasked already (`known`: a seat's own hand) is the one the reveal shows, since
    every scalar of it opened its commitment: the same element unmasked by the same scalars."""
    for p in positions:
        if p not in done and all(p in r.scalars.get(s, {}) for s in r.seats):
            done[p] = known[p] if p in known else r.revealed(p)


def check_scalars_step(step: Step, size: int, seats: Sequence[int]) -> None:
    """What a scalars step's own signature proves against its signer."""
    to = step.body["to"]
    positions = [p for p, _ in step.body["scalars"]]
    if to == step.seat or to not in seats:
        raise Caught(step.seat, "malformed", f"scalars opened to seat {to + 1}, not another seat")
    if len(set(positions)) != len(positions) or not all(0 <= p < size for p in positions):
        raise Caught(step.seat, "malformed", "scalars for a position twice or for no position")


def shown_steps(table: bytes, seat: int, reveal: Sequence[Sequence[Any]]) -> list[Step]:
    """A move's reveal (`moves.Shown`) as the reveal steps it stands for, one per round: each is
    checked and taken as a `reveal` step is, the move's signature standing for theirs."""
    by_round: dict[int, list[list[Any]]] = {}
    for number, p, y in reveal:
        by_round.setdefault(number, []).append([p, y])
    return [Step(table, n, "reveal", seat, {"scalars": ys}) for n, ys in sorted(by_round.items())]
