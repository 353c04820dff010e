"""The host relaying a sealed table's rounds, sans-IO (`protocol.sealed.round_driver`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from protocol.sealed.cards import CardBook
from protocol.sealed.deck import LATER, NOW, OWN, SealedRound
from protocol.sealed.draws import Draws
from protocol.sealed.errors import Caught, DeckTampered, Finding
from protocol.sealed.messages import (
    SealKey,
    SealMessage,
    SealOpen,
    SealReveal,
    SealRound,
    SealStep,
    SeatKey,
)
from protocol.sealed.passing import scalars_of
from protocol.sealed.round_steps import (
    DRAW_KINDS,
    EVIDENT,
    SEALING_KINDS,
    WRONG_PASS,
    Outgoing,
    RelayRound,
    check_reveal,
    check_scalars_step,
    load_key,
    on_reveal_scalars,
    reveal_ready,
    setup_bytes,
    shown_steps,
)
from protocol.sealed.signing import SignedStep, Step, verify
from protocol.sealed.transcript import Transcript


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
                check_reveal(step, r.size, k.owners, k.revealing, seat, k.moves)
                on_reveal_scalars(r, k.moves, step)
                try:
                    reveal_ready(r, [p for p, _ in step.body["scalars"]], k.revealed, {})
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
                reveal_ready(r, [p for p, _ in step.body["scalars"]], kept.revealed, {})
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
            check_scalars_step(step, r.size, r.seats)
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
            check_reveal(step, r.size, kept.owners, kept.revealing, sender, kept.moves)
            on_reveal_scalars(r, kept.moves, step)
