"""A sealing round as each party runs it: messages in, messages out, nothing else.

Like h11, these drivers never touch a socket, a clock or a random source: the caller feeds
them the messages that arrived and sends the ones they return, and a seat's secrets come
from the `random_bytes` it was given (`os.urandom` at a table, a fixed stream in tests).

- `SeatDriver` is one seat. It learns the round from `seal_round`, makes its mask step and
  later its re-key step when its turn comes, answers each `seal_open` for another seat with
  its scalars of those positions, and unmasks the positions opened to it once every other
  seat's scalars are in.
- `RelayDriver` is the host as relay. Every step goes through it: it checks the signature, the
  round, the turn and the step itself before it sends the very message on to every seat of the
  round (its author too, so that every seat records the steps in the one order the relay
  chose), and keeps the transcript. The host is also a seat: it runs a `SeatDriver` beside
  its relay, wired in memory.

Who is named. The relay names the seat whose link a refused step came from: it is the first
to see it, so a bad signature, a step for another round, a replay or a step signed as
someone else is that sender's doing. A seat names the relay for everything the relay had to
refuse before relaying (a failing signature, another round, a replay, a step out of turn or
opening a position nobody asked for: an honest seat never signs that, and only the relay
orders the steps), and names the signer for what its own signature proves against it (a
malformed list, a repeated element, a scalar that fails its commitment).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from protocol.sealed.canonical import canonical
from protocol.sealed.cards import CardBook
from protocol.sealed.deck import SealedRound
from protocol.sealed.errors import Caught
from protocol.sealed.group import SCALAR_BYTES, RandomBytes
from protocol.sealed.messages import (
    SealKey,
    SealMessage,
    SealOpen,
    SealRound,
    SealStep,
    SeatKey,
    encode,
)
from protocol.sealed.shuffle import SeatSecrets, mask_and_shuffle, rekey
from protocol.sealed.signing import SignedStep, Step, sign, table_signing_key, verify
from protocol.sealed.transcript import Transcript

Outgoing = tuple[int, SealMessage]
"""A message and the seat it goes to."""

RELAY_CHECKS = frozenset({"out_of_turn"})
"""Findings the round state makes against a step's signer that a seat puts on the relay: the
relay had to check the turn before relaying, and an honest seat only ever steps in turn."""


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


def _scalars(body: Any) -> dict[int, int]:
    return {p: int.from_bytes(y, "big") for p, y in body["scalars"]}


def _check_scalars_step(step: Step, size: int, seats: Sequence[int]) -> None:
    """What a scalars step's own signature proves against its signer."""
    to = step.body["to"]
    positions = [p for p, _ in step.body["scalars"]]
    if to == step.seat or to not in seats:
        raise Caught(step.seat, "malformed", f"scalars opened to seat {to}, not another seat")
    if len(set(positions)) != len(positions) or not all(0 <= p < size for p in positions):
        raise Caught(step.seat, "malformed", "scalars for a position twice or for no position")


