"""The host of a sealed table, sans-IO: its engine instance, the relay, and its bots' seats.

The host knows the public record and its own bots' hands, nothing else: its engine instance's
knowledge holds exactly that. It drives the game: whenever its engine lists a round to seal, a
slot to open (or, held by a seat already, to pass privately), a slot to show to everyone or (at
the end) a hand to reveal, it starts that step through its `RelayDriver`, and when a public
random draw is due its bots commit to it (every seat does so on its own, from its own mirror);
the seats it hosts as bots answer in memory (`SeatDriver`s the host runs), the others over
their links. A move is taken only when no step is pending (`StepPending` otherwise), and a card
played only once its owner's `reveal` step has shown it to everyone, and only as that card: a
seat that claims another is named (`false_claim`). Every accepted move goes to every seat as
`seal_acted`. At the end every seat's `secrets` step is relayed to all, and the host audits too;
so it is at once when a seat says the deck was tampered with (`broken`): the game stops there,
and from then on the host relays nothing but `broken` and `secrets` steps, so that every program
judges the game as the alarm found it (docs/sealed.md, section 3).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from typing import Any

from netcards.action import Action
from netcards.errors import GameError, NotYourTurn, StepPending
from netcards.game import TableConfig
from netcards.sealed_game import SealedGame, to_show
from protocol.sealed.errors import Caught, Finding
from protocol.sealed.group import RandomBytes
from protocol.sealed.messages import SealAct, SealActed, SealKey, SealMessage, SealStep
from protocol.sealed.moves import acted_move, acted_step, check_move, moves_of
from protocol.sealed.round_driver import WRONG_PASS, Outgoing, RelayDriver, SeatDriver
from protocol.sealed.shuffle import SeatSecrets
from protocol.sealed.signing import verify
from protocol.sealed_play import choices
from protocol.sealed_play.audit import audit_game, describe
from protocol.sealed_play.awaited import Awaited, awaited
from protocol.sealed_play.progress import HOST, GameMirror, face_up, where
from protocol.sealed_play.seat import BROKEN, secrets_body, secrets_of

BotChoice = Callable[[int, dict[str, Any], list[Action]], Action]
"""How the host's bot for a seat chooses: (seat, its view, its legal sealed actions)."""


