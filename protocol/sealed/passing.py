"""Private transfers of a round, as every party keeps them: which opened positions go to whom,
which `pass_key` asked for them, what each `pass` carried (docs/sealed.md, section 7).

The relay and every seat keep the same record from the same relayed steps, so each can refuse a
transfer step the game did not ask for (naming whoever should have refused it), tell whose
scalar a later reveal of a passed card carries, and judge a `wrong_pass` proof itself
(`protocol.sealed.pass_proof`). Public: who holds a card, never which card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from protocol.sealed.errors import Caught, Finding
from protocol.sealed.group import BadElement, check_element
from protocol.sealed.pass_proof import Sealed, judge
from protocol.sealed.signing import Step


def scalars_of(body: Any) -> dict[int, int]:
    """A step body's [position, 32-byte scalar] pairs, as integers by position."""
    return {p: int.from_bytes(y, "big") for p, y in body["scalars"]}


@dataclass
class Moves:
    """The private transfers of a round, as every party keeps them (public: who, not what).
    `keepers`: each opened position's first owner, the one seat whose scalar is still secret.
    `passing`: positions asked to be passed (`seal_open` of an opened position) to a seat.
    `keys`: the new owner's `pass_key` element, once it was relayed. `passed`: every seat a
    position was passed to."""

    keepers: dict[int, int] = field(default_factory=dict)
    passing: dict[int, int] = field(default_factory=dict)
    keys: dict[int, bytes] = field(default_factory=dict)
    passed: dict[int, set[int]] = field(default_factory=dict)
    given: dict[int, dict[int, tuple[bytes, Sealed]]] = field(default_factory=dict)
    """Every pass made, by new owner, then position: its `pass_key` element and what the `pass`
    carried (`protocol.sealed.pass_proof`: what a wrong pass is judged by)."""

    def ask(self, owners: dict[int, int], to: int, positions: Sequence[int], blame: int) -> None:
        """A `seal_open` of positions already opened: each goes to `to` by a transfer."""
        again = [
            p
            for p in positions
            if owners.get(p) == to or to in self.passed.get(p, ()) or p in self.passing
        ]
        if again or not all(p in owners for p in positions):
            raise Caught(
                blame, "reopened", f"positions {sorted(positions)} cannot go to seat {to + 1}"
            )
        for p in positions:
            self.passing[p] = to

    def on_key(self, step: Step, blame: int) -> None:
        """The new owner's `pass_key`: only for positions being passed to its signer."""
        positions = list(step.body["positions"])
        stray = [p for p in positions if self.passing.get(p) != step.seat or p in self.keys]
        if stray or not positions or len(set(positions)) != len(positions):
            raise Caught(blame, "unrequested", f"seat {step.seat + 1} keyed positions {positions}")
        try:
            check_element(step.body["key"])
        except BadElement as e:
            raise Caught(step.seat, "bad_element", str(e)) from None
        for p in positions:
            self.keys[p] = step.body["key"]

    def on_pass(self, step: Step, blame: int) -> None:
        """A keeper's `pass`: of positions it keeps, to the seat whose key asked for them."""
        to = step.body["to"]
        positions = [p for p, _ in step.body["scalars"]]
        wrong = [
            p
            for p in positions
            if self.keepers.get(p) != step.seat or self.passing.get(p) != to or p not in self.keys
        ]
        if wrong or not positions or len(set(positions)) != len(positions):
            raise Caught(blame, "out_of_turn", f"seat {step.seat + 1} passed positions {positions}")
        try:
            check_element(step.body["key"])
        except BadElement as e:
            raise Caught(step.seat, "bad_element", str(e)) from None

    def done(self, step: Step, owners: dict[int, int]) -> None:
        to = step.body["to"]
        for p, sealed in step.body["scalars"]:
            kept = (self.keys[p], (step.seat, step.body["key"], sealed))
            self.given.setdefault(to, {})[p] = kept
            owners[p] = to
            self.passed.setdefault(p, set()).add(to)
            del self.passing[p]
            del self.keys[p]

    def judge(self, step: Step, commitments: Mapping[int, Sequence[bytes]]) -> Finding:
        """A `wrong_pass` step: who is at fault (`protocol.sealed.pass_proof`)."""
        given = self.given.get(step.seat, {})
        return judge(
            step.seat,
            step.round,
            list(step.body["positions"]),
            int.from_bytes(step.body["secret"], "big"),
            {p: key for p, (key, _) in given.items()},
            {p: passed for p, (_, passed) in given.items()},
            commitments,
        )

    def knows(self, seat: int, p: int) -> bool:
        """`seat` was shown the card at `p`: its keeper, or a seat it was passed to."""
        return self.keepers.get(p) == seat or seat in self.passed.get(p, ())

    def holder_scalars(self, step: Step) -> dict[int, tuple[int, int]]:
        """Reveal scalars of positions passed to the signer are its keeper's: position ->
        (whose scalar, the scalar)."""
        out = {}
        for p, y in scalars_of(step.body).items():
            keeper = self.keepers.get(p, step.seat)
            moved = keeper != step.seat and step.seat in self.passed.get(p, ())
            out[p] = (keeper if moved else step.seat, y)
        return out
