"""What a seat was told, so that the host cannot tell a seat that comes back something else.

A player whose link drops comes back by itself (its client reconnects with its seat token) and
rebuilds its seat from its kept seed and the history the host sends it: the same seed draws
the same secrets, so the seat signs again what it signed before. A modified host can drop the
link on purpose and send back a history that goes otherwise from some point on: its own bot's
mask step replaced by elements whose logarithms it knows (the seat then masks them with the
very mask and permutation that shuffled the real deck, and the host reads the permutation off
its answer, hence every card of the player's hand), another move of its bot so that a card the
player drew goes to the bot (the seat then opens it to the bot with its real scalar), another
draw or a game that ends early (the seat then shows its hand). Then it drops the link again,
sends the true history, and nobody's transcript shows anything.

So a seat remembers, by the place each takes, every message the host told it: each round's
setup, each step by its signer's slot (`Step.slot`: what a seat says once only), each move by
its number in the game. A seat rebuilt in the same program takes over its predecessor's record
(`SealedSeat.remember`), and a message that takes a remembered place with other content names
the host (`rewritten`): an honest host sends the history it sent, and the same steps after it.
A signed step or move is remembered by its signature, which its content's check binds; a setup,
which nobody signs, by its bytes.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from protocol.sealed.canonical import canonical
from protocol.sealed.errors import Caught
from protocol.sealed.messages import SealActed, SealMessage, SealRound, SealStep, encode
from protocol.sealed.signing import Step


def place(msg: SealMessage) -> tuple[tuple[object, ...], bytes] | None:
    """Where `msg` stands in a game and what stands there: None for a message that takes no
    place of its own (an opening or a reveal the game asks for, which `check_asked` holds to
    the game)."""
    if isinstance(msg, SealRound):
        return ("round", msg.round), hashlib.sha256(canonical(encode(msg))).digest()
    if isinstance(msg, SealStep):
        slot = Step(b"", msg.round, msg.kind, msg.seat, msg.body).slot
        return ("step", *slot), msg.signature
    if isinstance(msg, SealActed):
        return ("acted", msg.seq), msg.seat.to_bytes(1, "big") + msg.signature
    return None


@dataclass
class Told:
    """Every place of the game this seat (and any seat it was rebuilt from) was told of."""

    places: dict[tuple[object, ...], bytes] = field(default_factory=dict)

    def check(self, msg: SealMessage, host: int) -> tuple[tuple[object, ...], bytes] | None:
        """`Caught` naming `host` if `msg` says otherwise than what this seat was told at its
        place; the place, to keep once the message is taken."""
        found = place(msg)
        if found is not None:
            where, what = found
            before = self.places.get(where)
            if before is not None and before != what:
                raise Caught(
                    host,
                    "rewritten",
                    f"told this seat otherwise at {where[0]} {list(where[1:])} than before",
                )
        return found

    def keep(self, found: tuple[tuple[object, ...], bytes] | None) -> None:
        if found is not None:
            self.places.setdefault(*found)
