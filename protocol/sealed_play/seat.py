"""A seat of a sealed table, sans-IO: its own engine instance beside its `SeatDriver`.

It learns its cards from the openings, works out its own legal moves and view (the classic
view of its seat, so a screen or a bot plays it unchanged), sends a card it plays as the
engine's sealed action after the `reveal` step that shows the card to everyone, and applies
every move the host says it applied (`seal_acted`) to its own engine, checking a played card
against what the reveal showed. Once the game is scored it publishes its secrets and its
transcript's digest, and when every seat's are in it runs the audit and says its verdict.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from netcards.action import Action
from netcards.errors import GameError
from netcards.game import TableConfig
from netcards.sealed_cards import Knowledge
from netcards.sealed_game import SealedGame
from protocol.sealed.errors import Caught, Finding
from protocol.sealed.group import SCALAR_BYTES, RandomBytes
from protocol.sealed.messages import SealAct, SealActed, SealKey, SealMessage, SealStep
from protocol.sealed.moves import check_move, move_step, moves_of
from protocol.sealed.round_driver import SeatDriver
from protocol.sealed.shuffle import SeatSecrets
from protocol.sealed.signing import SignedStep, verify
from protocol.sealed_play import choices
from protocol.sealed_play.audit import audit_game, describe
from protocol.sealed_play.awaited import Awaited, awaited
from protocol.sealed_play.progress import HOST, GameMirror, face_up, where
from protocol.sealed_play.told import Told

BROKEN = "broken"
"""The step of a seat that found the deck tampered with (docs/sealed.md, section 3)."""


def secrets_body(driver: SeatDriver) -> dict[str, Any]:
    """A seat's `secrets` step body: its digest, then its secrets of every round in order."""
    assert driver.transcript is not None
    kept = [driver.rounds[n].secrets for n in sorted(driver.rounds)]
    return {
        "digest": driver.transcript.digest,
        "masks": [s.mask.to_bytes(SCALAR_BYTES, "big") for s in kept],
        "permutations": [list(s.permutation) for s in kept],
        "rekeys": [[y.to_bytes(SCALAR_BYTES, "big") for y in s.rekeys] for s in kept],
    }


def secrets_of(body: Mapping[str, Any]) -> list[SeatSecrets]:
    return [
        SeatSecrets(
            int.from_bytes(m, "big"),
            tuple(perm),
            tuple(int.from_bytes(y, "big") for y in ys),
        )
        for m, perm, ys in zip(body["masks"], body["permutations"], body["rekeys"], strict=False)
    ]


