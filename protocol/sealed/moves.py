"""Moves signed by the seat that makes them (docs/sealed.md, section 7, `seal_act`).

A card played face up is shown with its move: the move carries the seat's scalar of each card
it plays (`reveal`: round, position, scalar), under the move's one signature, so a card play
is one message, signed once and checked once by each program.

The host applies every move and tells the seats (`seal_acted`). Unsigned, that word would be
the host's alone: a modified host could play a turn for a player who never moved, change a
move on its way (a rest for a walk), or apply one move twice, and the others could not tell
whether the player or the host did it. So each move is signed with the seat's table key, like
its steps, over the action as the seat sent it and the move's number among that seat's own
moves (not among the game's: in Auf Achse several seats commit at once, in an order only the
host decides). A number seen before or skipped, or a signature that fails, then proves against
whoever passed it on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from protocol.sealed.messages import SealAct, SealActed
from protocol.sealed.signing import SignedStep, Step, sign, verify

MOVE_KIND = "move"
MOVE_ROUND = 0
"""A move belongs to no sealing round; it is signed as round 0, like `secrets`."""


Shown = Sequence[Sequence[Any]]
"""A move's reveal: [round, position, scalar as 32 bytes] for each card it plays face up."""


def move_step(
    table: bytes, seat: int, number: int, action: Mapping[str, Any], reveal: Shown = ()
) -> Step:
    body = {"number": number, "action": dict(action), "reveal": [list(x) for x in reveal]}
    return Step(table, MOVE_ROUND, MOVE_KIND, seat, body)


def sign_move(
    key: Ed25519PrivateKey,
    table: bytes,
    seat: int,
    number: int,
    action: Mapping[str, Any],
    reveal: Shown = (),
) -> SignedStep:
    """The seat's `number`-th move and the cards it shows, signed."""
    return sign(key, move_step(table, seat, number, action, reveal))


def check_move(keys: Mapping[int, Ed25519PublicKey], signed: SignedStep, blame: int) -> None:
    """`Caught` naming `blame` unless the move's seat signed this move (its number, action and
    reveal) with this signature."""
    verify(signed, keys, blame)


def acted_move(table: bytes, seat: int, act: SealAct | SealActed) -> SignedStep:
    """A move as sent or relayed, as the step its signature is of: what it is checked as, and
    what every transcript records once it is applied (docs/sealed.md, section 5)."""
    step = move_step(table, seat, act.number, act.action, act.reveal)
    return SignedStep(step, act.signature)


def acted_step(table: bytes, acted: SealActed) -> SignedStep:
    return acted_move(table, acted.seat, acted)


def moves_of(actions: list[tuple[int, Any]], seat: int) -> int:
    """How many moves of `seat` were applied: its next one is number this plus one."""
    return sum(1 for s, _ in actions if s == seat)
