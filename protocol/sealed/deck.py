"""The public state of one sealing round, as every party keeps it from the published steps.

Every seat (and the host, which relays) runs the same `SealedRound`: it takes each seat's
published list in turn, refuses at once what can be refused without secrets (a step out of
turn, a list of the wrong length, bytes that are no group element, one element twice: an
honest step maps distinct elements to distinct elements, so a copy is proof against its
author), and then serves the two ways a position is opened:

- to one seat s (a card dealt): every other seat publishes its y_ij, each checked against its
  commitment c_ij (a wrong one names its publisher); s alone removes y_sj and looks the card up;
- to everyone (a card played): the owner publishes y_sj too and anyone computes the card.

A position that unmasks to no card of the round raises `DeckTampered`: a seat substituted a
card while sealing, and the audit (`protocol.sealed.audit`) says which. A reshuffle is a new
round whose starting list is the elements of the cards being reshuffled.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from protocol.sealed import rekey_proof, shuffle_proof
from protocol.sealed.cards import CardBook
from protocol.sealed.challenge import list_digest
from protocol.sealed.errors import Caught, DeckTampered
from protocol.sealed.group import BadElement, N, check_element, commit, inverse, mul, product
from protocol.sealed.rekey_proof import RekeyProof
from protocol.sealed.shuffle_proof import BadProof, Context, ShuffleProof

NOW, LATER, OWN = "now", "later", "own"
"""When a step's proof is checked (`SealedRound.on_mask`)."""
Proof = Callable[[], None] | None
"""A proof's check left for later, if any."""


