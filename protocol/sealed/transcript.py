"""Each seat's memory of the steps it was shown, to catch a relay that shows seats different
things.

Signatures stop the host from altering a step, not from showing Ann one step and Bob another,
leaving one out or changing their order. So every seat chains the steps it accepts into a
digest: d_0 = SHA-256(label || table id), d_k = SHA-256(d_(k-1) || len(step) as 4 bytes ||
step), where a step is its signed bytes followed by its signature (a move applied is recorded
as its signed move step: the host orders the moves, and its bots sign their own). At the end
every seat publishes its digest (itself a signed step) and all must agree. When they do not, the seats'
transcripts tell who: two different steps signed by the same seat for the same round and kind
are that seat's proof of having said two things; anything else (a step missing, added or moved
for some seats) is the relay's doing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field

from protocol.sealed.errors import Finding
from protocol.sealed.signing import SignedStep

DIGEST_LABEL = b"netcards sealed transcript v5"


@dataclass
class Transcript:
    table: bytes
    steps: list[SignedStep] = field(default_factory=list)
    digest: bytes = b""
    earlier: set[bytes] = field(default_factory=set)
    """Every digest the chain had: a game stopped early (a broken deck) has its seats publish
    their digests at different steps, each one a digest some step of this chain had."""

    def __post_init__(self) -> None:
        if not self.digest:
            self.digest = hashlib.sha256(DIGEST_LABEL + self.table).digest()
        self.earlier.add(self.digest)

    def add(self, signed: SignedStep) -> None:
        """Record a step whose signature was already checked."""
        self._chain(signed.encoded())
        self.steps.append(signed)

    def note(self, setup: bytes) -> None:
        """Record what the relay itself said (a round's setup, canonically encoded): it carries
        no signature, so when the seats' digests differ over it, only the relay is to blame."""
        self._chain(setup)

    def _chain(self, data: bytes) -> None:
        self.digest = hashlib.sha256(self.digest + len(data).to_bytes(4, "big") + data).digest()
        self.earlier.add(self.digest)


def compare(transcripts: Mapping[int, Transcript], relay: int) -> Finding | None:
    """None if every seat saw the same steps; otherwise who showed them different ones."""
    if len({t.digest for t in transcripts.values()}) <= 1:
        return None
    said: dict[tuple[object, ...], bytes] = {}
    for transcript in transcripts.values():
        for signed in transcript.steps:
            step = signed.step
            data = step.signed_bytes()
            if said.setdefault(step.slot, data) != data:
                return Finding(step.seat, "equivocated", f"signed two different {step.kind} steps")
    return Finding(relay, "equivocated", "the seats were not shown the same steps")
