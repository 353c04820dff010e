"""A sealing round as each party runs it: messages in, messages out, nothing else.

(A little over 500 lines on purpose: the seat's and the relay's halves of one exchange, whose
checks mirror each other step for step, read best side by side.)

Like h11, these drivers never touch a socket, a clock or a random source: the caller feeds
them the messages that arrived and sends the ones they return, and a seat's secrets come
from the `random_bytes` it was given (`os.urandom` at a table, a fixed stream in tests).

- `SeatDriver` is one seat. It learns the round from `seal_round`, makes its mask step and
  later its re-key step when its turn comes, answers each `seal_open` for another seat with
  its scalars of those positions, and unmasks the positions opened to it once every other
  seat's scalars are in.
  A card is shown to everyone by a `reveal` step: its owner's scalars (a card played), or, asked
  by `seal_reveal`, every seat's (the hands shown at the end).
- `RelayDriver` is the host as relay. Every step goes through it: it checks the signature, the
  round, the turn and the step itself before it sends the very message on to every seat of the
  round (its author too, so that every seat records the steps in the one order the relay
  chose), and keeps the transcript. The host is also a seat: it runs a `SeatDriver` beside
  its relay, wired in memory.

Both keep every round by its number, not only the latest: a card of round 0 is played, and a
slot of round 0 opened, after round 1 (a reshuffle) has been sealed. Mask and re-key steps
belong to the latest round only; scalars and reveals to any round once it is sealed.

Who is named. The relay names the seat whose link a refused step came from: it is the first
to see it, so a bad signature, a step for another round, a replay or a step signed as
someone else is that sender's doing. A seat names the relay for everything the relay had to
refuse before relaying (a failing signature, another round, a replay, a step out of turn or
opening a position nobody asked for: an honest seat never signs that, and only the relay
orders the steps), and names the signer for what its own signature proves against it (a
malformed list, a repeated element, a scalar that fails its commitment).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from protocol.sealed.canonical import canonical
from protocol.sealed.cards import CardBook
from protocol.sealed.deck import LATER, NOW, OWN, SealedRound
from protocol.sealed.draws import Draws, draw_commitment
from protocol.sealed.errors import Caught, DeckTampered, Finding
from protocol.sealed.group import (
    SCALAR_BYTES,
    N,
    RandomBytes,
    commit,
    scalar_from,
)
from protocol.sealed.messages import (
    SealKey,
    SealMessage,
    SealOpen,
    SealReveal,
    SealRound,
    SealStep,
    SeatKey,
    encode,
)
from protocol.sealed.moves import sign_move
from protocol.sealed.passing import Moves, scalars_of
from protocol.sealed.shuffle import SeatSecrets, mask_body, proof_key, proof_nonces, rekey_body
from protocol.sealed.signing import SignedStep, Step, sign, table_signing_key, verify
from protocol.sealed.transcript import Transcript
from protocol.sealed.transfer import open_scalar, public_key, seal_scalar

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


def _on_reveal_scalars(r: SealedRound, moves: Moves, step: Step) -> None:
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


def _check_reveal(
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


def _reveal_ready(
    r: SealedRound, positions: Sequence[int], done: dict[int, int], known: Mapping[int, int]
) -> None:
    """Every position whose scalars are all in is shown: its card, for everyone. A card this
    program unmasked already (`known`: a seat's own hand) is the one the reveal shows, since
    every scalar of it opened its commitment: the same element unmasked by the same scalars."""
    for p in positions:
        if p not in done and all(p in r.scalars.get(s, {}) for s in r.seats):
            done[p] = known[p] if p in known else r.revealed(p)


def _check_scalars_step(step: Step, size: int, seats: Sequence[int]) -> None:
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


class SeatDriver:
    """One seat of a sealed table, across its rounds."""

    def __init__(self, seat: int, relay: int, random_bytes: RandomBytes) -> None:
        self.seat = seat
        self.relay = relay
        """The seat that hosts, named for what it should have refused."""
        self._random = random_bytes
        self._key = table_signing_key(random_bytes)
        self._proof_key = proof_key(self._key)
        """What this seat's proofs' nonces come from (`shuffle.proof_nonces`): its signing
        key's, so that no draw is taken from the stream its secrets come from."""
        self.table: bytes | None = None
        self.keys: dict[int, Ed25519PublicKey] = {}
        self._raw_keys: dict[int, bytes] = {}
        self.transcript: Transcript | None = None
        self.rounds: dict[int, SeatRound] = {}
        """Every round so far, by number."""
        self._slots: set[tuple[object, ...]] = set()
        self.draws = Draws()
        """The table's public random draws (`asked` is set by the seat's game)."""
        self._nonces: dict[int, bytes] = {}
        self._opened_draws: set[int] = set()
        self._signed: dict[tuple[object, ...], tuple[bytes, bytes]] = {}
        """This seat's own steps, by slot, as it signed them: bytes and signature."""
        self.tampered: str | None = None
        """Why this seat found the deck tampered with (an element unmasked to no card of its
        round, or to a card found at another position), if it did: its game then stops and
        every seat publishes its secrets, so that the audit names who did it."""
        self.proved: Finding | None = None
        """Whom this seat's own `wrong_pass` proof names: its game stops there, whether or not
        the relay ever sends the proof back."""

    def _found(self, exc: DeckTampered) -> None:
        self.tampered = self.tampered or str(exc)

    def hello(self) -> SealKey:
        """The seat's signing key, sent to the host once, before the first round."""
        return SealKey(public_bytes(self._key.public_key()))

    # -- the latest round, as a one-round caller sees it ------------------------------------

    @property
    def round_no(self) -> int | None:
        return max(self.rounds) if self.rounds else None

    def _latest(self) -> SeatRound | None:
        return self.rounds[max(self.rounds)] if self.rounds else None

    @property
    def round(self) -> SealedRound | None:
        latest = self._latest()
        return None if latest is None else latest.round

    @property
    def secrets(self) -> SeatSecrets | None:
        latest = self._latest()
        return None if latest is None else latest.secrets

    @property
    def owners(self) -> dict[int, int]:
        """Each position of the latest round opened so far, and the seat it was opened to."""
        latest = self._latest()
        return {} if latest is None else latest.owners

    @property
    def hand(self) -> dict[int, int]:
        """This seat's cards of the latest round so far, by position."""
        latest = self._latest()
        return {} if latest is None else latest.hand

    @property
    def hand_known(self) -> bool:
        """Every position opened to this seat so far, in every round, is unmasked."""
        mine = [
            (n, p) for n, r in self.rounds.items() for p, s in r.owners.items() if s == self.seat
        ]
        return bool(mine) and all(p in self.rounds[n].hand for n, p in mine)

    def receive(self, msg: SealMessage) -> list[SealMessage]:
        """A message from the relay; what to send back to it. A `Caught` names who cheated."""
        if isinstance(msg, SealRound):
            return self._on_round(msg)
        if isinstance(msg, SealOpen):
            return self._on_open(msg)
        if isinstance(msg, SealReveal):
            return self._on_reveal(msg)
        if isinstance(msg, SealStep):
            return self._on_step(msg)
        raise Caught(self.relay, "unexpected", f"a {msg.TYPE} message from the host")

    def _refuse(self, kind: str, detail: str) -> Caught:
        return Caught(self.relay, kind, detail)

    def _on_round(self, msg: SealRound) -> list[SealMessage]:
        if self.table is not None and msg.table != self.table:
            raise self._refuse("bad_setup", "a round of another table")
        latest = self.round_no
        if (latest is None and msg.round != 0) or (latest is not None and msg.round != latest + 1):
            raise self._refuse("wrong_round", f"round {msg.round} after round {latest}")
        keys = {k.seat: k.key for k in msg.keys}
        if len(keys) != len(msg.keys) or set(keys) != set(msg.seats):
            raise self._refuse("bad_setup", "not one key per seat of the round")
        if keys.get(self.seat) != public_bytes(self._key.public_key()):
            raise self._refuse("bad_setup", "this seat's key is not the one it sent")
        if any(self._raw_keys.get(s, k) != k for s, k in keys.items()):
            raise self._refuse("bad_setup", "a seat's key changed between rounds")
        try:
            book = CardBook.of(msg.game, msg.cards)
            r = SealedRound.of_cards(book, msg.seats, msg.cards, msg.table, msg.round)
        except ValueError as e:
            raise self._refuse("bad_setup", str(e)) from None
        self.table = msg.table
        for seat, raw in keys.items():
            if seat not in self.keys:
                self.keys[seat] = load_key(self.relay, raw)
                self._raw_keys[seat] = raw
        if self.transcript is None:
            self.transcript = Transcript(msg.table)
            self.draws.seats = tuple(sorted(keys))
        self.transcript.note(setup_bytes(msg))
        self.rounds[msg.round] = SeatRound(r, SeatSecrets.draw(r.size, self._random))
        return self._my_turn(msg.round)

    def sign_move(
        self, number: int, action: Mapping[str, Any], reveal: Sequence[Sequence[Any]] = ()
    ) -> SignedStep:
        """This seat's `number`-th move and the cards it shows, signed
        (`protocol/sealed/moves.py`)."""
        assert self.table is not None
        return sign_move(self._key, self.table, self.seat, number, action, reveal)

    def sign(self, kind: str, body: dict[str, Any], round_no: int | None = None) -> SealStep:
        """A step of this seat in round `round_no` (the latest by default), signed with its
        table key."""
        number = self.round_no if round_no is None else round_no
        assert self.table is not None and number is not None
        step = Step(self.table, number, kind, self.seat, body)
        signed = sign(self._key, step)
        self._signed[step.slot] = (step.signed_bytes(), signed.signature)
        return SealStep.of(signed)

    def _own(self, signed: SignedStep) -> bool:
        """A step of this seat's own relayed back to it as it signed it, byte for byte."""
        step = signed.step
        if step.seat != self.seat:
            return False
        own = self._signed.get(step.slot)
        return own is not None and own == (step.signed_bytes(), signed.signature)

    def _verify(self, signed: SignedStep) -> Step:
        """`verify`, the relay named for a forged step. A step of this seat's own relayed back
        to it as it signed it is its own signature of its own bytes: it is not checked again
        (a step that differs in any byte is)."""
        if self._own(signed):
            return signed.step
        return verify(signed, self.keys, self.relay)

    def _my_turn(self, number: int) -> list[SealMessage]:
        mine = self.rounds[number]
        r, s = mine.round, mine.secrets
        if r.turn != self.seat or r.phase in mine.stepped:
            return []
        mine.stepped.add(r.phase)
        ctx = r.context(self.seat)
        nonces = proof_nonces(self._proof_key, r.phase, ctx)
        if r.phase == "mask":
            return [self.sign("mask", mask_body(ctx, r.current, s, nonces), number)]
        return [self.sign("rekey", rekey_body(ctx, r.current, s, nonces), number)]

    def _round(self, round_no: int) -> SeatRound:
        mine = self.rounds.get(round_no)
        if mine is None:
            raise self._refuse("wrong_round", f"a message of round {round_no}, which never began")
        return mine

    def _sealed_round(self, round_no: int) -> SeatRound:
        mine = self._round(round_no)
        if mine.round.phase != "sealed":
            raise self._refuse("out_of_turn", "an opening before the round is sealed")
        return mine

    def _positions(self, mine: SeatRound, positions: Sequence[int]) -> None:
        if len(set(positions)) != len(positions) or any(p >= mine.round.size for p in positions):
            raise self._refuse("bad_open", "a position twice or no position of the round")

    def _on_open(self, msg: SealOpen) -> list[SealMessage]:
        mine = self._sealed_round(msg.round)
        if msg.to not in mine.round.seats:
            raise self._refuse("bad_open", f"an opening to seat {msg.to + 1}, not in the round")
        self._positions(mine, msg.positions)
        if any(p in mine.owners for p in msg.positions):
            return self._on_pass_asked(mine, msg)
        for p in msg.positions:
            mine.owners[p] = msg.to
            mine.moves.keepers[p] = msg.to
        if msg.to == self.seat:
            self._open_mine(mine)
            return []
        ys = [[p, mine.secrets.rekeys[p].to_bytes(SCALAR_BYTES, "big")] for p in msg.positions]
        return [self.sign("scalars", {"to": msg.to, "scalars": ys}, msg.round)]

    def _on_pass_asked(self, mine: SeatRound, msg: SealOpen) -> list[SealMessage]:
        """Positions already opened go to `to` privately: it sends its `pass_key`."""
        mine.moves.ask(mine.owners, msg.to, msg.positions, self.relay)
        if msg.to != self.seat:
            return []
        b = scalar_from(self._random)
        for p in msg.positions:
            mine.pass_secrets[p] = b
        body = {"positions": list(msg.positions), "key": public_key(b)}
        return [self.sign("pass_key", body, msg.round)]

    def _pass(self, mine: SeatRound, number: int, positions: Sequence[int]) -> list[SealMessage]:
        """This seat keeps `positions` (its scalar of each is the one still secret) and their
        new owner's key is in: its scalars, sealed to the new owner."""
        e = scalar_from(self._random)
        to = mine.moves.passing[positions[0]]
        ys = []
        for p in positions:
            y = mine.secrets.rekeys[p]
            ys.append([p, seal_scalar(y, mine.moves.keys[p], e, number, p)])
        body = {"to": to, "key": public_key(e), "scalars": ys}
        return [self.sign("pass", body, number)]

    def _passed_to_me(self, mine: SeatRound, step: Step) -> list[SealMessage]:
        """Open each scalar passed to this seat; one that fails its commitment is proved to
        everyone with this seat's key of the pass (`wrong_pass`), since nobody else can open
        it: every program then names the keeper, and the game stops."""
        r = mine.round
        for p, sealed in step.body["scalars"]:
            keeper = mine.moves.keepers[p]
            y = open_scalar(sealed, step.body["key"], mine.pass_secrets[p], step.round, p)
            if not 1 <= y < N or commit(y) != r.commitments[keeper][p]:
                positions = [q for q, _ in step.body["scalars"]]
                secret = mine.pass_secrets[p].to_bytes(SCALAR_BYTES, "big")
                body = {"positions": positions, "secret": secret}
                return [self.sign(WRONG_PASS, body, step.round)]
            mine.learnt[p] = y
            try:
                mine.hand[p] = r.open_for(keeper, p, y)
            except DeckTampered as exc:
                self._found(exc)
        return []

    def _on_reveal(self, msg: SealReveal) -> list[SealMessage]:
        mine = self._sealed_round(msg.round)
        self._positions(mine, msg.positions)
        mine.revealing.update(msg.positions)
        # Only scalars not published yet: each step then carries a scalar some position still
        # needs, so once every asked position shows its card no step of this reveal is still
        # on its way, and every seat's transcript ends at the same step.
        published = mine.round.scalars.get(self.seat, {})
        fresh = [p for p in msg.positions if p not in published]
        return [self.reveal(msg.round, fresh)] if fresh else []

    def shown(self, face_up: Mapping[int, Sequence[int]]) -> list[list[Any]]:
        """A card play's reveal (`moves.Shown`): this seat's scalar of each position, by round:
        its own y, or, for a card passed to it, its keeper's."""
        out: list[list[Any]] = []
        for number, positions in sorted(face_up.items()):
            mine = self.rounds[number]
            for p in positions:
                y = mine.learnt.get(p, mine.secrets.rekeys[p])
                out.append([number, p, y.to_bytes(SCALAR_BYTES, "big")])
        return out

    def take_reveal(self, seat: int, reveal: Sequence[Sequence[Any]]) -> None:
        """A move's reveal, relayed in `seal_acted` (its signature checked): taken as its reveal
        steps would be, every card it shows read."""
        assert self.table is not None
        for step in shown_steps(self.table, seat, reveal):
            mine = self._sealed_round(step.round)
            r = mine.round
            _check_reveal(step, r.size, mine.owners, mine.revealing, self.relay, mine.moves)
            _on_reveal_scalars(r, mine.moves, step)
            try:
                _reveal_ready(r, [p for p, _ in step.body["scalars"]], mine.revealed, mine.hand)
            except DeckTampered as exc:
                self._found(exc)

    def reveal(self, round_no: int, positions: Sequence[int]) -> SealStep:
        """This seat's scalars of `positions` of round `round_no`, to everyone: a card of its
        own it plays, or positions the relay asked every seat to show."""
        mine = self.rounds[round_no]
        ys = [
            [p, mine.learnt.get(p, mine.secrets.rekeys[p]).to_bytes(SCALAR_BYTES, "big")]
            for p in positions
        ]
        return self.sign("reveal", {"scalars": ys}, round_no)

    # -- public random draws (protocol/sealed/draws.py) ---------------------------------------

    def draw_commit(self, draw: int) -> SealStep | None:
        """This seat's commitment to draw `draw`, once (None if it committed already)."""
        if draw in self._nonces:
            return None
        nonce = self._random(32)
        self._nonces[draw] = nonce
        body = {"draw": draw, "digest": draw_commitment(draw, self.seat, nonce)}
        return self.sign("draw_commit", body, 0)

    def _on_draw(self, msg: SealStep) -> list[SealMessage]:
        assert self.table is not None and self.transcript is not None
        signed = msg.signed(self.table)
        step = self._verify(signed)
        if step.slot in self._slots:
            raise self._refuse("replayed", f"seat {step.seat + 1}'s {step.kind} step a second time")
        draw = step.body["draw"]
        if step.kind == "draw_commit":
            self.draws.on_commit(step.seat, draw, step.body["digest"], self.relay)
        else:
            self.draws.on_open(step.seat, draw, step.body["nonce"], self.relay)
        self._slots.add(step.slot)
        self.transcript.add(signed)
        if self.draws.committed(draw) and draw in self._nonces and draw not in self._opened_draws:
            self._opened_draws.add(draw)
            return [self.sign("draw_open", {"draw": draw, "nonce": self._nonces[draw]}, 0)]
        return []

    def _on_step(self, msg: SealStep) -> list[SealMessage]:
        if msg.kind in DRAW_KINDS:
            return self._on_draw(msg)
        mine = self._round(msg.round)
        r = mine.round
        assert self.table is not None and self.transcript is not None
        if msg.kind in ("mask", "rekey") and msg.round != self.round_no:
            raise self._refuse("wrong_round", f"a {msg.kind} step of round {msg.round}")
        signed = msg.signed(self.table)
        step = self._verify(signed)
        if step.slot in self._slots:
            raise self._refuse("replayed", f"seat {step.seat + 1}'s {step.kind} step a second time")
        proof: list[SealMessage] = []
        made = OWN if self._own(signed) else NOW  # its own step's proof: it made it
        try:
            if step.kind == "mask":
                r.on_mask(step.seat, step.body, made)
            elif step.kind == "rekey":
                r.on_rekey(step.seat, step.body, made)
            elif step.kind == "scalars":
                self._on_scalars(mine, step)
            elif step.kind == "pass_key":
                mine.moves.on_key(step, self.relay)
            elif step.kind == "pass":
                mine.moves.on_pass(step, self.relay)
                if step.body["to"] == self.seat:
                    proof = self._passed_to_me(mine, step)
            elif step.kind == WRONG_PASS:
                finding = mine.moves.judge(step, r.commitments)
                raise Caught(finding.seat, finding.kind, finding.detail)
            else:
                _check_reveal(step, r.size, mine.owners, mine.revealing, self.relay, mine.moves)
                _on_reveal_scalars(r, mine.moves, step)
        except Caught as e:
            if e.kind in RELAY_CHECKS:
                raise self._refuse(
                    e.kind, f"relayed seat {e.seat + 1}'s step: {e.finding.detail}"
                ) from None
            raise
        self._slots.add(step.slot)
        self.transcript.add(signed)
        if step.kind == "scalars":
            self._open_mine(mine)
            return []
        if step.kind == "reveal":
            try:
                _reveal_ready(r, [p for p, _ in step.body["scalars"]], mine.revealed, mine.hand)
            except DeckTampered as exc:
                self._found(exc)
            return []
        if step.kind == "pass_key":
            held = [p for p in step.body["positions"] if mine.moves.keepers.get(p) == self.seat]
            return self._pass(mine, msg.round, held) if held else []
        if step.kind == "pass":
            mine.moves.done(step, mine.owners)
            said = proof[0] if proof else None
            if isinstance(said, SealStep) and self.proved is None:
                # Judged as every program judges it: this seat needs no echo to know the keeper.
                self.proved = mine.moves.judge(said.signed(self.table).step, r.commitments)
            return proof
        return self._my_turn(msg.round)

    def _on_scalars(self, mine: SeatRound, step: Step) -> None:
        r = mine.round
        _check_scalars_step(step, r.size, r.seats)
        to = step.body["to"]
        for p, _ in step.body["scalars"]:
            if mine.owners.get(p) != to:
                raise self._refuse(
                    "unrequested", f"seat {step.seat + 1} opened position {p} to seat {to + 1}"
                )
        r.on_scalars(step.seat, scalars_of(step.body))

    def _open_mine(self, mine: SeatRound) -> None:
        r, s = mine.round, mine.secrets
        others = [x for x in r.seats if x != self.seat]
        for p, owner in sorted(mine.owners.items()):
            if owner != self.seat or p in mine.hand:
                continue
            if all(p in r.scalars.get(x, {}) for x in others):
                try:
                    mine.hand[p] = r.open_for(self.seat, p, s.rekeys[p])
                except DeckTampered as exc:
                    self._found(exc)


class RelayDriver:
    """The host relaying a sealed table's rounds: checks every step before every seat gets it.

    With `later_proofs`, a mask or re-key step is passed on once everything but its proof is
    checked, and its proof is checked right after (`check_proofs`), while the seats check it
    too: a round's steps then wait on one check of each proof, the next seat's, instead of two.
    A proof that fails stops the game as if the step had been refused: every seat has the step,
    checks it itself and names its signer."""

    def __init__(self, table: bytes, relay: int, later_proofs: bool = False) -> None:
        self.table = table
        self.relay = relay
        self._later = later_proofs
        self._unproved: list[Callable[[], None]] = []
        self.keys: dict[int, Ed25519PublicKey] = {}
        self._raw_keys: dict[int, bytes] = {}
        self.transcript = Transcript(table)
        self.rounds: dict[int, RelayRound] = {}
        """Every round so far, by number."""
        self._slots: set[tuple[object, ...]] = set()
        self.draws = Draws()
        """The table's public random draws (`asked` is set by the host's game)."""
        self.proved: Finding | None = None
        """Who a step proved at fault, if one came (a `wrong_pass` step, or a step whose own
        signature proves its signer wrong, `EVIDENT`): the game stops there."""
        self.tampered: str | None = None
        """Why a card revealed to everyone showed the deck tampered with, if one did. The step
        is relayed all the same: every seat finds it too, and the seats, not the relay, say so
        (`broken`)."""

    @property
    def round_no(self) -> int | None:
        return max(self.rounds) if self.rounds else None

    @property
    def round(self) -> SealedRound | None:
        return None if self.round_no is None else self.rounds[self.round_no].round

    @property
    def owners(self) -> dict[int, int]:
        return {} if self.round_no is None else self.rounds[self.round_no].owners

    @property
    def sealed(self) -> bool:
        """The latest round is sealed."""
        return self.round is not None and self.round.phase == "sealed"

    def receive(self, sender: int, msg: SealMessage, made_here: bool = False) -> list[Outgoing]:
        """A message from seat `sender`'s link; what to send to whom. A `Caught` names the
        sender: the step is not relayed. `made_here`: the step of a seat this program plays
        (the host's bot), whose proof it made and need not check."""
        if isinstance(msg, SealKey):
            return self._on_key(sender, msg)
        if isinstance(msg, SealStep):
            return self._on_step(sender, msg, made_here)
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
        latest = self.round_no
        if (latest is None and round_no != 0) or (latest is not None and round_no != latest + 1):
            raise ValueError(f"round {round_no} cannot follow round {latest}")
        missing = [s for s in seats if s not in self.keys]
        if missing:
            raise ValueError(f"seats {[s + 1 for s in missing]} have sent no signing key")
        book = CardBook.of(game, cards)
        if not self.rounds:
            self.draws.seats = tuple(sorted(seats))
        self.rounds[round_no] = RelayRound(
            SealedRound.of_cards(book, seats, cards, self.table, round_no)
        )
        keys = tuple(SeatKey(s, self._raw_keys[s]) for s in seats)
        msg = SealRound(self.table, round_no, game, tuple(seats), tuple(cards), keys)
        self.transcript.note(setup_bytes(msg))
        return [(s, msg) for s in seats]

    def _sealed_round(self, round_no: int | None) -> tuple[int, RelayRound]:
        number = self.round_no if round_no is None else round_no
        kept = None if number is None else self.rounds.get(number)
        if number is None or kept is None or kept.round.phase != "sealed":
            raise ValueError("positions are opened once the round is sealed")
        return number, kept

    def open(
        self, to: int, positions: Sequence[int], round_no: int | None = None
    ) -> list[Outgoing]:
        """Deal `positions` of round `round_no` (the latest by default) to seat `to`: every
        other seat is asked for its scalars of them."""
        number, kept = self._sealed_round(round_no)
        r = kept.round
        if to not in r.seats or any(not 0 <= p < r.size for p in positions):
            raise ValueError("an opening to no seat of the round, or of no position")
        if any(p in kept.owners for p in positions):
            # Held by a seat already: passed to `to` privately (protocol/sealed/transfer.py).
            try:
                kept.moves.ask(kept.owners, to, positions, self.relay)
            except Caught:
                raise ValueError(
                    "positions held already cannot all be passed to that seat"
                ) from None
        else:
            for p in positions:
                kept.owners[p] = to
                kept.moves.keepers[p] = to
        msg = SealOpen(number, to, tuple(positions))
        return [(s, msg) for s in r.seats]

    def reveal(self, positions: Sequence[int], round_no: int | None = None) -> list[Outgoing]:
        """Show `positions` of round `round_no` to everyone: every seat is asked for its
        scalars of them (a seat sends only those it has not published yet)."""
        number, kept = self._sealed_round(round_no)
        if len(set(positions)) != len(positions) or any(
            not 0 <= p < kept.round.size for p in positions
        ):
            raise ValueError("a position twice, or no position of the round")
        kept.revealing.update(positions)
        msg = SealReveal(number, tuple(positions))
        return [(s, msg) for s in kept.round.seats]

    def check_proofs(self) -> Finding | None:
        """Check the proofs of the steps passed on before their proofs were (`later_proofs`):
        the first that fails is `proved`, and the game stops there."""
        waiting, self._unproved = self._unproved, []
        for check in waiting:
            try:
                check()
            except Caught as exc:
                self.proved = self.proved or exc.finding
                return exc.finding
        return None

    def take_reveal(self, seat: int, reveal: Sequence[Sequence[Any]]) -> Callable[[], None]:
        """A move's reveal, its signature checked: taken as its reveal steps would be (`Caught`
        names the seat), every card it shows read. Returns what puts every round back as it
        was, for a move refused after its reveal was read (nobody else ever sees that reveal)."""
        steps = shown_steps(self.table, seat, reveal)
        kept = {step.round: self.rounds.get(step.round) for step in steps}
        saved = {
            n: (
                dict(k.revealed),
                dict(k.round.opened),
                {s: dict(ys) for s, ys in k.round.scalars.items()},
            )
            for n, k in kept.items()
            if k is not None
        }

        def undo() -> None:
            for n, (revealed, opened, scalars) in saved.items():
                k = self.rounds[n]
                k.revealed.clear()
                k.revealed.update(revealed)
                k.round.opened.clear()
                k.round.opened.update(opened)
                k.round.scalars.clear()
                k.round.scalars.update(scalars)

        try:
            for step in steps:
                k = kept[step.round]
                if k is None or k.round.phase != "sealed":
                    raise Caught(
                        seat, "out_of_turn", f"a card of round {step.round} shown unsealed"
                    )
                r = k.round
                _check_reveal(step, r.size, k.owners, k.revealing, seat, k.moves)
                _on_reveal_scalars(r, k.moves, step)
                try:
                    _reveal_ready(r, [p for p, _ in step.body["scalars"]], k.revealed, {})
                except DeckTampered as exc:
                    self.tampered = self.tampered or str(exc)
        except Caught:
            undo()
            raise
        return undo

    def revealed(self, round_no: int) -> dict[int, int]:
        """The cards of round `round_no` shown to everyone so far, by position."""
        return self.rounds[round_no].revealed

    def _on_draw(self, sender: int, msg: SealStep) -> list[Outgoing]:
        if msg.seat != sender:
            raise Caught(sender, "impersonated", f"sent a step signed as seat {msg.seat + 1}")
        signed = msg.signed(self.table)
        step = verify(signed, self.keys, sender)
        if step.slot in self._slots:
            raise Caught(sender, "replayed", f"its {step.kind} step a second time")
        draw = step.body["draw"]
        if step.kind == "draw_commit":
            self.draws.on_commit(sender, draw, step.body["digest"], sender)
        else:
            self.draws.on_open(sender, draw, step.body["nonce"], sender)
        self._slots.add(step.slot)
        self.transcript.add(signed)
        return [(s, msg) for s in self.draws.seats]

    def _on_step(self, sender: int, msg: SealStep, made_here: bool = False) -> list[Outgoing]:
        if msg.kind in DRAW_KINDS:
            return self._on_draw(sender, msg)
        kept = self.rounds.get(msg.round)
        if kept is None or (msg.kind in ("mask", "rekey") and msg.round != self.round_no):
            raise Caught(sender, "wrong_round", f"a step of round {msg.round}, not {self.round_no}")
        r = kept.round
        if msg.seat != sender:
            raise Caught(sender, "impersonated", f"sent a step signed as seat {msg.seat + 1}")
        signed: SignedStep = msg.signed(self.table)
        step = verify(signed, self.keys, sender)
        if step.slot in self._slots:
            raise Caught(sender, "replayed", f"its {step.kind} step a second time")
        try:
            self._check(sender, kept, step, made_here)
        except Caught as e:
            if e.seat != sender or e.kind not in EVIDENT or step.kind not in SEALING_KINDS:
                raise
            # The step itself proves its signer at fault: every seat is shown it, checks it
            # and names the signer, and the game stops here.
            self.proved = self.proved or e.finding
            return [(s, msg) for s in r.seats]
        self._slots.add(step.slot)
        self.transcript.add(signed)
        if step.kind == "pass":
            kept.moves.done(step, kept.owners)
        if step.kind == "reveal":
            try:
                _reveal_ready(r, [p for p, _ in step.body["scalars"]], kept.revealed, {})
            except DeckTampered as exc:
                self.tampered = self.tampered or str(exc)
        return [(s, msg) for s in r.seats]

    def _check(self, sender: int, kept: RelayRound, step: Step, made_here: bool) -> None:
        """Everything a step of a round is checked for before it is relayed (`Caught`)."""
        r = kept.round
        when = OWN if made_here else LATER if self._later else NOW
        if step.kind in ("mask", "rekey"):
            take = r.on_mask if step.kind == "mask" else r.on_rekey
            check = take(sender, step.body, when)
            if check is not None:
                self._unproved.append(check)
        elif step.kind == "scalars":
            _check_scalars_step(step, r.size, r.seats)
            to = step.body["to"]
            asked = [p for p, _ in step.body["scalars"] if kept.owners.get(p) != to]
            if asked:
                raise Caught(sender, "unrequested", f"opened positions {asked} to seat {to + 1}")
            r.on_scalars(sender, scalars_of(step.body))
        elif step.kind == "pass_key":
            kept.moves.on_key(step, sender)
        elif step.kind == "pass":
            kept.moves.on_pass(step, sender)
        elif step.kind == WRONG_PASS:
            if self.proved is None:
                self.proved = kept.moves.judge(step, r.commitments)
        else:
            if r.phase != "sealed":
                raise Caught(sender, "out_of_turn", "a reveal before the round is sealed")
            _check_reveal(step, r.size, kept.owners, kept.revealing, sender, kept.moves)
            _on_reveal_scalars(r, kept.moves, step)