class SeatDriver:
    """One seat of a sealed table, across its rounds."""

    def __init__(self, seat: int, relay: int, random_bytes: RandomBytes) -> None:
        self.seat = seat
        self.relay = relay
        """The seat that hosts, named for what it should have refused."""
        self._random = random_bytes
        self._key = table_signing_key(random_bytes)
        self.table: bytes | None = None
        self.keys: dict[int, Ed25519PublicKey] = {}
        self._raw_keys: dict[int, bytes] = {}
        self.transcript: Transcript | None = None
        self.round_no: int | None = None
        self.round: SealedRound | None = None
        self.secrets: SeatSecrets | None = None
        self._slots: set[tuple[object, ...]] = set()
        self._stepped: set[str] = set()
        self.owners: dict[int, int] = {}
        """Each position opened so far, and the seat it was opened to."""
        self.hand: dict[int, int] = {}
        """This seat's cards so far, by position."""

    def hello(self) -> SealKey:
        """The seat's signing key, sent to the host once, before the first round."""
        return SealKey(public_bytes(self._key.public_key()))

    @property
    def hand_known(self) -> bool:
        """Every position opened to this seat so far is unmasked."""
        mine = [p for p, s in self.owners.items() if s == self.seat]
        return bool(mine) and all(p in self.hand for p in mine)

    def receive(self, msg: SealMessage) -> list[SealMessage]:
        """A message from the relay; what to send back to it. A `Caught` names who cheated."""
        if isinstance(msg, SealRound):
            return self._on_round(msg)
        if isinstance(msg, SealOpen):
            return self._on_open(msg)
        if isinstance(msg, SealStep):
            return self._on_step(msg)
        raise Caught(self.relay, "unexpected", f"a {msg.TYPE} message from the host")

    def _refuse(self, kind: str, detail: str) -> Caught:
        return Caught(self.relay, kind, detail)

    def _on_round(self, msg: SealRound) -> list[SealMessage]:
        if self.table is not None and msg.table != self.table:
            raise self._refuse("bad_setup", "a round of another table")
        if self.round_no is not None and msg.round != self.round_no + 1:
            raise self._refuse("wrong_round", f"round {msg.round} after round {self.round_no}")
        keys = {k.seat: k.key for k in msg.keys}
        if len(keys) != len(msg.keys) or set(keys) != set(msg.seats):
            raise self._refuse("bad_setup", "not one key per seat of the round")
        if keys.get(self.seat) != public_bytes(self._key.public_key()):
            raise self._refuse("bad_setup", "this seat's key is not the one it sent")
        if any(self._raw_keys.get(s, k) != k for s, k in keys.items()):
            raise self._refuse("bad_setup", "a seat's key changed between rounds")
        try:
            book = CardBook.of(msg.game, msg.cards)
            r = SealedRound.of_cards(book, msg.seats, msg.cards)
        except ValueError as e:
            raise self._refuse("bad_setup", str(e)) from None
        self.table = msg.table
        for seat, raw in keys.items():
            if seat not in self.keys:
                self.keys[seat] = load_key(self.relay, raw)
                self._raw_keys[seat] = raw
        if self.transcript is None:
            self.transcript = Transcript(msg.table)
        self.transcript.note(setup_bytes(msg))
        self.round_no, self.round = msg.round, r
        self.secrets = SeatSecrets.draw(r.size, self._random)
        self._stepped, self.owners, self.hand = set(), {}, {}
        return self._my_turn()

    def sign(self, kind: str, body: dict[str, Any]) -> SealStep:
        """A step of this seat in the current round, signed with its table key."""
        assert self.table is not None and self.round_no is not None
        step = Step(self.table, self.round_no, kind, self.seat, body)
        return SealStep.of(sign(self._key, step))

    def _my_turn(self) -> list[SealMessage]:
        r, s = self.round, self.secrets
        assert r is not None and s is not None
        if r.turn != self.seat or r.phase in self._stepped:
            return []
        self._stepped.add(r.phase)
        if r.phase == "mask":
            return [
                self.sign("mask", {"elements": mask_and_shuffle(r.current, s.mask, s.permutation)})
            ]
        elements, commitments = rekey(r.current, s.mask, s.rekeys)
        return [self.sign("rekey", {"elements": elements, "commitments": commitments})]

    def _current(self, round_no: int) -> SealedRound:
        if self.round is None or round_no != self.round_no:
            raise self._refuse("wrong_round", f"a message of round {round_no}, not {self.round_no}")
        return self.round

    def _on_open(self, msg: SealOpen) -> list[SealMessage]:
        r = self._current(msg.round)
        if r.phase != "sealed":
            raise self._refuse("out_of_turn", "an opening before the round is sealed")
        if msg.to not in r.seats:
            raise self._refuse("bad_open", f"an opening to seat {msg.to}, not in the round")
        if len(set(msg.positions)) != len(msg.positions) or any(p >= r.size for p in msg.positions):
            raise self._refuse("bad_open", "a position twice or no position of the round")
        again = [p for p in msg.positions if p in self.owners]
        if again:
            raise self._refuse("reopened", f"positions {again} were opened already")
        for p in msg.positions:
            self.owners[p] = msg.to
        if msg.to == self.seat:
            self._open_mine()
            return []
        assert self.secrets is not None
        ys = [[p, self.secrets.rekeys[p].to_bytes(SCALAR_BYTES, "big")] for p in msg.positions]
        return [self.sign("scalars", {"to": msg.to, "scalars": ys})]

    def _on_step(self, msg: SealStep) -> list[SealMessage]:
        r = self._current(msg.round)
        assert self.table is not None and self.transcript is not None
        signed = msg.signed(self.table)
        step = verify(signed, self.keys, self.relay)
        if step.slot in self._slots:
            raise self._refuse("replayed", f"seat {step.seat}'s {step.kind} step a second time")
        try:
            if step.kind == "mask":
                r.on_mask(step.seat, step.body["elements"])
            elif step.kind == "rekey":
                r.on_rekey(step.seat, step.body["elements"], step.body["commitments"])
            else:
                self._on_scalars(r, step)
        except Caught as e:
            if e.kind in RELAY_CHECKS:
                raise self._refuse(
                    e.kind, f"relayed seat {e.seat}'s step: {e.finding.detail}"
                ) from None
            raise
        self._slots.add(step.slot)
        self.transcript.add(signed)
        if step.kind == "scalars":
            self._open_mine()
            return []
        return self._my_turn()

    def _on_scalars(self, r: SealedRound, step: Step) -> None:
        _check_scalars_step(step, r.size, r.seats)
        to = step.body["to"]
        for p, _ in step.body["scalars"]:
            if self.owners.get(p) != to:
                raise self._refuse(
                    "unrequested", f"seat {step.seat} opened position {p} to seat {to}"
                )
        r.on_scalars(step.seat, _scalars(step.body))

    def _open_mine(self) -> None:
        r, s = self.round, self.secrets
        assert r is not None and s is not None
        others = [x for x in r.seats if x != self.seat]
        for p, owner in sorted(self.owners.items()):
            if owner != self.seat or p in self.hand:
                continue
            if all(p in r.scalars.get(x, {}) for x in others):
                self.hand[p] = r.open_for(self.seat, p, s.rekeys[p])