@dataclass
class SealedRound:
    book: CardBook
    seats: tuple[int, ...]
    """The order in which seats mask, then re-key."""
    start: tuple[bytes, ...]
    """The list the first seat masks: card elements (the deck, or the cards reshuffled)."""
    masked: list[tuple[bytes, ...]] = field(default_factory=list)
    """The list each seat published in the mask-and-shuffle pass, in seat order."""
    rekeyed: list[tuple[bytes, ...]] = field(default_factory=list)
    """The list each seat published in the re-key pass, in seat order."""
    commitments: dict[int, tuple[bytes, ...]] = field(default_factory=dict)
    """c_ij by seat, one per position."""
    scalars: dict[int, dict[int, int]] = field(default_factory=dict)
    """The y_ij published so far: seat -> position -> scalar."""
    opened: dict[int, int] = field(default_factory=dict)
    """The cards this party has seen so far, by position: no card may turn up twice."""
    table: bytes = b""
    """The table's id, and the round's number: what each step's proof is about."""
    number: int = 0
    keys: dict[int, bytes] = field(default_factory=dict)
    """A = a·G by seat: the key each seat's mask step committed its mask to."""

    @classmethod
    def of_cards(
        cls,
        book: CardBook,
        seats: Sequence[int],
        cards: Sequence[int],
        table: bytes = b"",
        number: int = 0,
    ) -> SealedRound:
        """A round sealing `cards` (the whole deck, or public cards to reshuffle)."""
        if len(set(seats)) != len(seats) or len(seats) < 2:
            raise ValueError("a round needs two or more distinct seats")
        if len(set(cards)) != len(cards):
            raise ValueError("a card appears twice")
        if not cards:
            raise ValueError("a round seals one card or more")
        return cls(
            book, tuple(seats), tuple(book.element(c) for c in cards), table=table, number=number
        )

    def context(self, seat: int) -> Context:
        """What `seat`'s next step is made from, as its proof names it."""
        return Context(self.table, self.number, seat, list_digest(self.current))

    @property
    def size(self) -> int:
        return len(self.start)

    @property
    def phase(self) -> str:
        if len(self.masked) < len(self.seats):
            return "mask"
        if len(self.rekeyed) < len(self.seats):
            return "rekey"
        return "sealed"

    @property
    def turn(self) -> int | None:
        """The seat whose step comes next, None once the round is sealed."""
        if self.phase == "mask":
            return self.seats[len(self.masked)]
        if self.phase == "rekey":
            return self.seats[len(self.rekeyed)]
        return None

    @property
    def current(self) -> tuple[bytes, ...]:
        """The latest published list: what the next step works on."""
        if self.rekeyed:
            return self.rekeyed[-1]
        if self.masked:
            return self.masked[-1]
        return self.start

    def _check_list(self, seat: int, phase: str, elements: Sequence[bytes]) -> tuple[bytes, ...]:
        if self.phase != phase or self.turn != seat:
            raise Caught(
                seat, "out_of_turn", f"a {phase} step when {self.turn} was to {self.phase}"
            )
        if len(elements) != self.size:
            raise Caught(seat, "malformed", f"{len(elements)} elements for {self.size} positions")
        try:
            for x in elements:
                check_element(x)
        except BadElement as e:
            raise Caught(seat, "bad_element", str(e)) from None
        if len(set(elements)) != len(elements):
            raise Caught(seat, "duplicated", "the same element at two positions")
        return tuple(elements)

    def _check_input(self, seat: int, phase: str, body: Mapping[str, Any]) -> Context:
        """The step says which list it was made from (its digest): the list this party holds
        as the current one. A seat that holds another was shown other steps than the prover
        was, which only the relay can do (it names the relay: `RELAY_CHECKS`); the relay, the
        first to see the step, names its sender."""
        ctx = self.context(seat)
        if body["input"] != ctx.input:
            raise Caught(
                seat, "wrong_input", f"a {phase} step made from another list than this one"
            )
        return ctx

    def on_mask(self, seat: int, body: Mapping[str, Any], proof: str = NOW) -> Proof:
        """A mask-and-shuffle step (`elements`, `key`, `input`, `proof`), checked in full: the
        list, then the proof that it is the current list permuted and masked by the scalar
        `key` commits to. A step that fails is refused: it changes nothing.

        `proof`: NOW checks the proof before taking the step; OWN takes a step this party made
        itself without checking its proof again; LATER (the relay, which passes the step on
        first) takes the step and returns the check to make once it has: it raises `Caught`
        naming the seat if the proof fails."""
        elements = self._check_list(seat, "mask", body["elements"])
        ctx = self._check_input(seat, "mask", body)
        key = body["key"]
        try:
            check_element(key)
        except BadElement as e:
            raise Caught(seat, "bad_element", f"key: {e}") from None
        inputs = self.current

        def check() -> None:
            try:
                shuffle_proof.verify(
                    ctx, inputs, elements, key, ShuffleProof.of_body(body["proof"])
                )
            except BadProof as e:
                raise Caught(seat, "bad_proof", f"mask step: {e}") from None

        return self._take(proof, check, lambda: self._took_mask(seat, elements, key))

    def _took_mask(self, seat: int, elements: tuple[bytes, ...], key: bytes) -> None:
        self.masked.append(elements)
        self.keys[seat] = key

    def on_rekey(self, seat: int, body: Mapping[str, Any], proof: str = NOW) -> Proof:
        """A re-key step (`elements`, `commitments`, `input`, `proof`), checked in full: the
        list, the commitments, then the proof that each position was re-keyed from the same
        position with the seat's mask swapped for the committed scalar (`proof` as for
        `on_mask`)."""
        checked = self._check_list(seat, "rekey", body["elements"])
        commitments = tuple(body["commitments"])
        if len(commitments) != self.size:
            raise Caught(seat, "malformed", "not one commitment per position")
        try:
            for c in commitments:
                check_element(c)
        except BadElement as e:
            raise Caught(seat, "bad_element", f"commitment: {e}") from None
        ctx = self._check_input(seat, "rekey", body)
        inputs, key = self.current, self.keys[seat]

        def check() -> None:
            try:
                proved = RekeyProof.of_body(body["proof"])
                rekey_proof.verify(ctx, inputs, checked, commitments, key, proved)
            except BadProof as e:
                raise Caught(seat, "bad_proof", f"re-key step: {e}") from None

        return self._take(proof, check, lambda: self._took_rekey(seat, checked, commitments))

    def _took_rekey(
        self, seat: int, elements: tuple[bytes, ...], commitments: tuple[bytes, ...]
    ) -> None:
        self.rekeyed.append(elements)
        self.commitments[seat] = commitments

    @staticmethod
    def _take(proof: str, check: Callable[[], None], took: Callable[[], None]) -> Proof:
        if proof == NOW:
            check()
        took()
        return check if proof == LATER else None

    def on_scalars(self, seat: int, scalars: Mapping[int, int]) -> None:
        """Seat publishes y_ij for some positions: each must open its commitment."""
        if self.phase != "sealed" or seat not in self.seats:
            raise Caught(seat, "out_of_turn", "scalars before the round is sealed")
        for position, y in scalars.items():
            if not 0 <= position < self.size:
                raise Caught(seat, "malformed", f"no position {position}")
            if not isinstance(y, int) or not 1 <= y < N:
                raise Caught(seat, "wrong_scalar", f"position {position}: out of range")
            if commit(y) != self.commitments[seat][position]:
                raise Caught(seat, "wrong_scalar", f"position {position}: fails its commitment")
        self.scalars.setdefault(seat, {}).update(scalars)

    def published(self, position: int, seats: Sequence[int]) -> list[int]:
        missing = [s for s in seats if position not in self.scalars.get(s, {})]
        if missing:
            raise ValueError(f"position {position} still needs the scalars of seats {missing}")
        return [self.scalars[s][position] for s in seats]

    def stripped(self, position: int, owner: int) -> bytes:
        """Position `position` with every mask but the owner's removed: x(y_sj · C)."""
        others = [s for s in self.seats if s != owner]
        return mul(self.rekeyed[-1][position], inverse(product(self.published(position, others))))

    def _card(self, element: bytes, position: int) -> int:
        card = self.book.card(element)
        if card is None or element not in self.start:
            raise DeckTampered(f"position {position} holds no card of this round")
        other = next((p for p, c in self.opened.items() if c == card and p != position), None)
        if other is not None:
            raise DeckTampered(f"card {card} is at positions {other} and {position}")
        self.opened[position] = card
        return card

    def open_for(self, owner: int, position: int, own_scalar: int) -> int:
        """The card at `position`, as its owner computes it with its own y_sj."""
        return self._card(mul(self.stripped(position, owner), inverse(own_scalar)), position)

    def revealed(self, position: int) -> int:
        """The card at `position` once every seat has published its y_ij for it."""
        ys = self.published(position, self.seats)
        return self._card(mul(self.rekeyed[-1][position], inverse(product(ys))), position)