class SealedHost:
    def __init__(
        self,
        engine: SealedGame,
        config: TableConfig,
        public_seed: bytes,
        table: bytes,
        game: bytes,
        bots: Mapping[int, BotChoice],
        random_bytes: RandomBytes,
    ) -> None:
        self.engine, self.config, self.public_seed = engine, config, public_seed
        self.game = game
        self.players = config.players
        self.relay = RelayDriver(table, HOST, later_proofs=True)
        self.bots = {s: SeatDriver(s, HOST, random_bytes) for s in bots}
        self._random = random_bytes
        self._choose = dict(bots)
        for s, driver in self.bots.items():
            self.relay.receive(s, driver.hello())
        self.mirror = GameMirror(engine, engine.setup(config, public_seed))
        self.actions: list[tuple[int, dict[str, Any]]] = []
        self.openings: list[choices.Opened] = []
        """Every choice opening relayed, in order (the audit replays them between the moves)."""
        self.secrets: dict[int, list[SeatSecrets]] = {}
        self.digests: dict[int, bytes] = {}
        self.claims: set[int] = set()
        """The seats that said the deck was tampered with (`broken`): the game stops, every
        seat publishes its secrets, and the audit names who tampered (or, if nobody did, the
        first of them, for a false alarm)."""
        self.started = False
        self.finding: Finding | None = None
        self.verdict: str | None = None
        self.pending = False
        """The host's bots have work left by the last message received (`drive`)."""
        self._for_bots: list[Outgoing] = []
        self.watch: Callable[[int | None], None] | None = None
        """Told after every move (its seat) and every step the public state may have moved with
        (None), while the state is as that move or step left it: the table feeds its
        spectators the public view from here, one view per move even when bots move in a row."""

    @property
    def state(self) -> Any:
        return self.mirror.state

    @property
    def stopped(self) -> bool:
        """A seat said the deck was broken, or a pass was proved wrong: no move is taken."""
        return bool(self.claims) or self.relay.proved is not None

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(range(self.players))

    def ready_to_start(self) -> bool:
        return all(s in self.relay.keys for s in self.seats)

    def start(self) -> list[Outgoing]:
        """Every seat's key is in: the first round begins."""
        self.started = True
        self.pending = True
        return self.drive()

    def waiting_for(self) -> list[int]:
        """The seats a public random draw waits for (a commitment or an opening): a seat that
        withholds one stalls the game and is named here."""
        return self.relay.draws.waiting_for()

    def awaited(self) -> tuple[Awaited, ...]:
        """Whom the table waits for now, and for what (`protocol/sealed_play/awaited.py`):
        before the first round, the seats whose signing key is not in; nothing once a proof
        stopped the game."""
        if not self.started:
            return tuple(Awaited(s, "key") for s in self.seats if s not in self.relay.keys)
        if self.relay.proved is not None and not self.claims:
            return ()
        return awaited(
            self.engine,
            self.state,
            self.relay.rounds,
            self.relay.draws,
            self.seats,
            self.secrets,
            stopped=bool(self.claims),
        )

    @property
    def outcome(self) -> Any:
        return self.engine.outcome(self.state)

    # -- messages from the seats ------------------------------------------------------------------

    def receive(self, sender: int, msg: SealMessage) -> list[Outgoing]:
        """A message from seat `sender`'s link and everything the host's bots do after it;
        what to send to whom. `Caught` names the sender (nothing is relayed); `StepPending` or
        another `GameError` refuses a move."""
        return self.take(sender, msg) + self.drive()

    def take(self, sender: int, msg: SealMessage) -> list[Outgoing]:
        """`receive` up to the bots: what the message itself sends to the remote seats (a
        move's `seal_acted`, a step relayed). What it leaves the host's bots to do (the steps
        relayed to them, the steps the engine asks for next, their replies and moves) waits
        for `drive`, so that a player hears its move was taken without waiting for the bots'
        reply. `drive` runs before the next message is taken (one is refused until then): the
        bots' randomness and every seat's messages then come in the same order whenever it
        runs, as when a resumed host replays its journal with `receive`."""
        if self.pending:
            raise RuntimeError("the host's bots have work left: drive them first")
        if self.claims and isinstance(msg, SealStep) and msg.kind not in ("secrets", BROKEN):
            # Sent before its seat heard of the alarm: the game stopped at the first `broken`
            # step, and what was not complete then counts for nothing (docs/sealed.md, section
            # 3), so it is not relayed. A move is refused (`_act`).
            self._for_bots, self.pending = [], True
            return []
        if isinstance(msg, SealKey):
            out = self.relay.receive(sender, msg)
        elif isinstance(msg, SealStep) and msg.kind == "secrets":
            out = self._secrets(sender, msg)
        elif isinstance(msg, SealStep) and msg.kind == BROKEN:
            out = self._broken(sender, msg)
        elif isinstance(msg, SealStep) and msg.kind == choices.CHOICE:
            out = self._choice(sender, msg)
        elif isinstance(msg, SealAct):
            out = self._act(sender, msg)
        else:
            out = self.relay.receive(sender, msg)
            proved = self.relay.proved
            if proved is not None and self.finding is None:
                # A receiver proved a pass wrong, or called a good one wrong, or a seat's step
                # proved itself wrong (shown to the remote seats, which name its signer; the
                # host's bots need not check it again): the game stops.
                self.finding, self.verdict = proved, describe(proved)
                if isinstance(msg, SealStep) and msg.kind != WRONG_PASS:
                    out = [(to, m) for to, m in out if to not in self.bots]
        # The order in which `_drive` would have sent them: every remote message of `out`
        # comes before anything the bots answer.
        self._for_bots = [(to, m) for to, m in out if to in self.bots]
        self.pending = True
        return [(to, m) for to, m in out if to not in self.bots]

    def drive(self) -> list[Outgoing]:
        """The host's bots do what the last message left them, in memory, until the game
        waits for a remote seat; what to send to the remote seats."""
        out, self._for_bots, self.pending = self._for_bots, [], False
        failed = self.relay.check_proofs()
        if failed is not None:
            # A step passed on before its proof was checked fails it: every remote seat has it
            # and names its signer; the host's bots need not take it.
            if self.finding is None:
                self.finding, self.verdict = failed, describe(failed)
            return []
        return self._drive(out)

    def _act(self, seat: int, msg: SealAct) -> list[Outgoing]:
        engine, state = self.engine, self.state
        if self.claims:
            raise GameError("a seat said the deck was tampered with: the game stopped")
        if self.stopped:
            raise GameError("a cheat was found: the game stops")
        state.ledger.check_ready()
        expected = moves_of(self.actions, seat) + 1
        if msg.number != expected:
            raise NotYourTurn(
                f"that was seat {seat + 1}'s move {msg.number}; its next move is move {expected}"
            )
        assert self.relay.table is not None
        signed = acted_move(self.relay.table, seat, msg)
        check_move(self.relay.keys, signed, seat)
        action = engine.codec.decode(dict(msg.action))
        undo = self.relay.take_reveal(seat, msg.reveal)
        try:
            if seat in engine.to_act(state):
                for slot, claimed in engine.shows(action).items():
                    number, p = where(state, slot)
                    kept = self.relay.rounds.get(number)
                    shown = None if kept is None else kept.revealed.get(p)
                    if shown is None:
                        raise StepPending("a card is played with its scalar, which shows it")
                    if shown != claimed:
                        raise Caught(
                            seat, "false_claim", f"claimed card {claimed}, its slot holds {shown}"
                        )
            self.mirror.events += engine.apply(state, seat, action, self.mirror.knowledge)
        except (Caught, GameError):
            undo()  # a refused move shows nothing: its reveal reached the host alone
            raise
        self.actions.append((seat, dict(msg.action)))
        if self.watch is not None:
            self.watch(seat)
        acted = SealActed(
            len(self.actions), seat, dict(msg.action), msg.number, msg.reveal, msg.signature
        )
        self.relay.transcript.add(signed)
        return [(s, acted) for s in self.seats]

    def _secrets(self, sender: int, msg: SealStep) -> list[Outgoing]:
        if msg.seat != sender:
            raise Caught(sender, "impersonated", f"sent secrets signed as seat {msg.seat + 1}")
        if self.outcome is None and not self.claims:
            raise Caught(sender, "out_of_turn", "secrets before the game is scored")
        if sender in self.secrets:
            raise Caught(sender, "replayed", "its secrets a second time")
        step = verify(msg.signed(self.relay.table), self.relay.keys, sender)
        self.secrets[sender] = secrets_of(step.body)
        self.digests[sender] = step.body["digest"]
        if set(self.secrets) == set(self.seats):
            self._audit()
        return [(s, msg) for s in self.seats]

    def _broken(self, sender: int, msg: SealStep) -> list[Outgoing]:
        """A seat says the deck was tampered with: relayed to every seat, each of which then
        publishes its secrets (the host's bots too, in `drive`). Said once per seat, before the
        game is scored (the end's audit finds anything then)."""
        if msg.seat != sender:
            raise Caught(
                sender, "impersonated", f"sent a broken step signed as seat {msg.seat + 1}"
            )
        if self.outcome is not None:
            raise Caught(sender, "out_of_turn", "a broken deck said after the game was scored")
        if sender in self.claims:
            raise Caught(sender, "replayed", "said the deck was broken a second time")
        verify(msg.signed(self.relay.table), self.relay.keys, sender)
        self.claims.add(sender)
        return [(s, msg) for s in self.seats]

    def _choice(self, sender: int, msg: SealStep) -> list[Outgoing]:
        """A seat opens its committed choice: checked against this program's engine (the
        sender named for anything wrong), applied, recorded and relayed to every seat."""
        if msg.seat != sender:
            raise Caught(sender, "impersonated", f"sent an opening signed as seat {msg.seat + 1}")
        signed = msg.signed(self.relay.table)
        step = verify(signed, self.relay.keys, sender)
        knowledge = self.mirror.knowledge
        self.mirror.events += choices.take(self.engine, self.state, knowledge, step, sender)
        self.relay.transcript.add(signed)
        self.openings.append(choices.kept(step))
        return [(s, msg) for s in self.seats]

    def _bot_openings(self) -> list[Outgoing]:
        """The host's bots open their committed choices, in memory, once the engine asks."""
        out: list[Outgoing] = []
        for seat in list(choices.pending(self.engine, self.state)):
            if seat not in self.bots:
                continue
            body = choices.due(self.engine, self.state, seat, self.mirror.knowledge)
            if body is not None:
                out += self._choice(seat, self.bots[seat].sign(choices.CHOICE, body, 0))
        return out

    def _audit(self) -> None:
        outcome = self.outcome
        self.finding = audit_game(
            self.engine,
            self.config,
            self.public_seed,
            {n: r.round for n, r in self.relay.rounds.items()},
            self.secrets,
            self.digests,
            self.relay.transcript.digest,
            self.actions,
            None if outcome is None else outcome.to_data(),
            self.relay.draws,
            self.openings,
            self.claims,
            self.relay.transcript.earlier,
        )
        self.verdict = describe(self.finding)

    # -- driving the steps ------------------------------------------------------------------------

    def _deliver(self, out: list[Outgoing]) -> list[Outgoing]:
        """Hand the bots' messages to their drivers (and their answers to the relay) until only
        messages for remote seats are left."""
        queue, remote = list(out), []
        while queue:
            to, msg = queue.pop(0)
            driver = self.bots.get(to)
            if driver is None:
                remote.append((to, msg))
                continue
            if isinstance(msg, SealActed):
                # The host's engine applied it; the bot's transcript records it like every seat's.
                assert driver.transcript is not None
                driver.transcript.add(acted_step(self.relay.table, msg))
                continue
            if isinstance(msg, SealStep) and msg.kind in ("secrets", BROKEN, WRONG_PASS):
                continue  # the host keeps them; a bot answers a broken deck in `_drive`
            if isinstance(msg, SealStep) and msg.kind == choices.CHOICE:
                # The host's engine applied it; the bot's transcript records it like every seat's.
                assert driver.transcript is not None
                driver.transcript.add(msg.signed(self.relay.table))
                continue
            for reply in driver.receive(msg):
                queue.extend(self.relay.receive(to, reply, made_here=True))
        return remote

    def _catch_up(self) -> None:
        def bot_card(seat: int, number: int, p: int) -> int | None:
            driver = self.bots.get(seat)
            return None if driver is None else driver.rounds[number].hand.get(p)

        asked = self.mirror.follow(self.relay.rounds, bot_card, self.relay.draws.values)
        self.relay.draws.asked = asked
        for driver in self.bots.values():
            driver.draws.asked = asked
        if self.watch is not None:
            self.watch(None)

    def _issue(self) -> list[Outgoing]:
        """The next steps the engine asks for that were not started yet."""
        engine, state, relay = self.engine, self.state, self.relay
        requests = engine.seal_requests(state)
        if requests:
            first = requests[0]
            if first.index in relay.rounds:
                return []
            return relay.begin(first.index, self.game, self.seats, first.cards)
        out: list[Outgoing] = []
        groups: dict[tuple[int, int, bool], list[int]] = defaultdict(list)
        for seat, slot in engine.to_open(state):
            number, p = where(state, slot)
            kept = relay.rounds[number]
            if p not in kept.owners:
                groups[(seat, number, False)].append(p)
            elif kept.owners[p] != seat and p not in kept.moves.passing:
                groups[(seat, number, True)].append(p)  # held already: passed privately
        for (seat, number, _), positions in groups.items():
            out += relay.open(seat, positions, number)
        if out or engine.to_open(state):
            return out
        asked: dict[int, list[int]] = defaultdict(list)
        shown = to_show(engine, state)
        hands = (
            []
            if shown
            else [s for _, slots in sorted(engine.to_reveal(state).items()) for s in slots]
        )
        for slot in shown or hands:
            number, p = where(state, slot)
            if p not in relay.rounds[number].revealing:
                asked[number].append(p)
        for number, positions in asked.items():
            out += relay.reveal(positions, number)
        if out or shown:
            return out
        due = self.mirror.draw_due
        if due is not None:
            for seat, driver in self.bots.items():
                step = driver.draw_commit(due)
                if step is not None:
                    out += self.relay.receive(seat, step)
        return out

    def _drive(self, out: list[Outgoing]) -> list[Outgoing]:
        remote = self._deliver(out)
        if not self.started:
            return remote
        while True:
            # A bot that found the deck tampered with (in what was just delivered to it) says
            # so before anything else: its hand may not even be readable.
            remote += self._bots_claim()
            if self.stopped:
                break
            self._catch_up()
            issued = self._issue() or self._bot_openings()
            if issued:
                remote += self._deliver(issued)
                continue
            moved = self._bot_move()
            if moved is None:
                break
            remote += self._deliver(moved)
        if self.outcome is not None or self.claims:
            for seat, driver in self.bots.items():
                if seat not in self.secrets:
                    step = driver.sign("secrets", secrets_body(driver), 0)
                    remote += self._deliver(self._secrets(seat, step))
        return remote

    def _bots_claim(self) -> list[Outgoing]:
        """A bot of the host's that found the deck tampered with says so, as a seat would."""
        out: list[Outgoing] = []
        for seat, driver in self.bots.items():
            if driver.tampered is not None and seat not in self.claims and self.outcome is None:
                out += self._deliver(self._broken(seat, driver.sign(BROKEN, {}, 0)))
        return out

    def _bot_move(self) -> list[Outgoing] | None:
        engine, state = self.engine, self.state
        if self.outcome is not None or not state.ledger.ready():
            return None
        seats = [s for s in sorted(engine.to_act(state)) if s in self.bots]
        if not seats:
            return None
        seat = seats[0]
        knowledge = self.mirror.knowledge
        view = engine.view(state, seat, knowledge)
        legal = engine.legal_actions(state, seat, knowledge)
        chosen = self._choose[seat](seat, view, legal)
        action = choices.seal_action(engine, state, seat, chosen, knowledge, self._random)
        encoded = engine.codec.encode(action)
        driver = self.bots[seat]
        shown = driver.shown(face_up(engine, state, action))
        number = moves_of(self.actions, seat) + 1
        signed = driver.sign_move(number, encoded, shown)
        return self._act(seat, SealAct(encoded, number, tuple(map(tuple, shown)), signed.signature))
