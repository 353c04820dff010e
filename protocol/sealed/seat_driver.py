"""One seat of a sealed table, across its rounds, sans-IO (`protocol.sealed.round_driver`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from protocol.sealed.cards import CardBook
from protocol.sealed.deck import NOW, OWN, SealedRound
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
)
from protocol.sealed.moves import sign_move
from protocol.sealed.passing import scalars_of
from protocol.sealed.round_steps import (
    DRAW_KINDS,
    RELAY_CHECKS,
    WRONG_PASS,
    SeatRound,
    check_reveal,
    check_scalars_step,
    load_key,
    on_reveal_scalars,
    public_bytes,
    reveal_ready,
    setup_bytes,
    shown_steps,
)
from protocol.sealed.shuffle import SeatSecrets, mask_body, proof_key, proof_nonces, rekey_body
from protocol.sealed.signing import SignedStep, Step, sign, table_signing_key, verify
from protocol.sealed.transcript import Transcript
from protocol.sealed.transfer import open_scalar, public_key, seal_scalar


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
            check_reveal(step, r.size, mine.owners, mine.revealing, self.relay, mine.moves)
            on_reveal_scalars(r, mine.moves, step)
            try:
                reveal_ready(r, [p for p, _ in step.body["scalars"]], mine.revealed, mine.hand)
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
                check_reveal(step, r.size, mine.owners, mine.revealing, self.relay, mine.moves)
                on_reveal_scalars(r, mine.moves, step)
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
                reveal_ready(r, [p for p, _ in step.body["scalars"]], mine.revealed, mine.hand)
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
        check_scalars_step(step, r.size, r.seats)
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