class SealedSeat:
    def __init__(
        self,
        engine: SealedGame,
        config: TableConfig,
        public_seed: bytes,
        seat: int,
        random_bytes: RandomBytes,
    ) -> None:
        self.engine, self.config, self.public_seed, self.seat = engine, config, public_seed, seat
        self.driver = SeatDriver(seat, HOST, random_bytes)
        fork = getattr(random_bytes, "fork", None)
        self._nonce_key = (fork("choice nonces") if fork is not None else random_bytes)(32)
        """What this seat's choice nonces come from (`_nonce`): drawn once, here, so that the
        stream the seat's secrets come from is the same however many choices it makes, and
        a seat rebuilt from its kept seed draws the same secrets and the same nonces."""
        self.mirror = GameMirror(engine, engine.setup(config, public_seed))
        self.actions: list[tuple[int, dict[str, Any]]] = []
        self.openings: list[choices.Opened] = []
        """Every choice opening the host relayed, in order."""
        self._opened: set[int] = set()
        """The choice steps this seat has sent its opening of."""
        self.secrets: dict[int, list[SeatSecrets]] = {}
        self.digests: dict[int, bytes] = {}
        self.claims: set[int] = set()
        """The seats that said the deck was tampered with (`broken`), as the host relayed it:
        the game stops and every seat publishes its secrets for the audit."""
        self._published = False
        self._moves_sent: dict[int, tuple[dict[str, Any], tuple[Any, ...], SignedStep]] = {}
        """This seat's moves as it signed them (the action, the reveal, the signed move step),
        by number, until the host says it applied them."""
        self.finding: Finding | None = None
        self.verdict: str | None = None
        self.truth: Knowledge | None = None
        """Every slot's card, once the audit found every round sound (its replay's cards)."""
        self.told = Told()
        """Every place of the game the host told this seat of (`protocol/sealed_play/told.py`)."""

    @property
    def state(self) -> Any:
        return self.mirror.state

    def remember(self, previous: SealedSeat) -> None:
        """This seat is `previous` rebuilt (its link dropped and it came back): it holds the
        host to what the host told `previous`, so that a history sent back otherwise cannot
        have it sign, open or show anything it would not have in the game it played."""
        if (previous.seat, previous.public_seed) != (self.seat, self.public_seed):
            raise ValueError("a seat remembers only what was told to that seat in that game")
        self.told.places.update(previous.told.places)

    def hello(self) -> SealKey:
        return self.driver.hello()

    # -- what a screen or a bot reads --------------------------------------------------------

    def view(self) -> dict[str, Any]:
        return self.engine.view(self.state, self.seat, self.mirror.knowledge)

    def legal_actions(self) -> list[Action]:
        """This seat's moves now (sealed actions), none while a step is still to be done, nor
        once the game stopped (`stopped`)."""
        if self.stopped:
            return []
        return self.engine.legal_actions(self.state, self.seat, self.mirror.knowledge)

    def awaited(self) -> tuple[Awaited, ...]:
        """Whom the table waits for now, and for what, as this seat's own state shows it
        (`protocol/sealed_play/awaited.py`): nothing once a proof stopped the game."""
        if self.driver.proved is not None and not self.broken:
            return ()
        return awaited(
            self.engine,
            self.state,
            self.driver.rounds,
            self.driver.draws,
            tuple(range(self.state.players)),
            self.secrets,
            stopped=self.broken,
        )

    @property
    def stopped(self) -> bool:
        """No move is made any more: the deck was found tampered with (`broken`), or this seat
        proved a card passed to it wrong (`driver.proved`, which names the keeper whether or
        not the host ever relays the proof back)."""
        return self.broken or self.driver.proved is not None

    @property
    def broken(self) -> bool:
        """The deck was found tampered with, by this seat or another: the game stops here. So
        it does for a seat rebuilt after it stopped, even if the history sent back leaves the
        `broken` step out: its secrets are out, so it must not play on with a hand they show."""
        return self._stopped or bool(self.recalled)

    @property
    def _stopped(self) -> bool:
        """A `broken` step was taken in this seat's game as replayed, or this seat found the
        deck tampered with: from here on it publishes its secrets and signs nothing else (it
        still follows what the host relays, up to the alarm)."""
        return bool(self.claims) or self.driver.tampered is not None

    @property
    def recalled(self) -> set[int]:
        """The seats whose `broken` step this seat, or a seat it was rebuilt from, was told of
        (`told.py` keeps its place): a modified host could relay one to this seat alone, read
        the secrets it publishes, then drop its link and send back its history without it."""
        # A `broken` step's place is ("step", 0, "broken", seat) (`told.place`): looked up seat
        # by seat, not found by reading every place, as this is asked after every message.
        places = self.told.places
        return {s for s in range(self.state.players) if ("step", 0, BROKEN, s) in places}

    def _nonce(self, size: int) -> bytes:
        """The nonce of this seat's commitment in the choice step under way: one per step and
        seat, never reused (an opened nonce would otherwise let everyone test a later choice's
        few possible hands against its commitment), and found again after a rebuild."""
        step = choices.step_of(self.engine, self.state)
        label = b"netcards sealed choice nonce v5" + self._nonce_key
        return hashlib.sha256(label + (step or 0).to_bytes(8, "big")).digest()[:size]

    def act(self, action: Action) -> list[SealMessage]:
        """What to send for `action` (classic or sealed): a card played is shown first."""
        if self.broken:
            raise GameError("the deck was found tampered with: the game stops for the audit")
        if self.driver.proved is not None:
            raise GameError(f"a card passed to this seat was wrong: {self.driver.proved}")
        sealed = choices.seal_action(
            self.engine, self.state, self.seat, action, self.mirror.knowledge, self._nonce
        )
        data = self.engine.codec.encode(sealed)
        shown = self.driver.shown(face_up(self.engine, self.state, sealed))
        number = moves_of(self.actions, self.seat) + 1
        signed = self.driver.sign_move(number, data, shown)
        reveal = tuple(map(tuple, shown))
        self._moves_sent[number] = (data, reveal, signed)
        return [SealAct(data, number, reveal, signed.signature)]

    # -- messages from the host -----------------------------------------------------------------

    def receive(self, msg: SealMessage) -> list[SealMessage]:
        """A message from the host; what to send back. `Caught` names a cheat (the host as
        `HOST`)."""
        told = self.told.check(msg, HOST)
        if isinstance(msg, SealActed):
            self._acted(msg)
            out: list[SealMessage] = []
        elif isinstance(msg, SealStep) and msg.kind == "secrets":
            self._secrets(msg)
            out = []
        elif isinstance(msg, SealStep) and msg.kind == choices.CHOICE:
            self._choice(msg)
            out = []
        elif isinstance(msg, SealStep) and msg.kind == BROKEN:
            self._broken(msg)
            out = []
        else:
            self.mirror.check_asked(msg)
            out = self.driver.receive(msg)
        self._catch_up()
        if self._stopped:
            # It follows what the host relays (the steps and moves made before the alarm
            # reached the host, which are judged), but signs nothing more than its alarm and
            # its secrets: a step made after its secrets were out (a round a modified host
            # began after the alarm) would be one its secrets do not hold.
            out = self._stop()
            self.told.keep(told)
            return out
        due = self.mirror.draw_due
        if due is not None:
            # A draw is due: this seat commits on its own, as its own mirror says (no host
            # message asks it; every program's public state says the same).
            commitment = self.driver.draw_commit(due)
            if commitment is not None:
                out.append(commitment)
        out += self._open_choice()
        if self.engine.outcome(self.state) is not None and not self._published:
            self._published = True
            out.append(self.driver.sign("secrets", secrets_body(self.driver), 0))
        self.told.keep(told)
        return out

    def _stop(self) -> list[SealMessage]:
        """The deck was found tampered with: this seat says so if it found it itself, and
        publishes its secrets, once each; nothing else goes on."""
        out: list[SealMessage] = []
        if self.driver.tampered is not None and not self._said_broken:
            self._said_broken = True
            out.append(self.driver.sign(BROKEN, {}, 0))
        if not self._published:
            self._published = True
            out.append(self.driver.sign("secrets", secrets_body(self.driver), 0))
        return out

    _said_broken = False

    def _broken(self, msg: SealStep) -> None:
        """Another seat (or this one, relayed back) says the deck was tampered with."""
        assert self.driver.table is not None
        step = verify(msg.signed(self.driver.table), self.driver.keys, HOST)
        if self.engine.outcome(self.state) is not None:
            raise Caught(HOST, "out_of_turn", "relayed a broken deck after the game was scored")
        if step.seat in self.claims:
            raise Caught(HOST, "replayed", f"seat {step.seat + 1}'s broken step a second time")
        self.claims.add(step.seat)

    def _catch_up(self) -> None:
        def own(seat: int, number: int, p: int) -> int | None:
            return self.driver.rounds[number].hand.get(p) if seat == self.seat else None

        kept, draws = self.driver.rounds, self.driver.draws
        draws.asked = self.mirror.follow(kept, own, draws.values)

    def _choice(self, msg: SealStep) -> None:
        """An opening the host relayed: checked again (whatever is wrong, the host should have
        refused it), applied in the order relayed, and recorded in the transcript."""
        assert self.driver.table is not None and self.driver.transcript is not None
        signed = msg.signed(self.driver.table)
        step = verify(signed, self.driver.keys, HOST)
        self.mirror.events += choices.take(
            self.engine, self.state, self.mirror.knowledge, step, HOST
        )
        self.driver.transcript.add(signed)
        self.openings.append(choices.kept(step))

    def _open_choice(self) -> list[SealMessage]:
        """This seat's opening, once its engine asks for it (every asked seat has committed)."""
        choices.recall(self.engine, self.state, self.seat, self.mirror.knowledge, self._nonce)
        body = choices.due(self.engine, self.state, self.seat, self.mirror.knowledge)
        if body is None or body["step"] in self._opened:
            return []
        self._opened.add(body["step"])
        return [self.driver.sign(choices.CHOICE, body, 0)]

    def _acted(self, msg: SealActed) -> None:
        if msg.seq != len(self.actions) + 1:
            raise Caught(HOST, "out_of_turn", f"move {msg.seq} after move {len(self.actions)}")
        assert self.driver.table is not None
        table = self.driver.table
        # Our own move said back as we signed it, byte for byte, carries our own signature of
        # our own bytes: only a move that differs is checked against its seat's key.
        sent = self._moves_sent.pop(msg.number, None) if msg.seat == self.seat else None
        if sent is not None and sent[0] == msg.action and sent[1] == msg.reveal:
            signed: SignedStep | None = sent[2]
        else:
            signed = None
        if signed is None or signed.signature != msg.signature:
            move = move_step(table, msg.seat, msg.number, msg.action, msg.reveal)
            signed = SignedStep(move, msg.signature)
            check_move(self.driver.keys, signed, HOST)
        if msg.number != moves_of(self.actions, msg.seat) + 1:
            raise Caught(
                HOST,
                "replayed",
                f"applied seat {msg.seat + 1}'s move {msg.number} out of its order",
            )
        self.driver.take_reveal(msg.seat, msg.reveal)
        try:
            action = self.engine.codec.decode(dict(msg.action))
            for slot, claimed in self.engine.shows(action).items():
                number, p = where(self.state, slot)
                kept = self.driver.rounds.get(number)
                if kept is None or kept.revealed.get(p) != claimed:
                    raise Caught(HOST, "false_claim", "applied a card that slot did not show")
            self.mirror.events += self.engine.apply(
                self.state, msg.seat, action, self.mirror.knowledge
            )
        except GameError as exc:
            raise Caught(HOST, "illegal", f"applied move {msg.seq}: {exc}") from None
        self.actions.append((msg.seat, dict(msg.action)))
        # In the transcript too: two seats shown two moves, each signed by its seat (the host's
        # bot signing two of its own), end with other digests, and the audit names the host.
        assert self.driver.transcript is not None
        self.driver.transcript.add(signed)

    def _secrets(self, msg: SealStep) -> None:
        assert self.driver.table is not None
        step = verify(msg.signed(self.driver.table), self.driver.keys, HOST)
        if self.engine.outcome(self.state) is None and not self.broken:
            raise Caught(HOST, "out_of_turn", f"relayed seat {step.seat + 1}'s secrets mid-game")
        if step.seat in self.secrets:
            raise Caught(HOST, "replayed", f"seat {step.seat + 1}'s secrets a second time")
        self.secrets[step.seat] = secrets_of(step.body)
        self.digests[step.seat] = step.body["digest"]
        if set(self.secrets) >= set(self.driver.keys):
            self._audit()

    def _audit(self) -> None:
        assert self.driver.transcript is not None
        outcome = self.engine.outcome(self.state)
        truth = Knowledge()
        self.finding = audit_game(
            self.engine,
            self.config,
            self.public_seed,
            {n: r.round for n, r in self.driver.rounds.items()},
            self.secrets,
            self.digests,
            self.driver.transcript.digest,
            self.actions,
            None if outcome is None else outcome.to_data(),
            self.driver.draws,
            self.openings,
            self.claims | self.recalled,
            self.driver.transcript.earlier,
            truth,
        )
        self.verdict = describe(self.finding)
        if self.finding is None:
            self.truth = truth
