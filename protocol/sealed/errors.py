"""What the sealed deck reports when something is wrong: who did it, and what.

Every check names a seat. A step is judged against its own author: a list that is malformed,
out of turn or holds one element twice names the seat that signed it; a scalar that fails its
commitment names the seat that published it; a signature that fails names the relay that
passed the step on (it had to check the signature before relaying); a card that unmasks to no
card of the deck cannot be pinned on anyone until the audit, hence `DeckTampered`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    seat: int
    """The seat at fault."""
    kind: str
    """malformed, out_of_turn, bad_element, duplicated, substituted, wrong_mask, wrong_rekey,
    wrong_commitment, wrong_scalar, bad_secrets, withheld, false_claim, forged, equivocated,
    wrong_opening, bad_choice (a simultaneous choice's opening), false_alarm (said the deck was
    tampered with, and the audit found it whole)."""
    detail: str

    def __str__(self) -> str:
        """In words a person reads: seats count from 1 there (`seat 1` is seat 0), and the
        relay, which is no seat (a negative number), is the host."""
        who = "the host" if self.seat < 0 else f"seat {self.seat + 1}"
        return f"{who}: {self.kind} ({self.detail})"


class Caught(Exception):
    """A step that its author (or the relay that passed it on) got wrong, named."""

    def __init__(self, seat: int, kind: str, detail: str) -> None:
        self.finding = Finding(seat, kind, detail)
        super().__init__(str(self.finding))

    @property
    def seat(self) -> int:
        return self.finding.seat

    @property
    def kind(self) -> str:
        return self.finding.kind


class DeckTampered(Exception):
    """A position unmasked to an element that is no card of the round: some seat substituted a
    card during the sealing. The seat that finds it says so (a `broken` step), every seat then
    publishes its secrets, and the audit names who did it."""