class RelayDriver:
    """The host relaying a sealed table's rounds: checks every step before every seat gets it."""

    def __init__(self, table: bytes, relay: int) -> None:
        self.table = table
        self.relay = relay
        self.keys: dict[int, Ed25519PublicKey] = {}
        self._raw_keys: dict[int, bytes] = {}
        self.transcript = Transcript(table)
        self.round_no: int | None = None
        self.round: SealedRound | None = None
        self._slots: set[tuple[object, ...]] = set()
        self.owners: dict[int, int] = {}

    @property
    def sealed(self) -> bool:
        return self.round is not None and self.round.phase == "sealed"

    def receive(self, sender: int, msg: SealMessage) -> list[Outgoing]:
        """A message from seat `sender`'s link; what to send to whom. A `Caught` names the
        sender: the step is not relayed."""
        if isinstance(msg, SealKey):
            return self._on_key(sender, msg)
        if isinstance(msg, SealStep):
            return self._on_step(sender, msg)
        raise Caught(sender, "unexpected", f"a {msg.TYPE} message from a seat")

    def _on_key(self, sender: int, msg: SealKey) -> list[Outgoing]:
        if self._raw_keys.get(sender, msg.key) != msg.key:
            raise Caught(sender, "key_changed", "a second signing key for the same table")
        self.keys[sender] = load_key(sender, msg.key)
        self._raw_keys[sender] = msg.key
        return []

    def begin(
        self, round_no: int, game: bytes, seats: Sequence[int], cards: Sequence[int]
    ) -> list[Outgoing]:
        """Start a round sealing `cards` among `seats`, in that order."""
        if self.round_no is not None and round_no != self.round_no + 1:
            raise ValueError(f"round {round_no} cannot follow round {self.round_no}")
        missing = [s for s in seats if s not in self.keys]
        if missing:
            raise ValueError(f"seats {missing} have sent no signing key")
        book = CardBook.of(game, cards)
        self.round = SealedRound.of_cards(book, seats, cards)
        self.round_no = round_no
        self._slots, self.owners = set(), {}
        keys = tuple(SeatKey(s, self._raw_keys[s]) for s in seats)
        msg = SealRound(self.table, round_no, game, tuple(seats), tuple(cards), keys)
        self.transcript.note(setup_bytes(msg))
        return [(s, msg) for s in seats]

    def open(self, to: int, positions: Sequence[int]) -> list[Outgoing]:
        """Deal `positions` to seat `to`: every other seat is asked for its scalars of them."""
        r = self.round
        if r is None or r.phase != "sealed":
            raise ValueError("positions are opened once the round is sealed")
        if to not in r.seats or any(p in self.owners or not 0 <= p < r.size for p in positions):
            raise ValueError("an opening to no seat of the round, or of a position taken")
        assert self.round_no is not None
        for p in positions:
            self.owners[p] = to
        msg = SealOpen(self.round_no, to, tuple(positions))
        return [(s, msg) for s in r.seats]

    def _on_step(self, sender: int, msg: SealStep) -> list[Outgoing]:
        r = self.round
        if r is None or msg.round != self.round_no:
            raise Caught(sender, "wrong_round", f"a step of round {msg.round}, not {self.round_no}")
        if msg.seat != sender:
            raise Caught(sender, "impersonated", f"sent a step signed as seat {msg.seat}")
        signed: SignedStep = msg.signed(self.table)
        step = verify(signed, self.keys, sender)
        if step.slot in self._slots:
            raise Caught(sender, "replayed", f"its {step.kind} step a second time")
        if step.kind == "mask":
            r.on_mask(sender, step.body["elements"])
        elif step.kind == "rekey":
            r.on_rekey(sender, step.body["elements"], step.body["commitments"])
        else:
            _check_scalars_step(step, r.size, r.seats)
            to = step.body["to"]
            asked = [p for p, _ in step.body["scalars"] if self.owners.get(p) != to]
            if asked:
                raise Caught(sender, "unrequested", f"opened positions {asked} to seat {to}")
            r.on_scalars(sender, _scalars(step.body))
        self._slots.add(step.slot)
        self.transcript.add(signed)
        return [(s, msg) for s in r.seats]
