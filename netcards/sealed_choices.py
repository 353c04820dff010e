"""Simultaneous secret choices at a sealed table: commit first, open once everybody has committed.

Some steps ask several seats to choose at once and in secret (Auf Achse's run cards and Free
roads). At a sealed table the host is a player, and every message passes through its program, so
a choice sent as it is would reach the host (and through it anyone) before the others have
chosen. Each asked seat therefore first sends a **commitment**: a hash of the step, its seat, the
items it chose (slots, at a card game) and a fresh random nonce, worked out by the seat's own
program. The engine keeps the commitments in the public state. Only when every asked seat has
committed does the step ask for the **openings**: each seat sends its items and nonce, and every
program checks them against the commitment; one that does not match is refused naming the seat,
which the table treats as that seat's cheating. The seat and the step are inside the hash, so a
seat cannot copy another's commitment and then open it with the other's opening, nor replay an
old one.

An opening discloses the items (which slots), not what they hold: a card chosen face down stays
a slot until the game reveals it. Nothing here knows cards or the network: a game asks for a
step (`ChoiceLedger.ask`), records commitments and openings, and reads what it must wait for.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from netcards.errors import IllegalAction, StepPending

DOMAIN = b"netcards sealed choice v1\x00"
NONCE_BYTES = 32
DIGEST_BYTES = 32


def commitment(step: int, seat: int, items: Sequence[int], nonce: bytes) -> bytes:
    """The commitment to `items` as seat `seat`'s choice in step `step`: SHA-256 over a fixed
    layout (every integer as 8 signed big-endian bytes), so that any program can check it."""
    if len(nonce) != NONCE_BYTES:
        raise ValueError(f"a choice's nonce is {NONCE_BYTES} random bytes")
    h = hashlib.sha256(DOMAIN)
    for x in (step, seat, len(items), *items):
        h.update(int(x).to_bytes(8, "big", signed=True))
    h.update(nonce)
    return h.digest()


@dataclass(frozen=True, slots=True)
class Opening:
    """What a seat keeps secret between its commitment and the step's openings."""

    step: int
    seat: int
    items: tuple[int, ...]
    nonce: bytes

    def commitment(self) -> bytes:
        return commitment(self.step, self.seat, self.items, self.nonce)


class ChoiceRefused(IllegalAction):
    """A seat's commitment or opening refused: it names the seat, whose program is at fault."""

    def __init__(self, seat: int, message: str) -> None:
        super().__init__(f"seat {seat + 1}: {message}")
        self.seat = seat


class CommitmentMismatch(ChoiceRefused):
    """An opening that is not what the seat committed to."""


@dataclass(slots=True)
class ChoiceStep:
    """One simultaneous step: the seats asked (and how many items each), their commitments,
    and their openings once every asked seat has committed. Public: kept in the state."""

    index: int
    asked: dict[int, int]
    commitments: dict[int, bytes] = field(default_factory=dict)
    opened: dict[int, tuple[int, ...]] = field(default_factory=dict)

    def to_commit(self) -> list[int]:
        """The seats still to commit, in seat order."""
        return sorted(s for s in self.asked if s not in self.commitments)

    def to_open(self) -> list[int]:
        """The seats that must open now: none until every asked seat has committed."""
        if self.to_commit():
            return []
        return sorted(s for s in self.asked if s not in self.opened)

    def committed(self, seat: int) -> bool:
        """Whether `seat` has committed a choice not yet opened (its items are out of sight)."""
        return seat in self.commitments and seat not in self.opened

    def commit(self, seat: int, digest: bytes) -> None:
        if seat not in self.asked:
            raise ChoiceRefused(seat, f"it is not asked to choose in step {self.index}")
        if seat in self.commitments:
            raise ChoiceRefused(seat, f"it has already committed in step {self.index}")
        if len(digest) != DIGEST_BYTES:
            raise ChoiceRefused(seat, f"a commitment is {DIGEST_BYTES} bytes, not {len(digest)}")
        self.commitments[seat] = digest

    def check_opening(self, seat: int, items: Sequence[int], nonce: bytes) -> None:
        """Refuse an opening that comes too early, twice, or does not match the commitment."""
        waiting = self.to_commit()
        if waiting:
            raise StepPending(
                f"no choice of step {self.index} opens before seat {waiting[0] + 1} has committed"
            )
        if seat not in self.asked or seat in self.opened:
            raise ChoiceRefused(seat, f"it has no choice to open in step {self.index}")
        if (
            len(nonce) != NONCE_BYTES
            or commitment(self.index, seat, items, nonce) != self.commitments[seat]
        ):
            raise CommitmentMismatch(
                seat, f"its opening does not match its commitment in step {self.index}"
            )

    def open(self, seat: int, items: Sequence[int], nonce: bytes) -> None:
        self.check_opening(seat, items, nonce)
        self.opened[seat] = tuple(items)

    def done(self) -> bool:
        return len(self.opened) == len(self.asked)

    def to_data(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "asked": [[s, n] for s, n in sorted(self.asked.items())],
            "commitments": [[s, d.hex()] for s, d in sorted(self.commitments.items())],
            "opened": [[s, list(i)] for s, i in sorted(self.opened.items())],
        }

    @classmethod
    def from_data(cls, d: Mapping[str, Any]) -> ChoiceStep:
        return cls(
            d["index"],
            {int(s): int(n) for s, n in d["asked"]},
            {s: bytes.fromhex(h) for s, h in d["commitments"]},
            {s: tuple(i) for s, i in d["opened"]},
        )

    def copy(self) -> ChoiceStep:
        return ChoiceStep(self.index, dict(self.asked), dict(self.commitments), dict(self.opened))


@dataclass(slots=True)
class ChoiceLedger:
    """The public bookkeeping of a game's simultaneous steps: how many were asked so far (the
    next step's index) and the one under way, if any."""

    steps: int = 0
    current: ChoiceStep | None = None

    def ask(self, asked: Mapping[int, int]) -> ChoiceStep:
        """Open a new step asking each seat for `asked[seat]` items (seats asked for 0 are not
        asked). There is one step at a time."""
        if self.current is not None:
            raise StepPending(f"step {self.current.index} is still under way")
        step = ChoiceStep(self.steps, {s: n for s, n in asked.items() if n > 0})
        self.steps += 1
        self.current = step
        return step

    def close(self) -> dict[int, tuple[int, ...]]:
        """The finished step's openings, by seat; no step is under way any more."""
        step = self.current
        if step is None or not step.done():
            raise StepPending("the step under way has openings still to come")
        self.current = None
        return dict(step.opened)

    def committed(self, seat: int) -> bool:
        return self.current is not None and self.current.committed(seat)

    def to_open(self) -> list[int]:
        return [] if self.current is None else self.current.to_open()

    def copy(self) -> ChoiceLedger:
        return ChoiceLedger(self.steps, None if self.current is None else self.current.copy())

    def to_data(self) -> dict[str, Any]:
        return {
            "steps": self.steps,
            "current": None if self.current is None else self.current.to_data(),
        }

    @classmethod
    def from_data(cls, d: Mapping[str, Any]) -> ChoiceLedger:
        current = d["current"]
        return cls(d["steps"], None if current is None else ChoiceStep.from_data(current))


def digest_items(digest: bytes) -> tuple[int, ...]:
    """A commitment as an action field (a list of byte values: action fields are integers)."""
    return tuple(digest)


def items_digest(items: Iterable[int]) -> bytes:
    try:
        return bytes(items)
    except ValueError as exc:
        raise IllegalAction("a commitment is a list of byte values") from exc
