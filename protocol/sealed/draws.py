"""Public random draws at a sealed table: a value nobody could know or steer before it is made.

A turtle's steal in Velonimo takes cards at random from a hand the stealer cannot see. The
public seed is known to everyone from the start and the stealer or the victim choosing would be
a choice the classic game does not give, so every seat contributes: each first publishes a
commitment to 32 fresh random bytes (`draw_commit`), and only once every seat's commitment of
that draw was relayed does each publish its bytes (`draw_open`). The value is SHA-256 of a fixed
label, the draw's number and every seat's bytes in seat order. A seat that sees the others'
bytes has already committed to its own, so nobody, the host included (it is a seat too, and
commits before any opening is relayed), can grind the value; one honest seat's bytes make it
uniform. A seat that withholds its opening stalls the draw and is named as the one waited for.

The commitment hashes the draw's number and the seat with the bytes, so a commitment can be
neither copied by another seat nor replayed for another draw. Every party keeps a `Draws`: the
relay checks each step before relaying it (naming the sender), each seat checks again (naming
the relay for what the relay had to refuse, the signer for an opening its commitment does not
match), and the audit recomputes every value.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from protocol.sealed.errors import Caught

COMMIT_LABEL = b"netcards sealed draw commitment v5"
VALUE_LABEL = b"netcards sealed draw v5"
NONCE_BYTES = 32


def draw_commitment(draw: int, seat: int, nonce: bytes) -> bytes:
    """SHA-256(label || draw as 8 bytes || seat as 8 bytes || nonce)."""
    return hashlib.sha256(
        COMMIT_LABEL + draw.to_bytes(8, "big") + seat.to_bytes(8, "big") + nonce
    ).digest()


def draw_value(draw: int, nonces: Mapping[int, bytes]) -> bytes:
    """SHA-256(label || draw as 8 bytes || every seat's nonce, in seat order)."""
    material = VALUE_LABEL + draw.to_bytes(8, "big")
    for _, nonce in sorted(nonces.items()):
        material += nonce
    return hashlib.sha256(material).digest()


@dataclass
class Draws:
    """The draws of one table as one party keeps them. `asked` is how many draws the game has
    asked for so far (its owner's engine says so); a commitment to a later one is out of turn."""

    seats: tuple[int, ...] = ()
    asked: int = 0
    commitments: dict[int, dict[int, bytes]] = field(default_factory=dict)
    nonces: dict[int, dict[int, bytes]] = field(default_factory=dict)
    values: list[bytes] = field(default_factory=list)

    @property
    def current(self) -> int:
        """The draw under way (or the next one): every earlier one is made."""
        return len(self.values)

    def committed(self, draw: int) -> bool:
        return set(self.commitments.get(draw, {})) >= set(self.seats)

    def on_commit(self, seat: int, draw: int, digest: bytes, blame: int) -> None:
        """A commitment of `seat`; `blame` is named for one out of turn (the sender at the
        relay, the relay at a seat)."""
        if seat not in self.seats:
            raise Caught(blame, "unrequested", f"seat {seat} takes no part in the draws")
        if draw != self.current or draw >= self.asked:
            raise Caught(blame, "out_of_turn", f"seat {seat} committed to draw {draw}")
        self.commitments.setdefault(draw, {})[seat] = digest

    def on_open(self, seat: int, draw: int, nonce: bytes, blame: int) -> bytes | None:
        """An opening of `seat`: the draw's value once it is the last one in."""
        if seat not in self.seats:
            raise Caught(blame, "unrequested", f"seat {seat} takes no part in the draws")
        if draw != self.current or not self.committed(draw):
            raise Caught(
                blame, "out_of_turn", f"seat {seat} opened draw {draw} before every commitment"
            )
        if draw_commitment(draw, seat, nonce) != self.commitments[draw][seat]:
            raise Caught(seat, "wrong_opening", f"draw {draw}: its commitment does not match")
        opened = self.nonces.setdefault(draw, {})
        opened[seat] = nonce
        if set(opened) < set(self.seats):
            return None
        value = draw_value(draw, opened)
        self.values.append(value)
        return value

    def waiting_for(self) -> list[int]:
        """The seats the draw under way waits for (a commitment or an opening)."""
        if self.current >= self.asked:
            return []
        draw = self.current
        if not self.committed(draw):
            return [s for s in self.seats if s not in self.commitments.get(draw, {})]
        return [s for s in self.seats if s not in self.nonces.get(draw, {})]


def replay_draws(
    seats: Sequence[int],
    commitments: Mapping[int, Mapping[int, bytes]],
    nonces: Mapping[int, Mapping[int, bytes]],
) -> tuple[list[bytes], Caught | None]:
    """Every value recomputed from the published commitments and nonces, as the audit does; the
    first opening its commitment does not match is named. Only a draw whose every opening was
    published has a value: one the game stopped in (a `broken` step) before every seat had
    opened, or committed, counts against nobody, and no later draw can have begun."""
    values: list[bytes] = []
    for draw in sorted(nonces):
        opened = nonces[draw]
        for seat, nonce in sorted(opened.items()):
            if draw_commitment(draw, seat, nonce) != commitments.get(draw, {}).get(seat):
                return values, Caught(seat, "wrong_opening", f"draw {draw} does not open")
        if draw != len(values) or not set(opened) >= set(seats):
            break  # the draw under way when the game stopped: judged no further
        values.append(draw_value(draw, opened))
    return values, None
