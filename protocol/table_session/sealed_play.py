"""A sealed table's game on the host (docs/sealed.md, section 7, "A sealed game").

At a sealed table this concern takes over from `dealing`'s start and from `play`: the table
deals no card (its state holds slots), each seat sends its signing key, and a `SealedHost`
(`protocol/sealed_play/host.py`) then runs the sealing rounds, the openings, the moves and the
end through the relay, the host's own bots playing their seats in memory with the cards they
were dealt and nothing else. Every message of that game travels inside a `sealed` message.

A move while a step the engine asked for is still under way is refused (`step_pending`); a step
or a move that is proof against its sender (a card its slot does not hold, a forged step) is
refused (`cheated`) and everyone is told who. A player who drops is waited for: no bot stands in
for a seat whose secrets only its player holds. When the player comes back with its seat token,
it is sent its seat's whole sealed history and rebuilds its seat from the seed it kept; a host
that crashed rebuilds its game from its journal (`resume_sealed`). The table ends
when its host closes it (`ending`), its players then saying the deal could not be checked.


Spectators get the public view from the host's engine instance, as `update`s and `snapshot`s like
at any table: one `update` per move (its public events, the view as the move left it) and a
`snapshot` whenever a step changes what is public (a card shown, a round sealed or ended). The
host's instance holds no card of a player's hand, and `public_view` reads no knowledge at all
(not even its bots' cards), so there is nothing hidden to send.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from netcards.action import Action
from netcards.bots.registry import make_bot
from netcards.errors import GameError, StepPending
from netcards.game import Outcome
from netcards.sealed_cards import HiddenCardNeeded
from netcards.sealed_game import choices_of, sealed_engine
from protocol.connection import Packed
from protocol.errors import ErrorCode, RemoteProtocolError
from protocol.messages import Message, Result, Sealed, Snapshot, TableNotice, Update
from protocol.sealed.errors import Caught
from protocol.sealed.messages import SealAct, decode, encode
from protocol.sealed.round_driver import Outgoing
from protocol.sealed.seed_stream import SeedStream
from protocol.sealed_play.awaited import Awaited, closing_reasons, to_data
from protocol.sealed_play.host import BotChoice, SealedHost
from protocol.sealed_play.memory import SealedMemory, game_record, kept_game
from protocol.table_session.core import Member, SessionCore, packed_once
from protocol.table_session.effects import Effect, Finished, Journal, SealedBots


class SealedPlay(SessionCore):
    sealed_host: SealedHost | None = None
    sealed_memory: SealedMemory | None = None
    _unanswered: frozenset[int]  # (sealed_clock.py)

    def _sealed_deal(self) -> None:
        """The game starts with no card dealt: the host waits for every seat's signing key.
        The journal gets what a resumed host rebuilds the game from (`sealed_play/memory.py`)."""
        table = self.table
        ids = self.random_bytes(16)
        table_id, game_id, seed = (
            b"netcards table " + ids,
            b"netcards game " + ids,
            self.random_bytes(32),
        )
        self._out.append(Journal(table.journal_start(), durable=True))
        self._out.append(Journal(game_record(table_id, game_id, seed), durable=True))
        self._sealed_host(table_id, game_id, seed)
        self._sealed_go([])

    def _sealed_host(self, table_id: bytes, game_id: bytes, seed: bytes) -> SealedHost:
        table = self.table
        engine = sealed_engine(table.game.id)
        bots = {s.index: self._sealed_bot(s.index) for s in table.seats if s.kind == "bot"}
        self.sealed_memory = SealedMemory()
        self.sealed_host = SealedHost(
            engine, table.config, table.seed, table_id, game_id, bots, SeedStream(seed)
        )
        table.state = self.sealed_host.state  # the same public state, slots and all
        self.sealed_host.watch = self._sealed_watch
        return self.sealed_host

    def resume_sealed(self, records: Sequence[Mapping[str, Any]]) -> None:
        """A host that crashed comes back: its sealed game is rebuilt from its journal by
        replaying every message it had accepted, in order (nothing is sent: everyone is away,
        and each seat is sent its whole history when it comes back). ValueError: the journal
        does not hold a game this host can rebuild."""
        kept = kept_game(records)
        if kept is None:
            raise ValueError("the journal holds no sealed game")
        host = self._sealed_host(kept.table, kept.game, kept.seed)
        memory = self.sealed_memory
        assert memory is not None
        self._sealed_go([], send=False)
        for number, (seat, msg) in enumerate(kept.messages, 1):
            if memory.repeat(seat, msg):
                continue
            try:
                # The bots' work right after each message, as the live table did it before
                # taking the next one (`_sealed_settle`).
                out = host.receive(seat, msg)
            except (Caught, GameError) as exc:  # it was accepted once: not this journal's game
                raise ValueError(f"sealed message {number} of the journal: {exc}") from None
            memory.accepted(seat, msg)
            self._sealed_go(out, send=False)

    def _sealed_catch_up(self, member: Member) -> None:
        """A player back at a sealed game is told how many sealed messages follow (so that it
        plays only once it has caught up), then sent the start and everything the host sent
        its seat, in order. A spectator who comes in during (or after) the game gets the start
        and the public view now. Both then get the results if the game is over."""
        memory, host = self.sealed_memory, self.sealed_host
        if member.seat is not None:
            history = memory.history(member.seat) if memory is not None else []
            self._send(member, TableNotice("sealed_history", {"count": len(history)}))
            self._send(member, self._start_message(member.seat))
            for msg in history:
                self._send(member, Sealed(encode(msg)))
        else:
            self._send(member, self._start_message(None))
            if host is not None:
                view, to_act = self._public()
                snapshot = Snapshot(len(host.actions), view, to_act)
                self._send(member, packed_once(snapshot, check=False))
                self._send(member, _awaited_notice(host.awaited()))
        if self.table.phase == "over" and self._results is not None:
            for result in self._results:
                self._send(member, result)

    def _sealed_bot(self, seat: int) -> BotChoice:
        table = self.table
        level = table.seats[seat].bot_level or "random"

        def choose(seat: int, view: dict[str, Any], legal: list[Action]) -> Action:
            host = self.sealed_host
            moves = len(host.actions) if host is not None else 0
            material = table.seed + seat.to_bytes(2, "big") + moves.to_bytes(4, "big")
            bot = make_bot(level, table.game, table.config, seat, hashlib.sha256(material).digest())
            return bot.choose(view, table.game.legal_actions_in_view(view), [])

        return choose

    def _sealed_message(self, member: Member, message: Sealed) -> None:
        host = self.sealed_host
        if host is None or member.seat is None:
            self._refuse(member, ErrorCode.NOT_ALLOWED, "no sealed game is being played")
            return
        try:
            msg = decode(message.message)
        except RemoteProtocolError as exc:
            self._refuse(member, exc.code, exc.text)
            return
        self._relayed = (msg, message.message)
        memory = self.sealed_memory
        assert memory is not None
        self._sealed_settle()  # the message is judged against the game as the bots left it
        if memory.repeat(member.seat, msg):
            return  # a seat that came back signs again what it signed before: nothing new
        try:
            out = host.take(member.seat, msg)
        except Caught as exc:
            seat = exc.seat
            name = self.table.seats[seat].name if 0 <= seat < len(self.table.seats) else "?"
            self._log(f"seat {seat + 1} cheated: {exc.finding}")
            self._notice("cheated", seat=seat, name=name, kind=exc.kind, detail=exc.finding.detail)
            self._refuse(member, ErrorCode.CHEATED, str(exc.finding))
            self._watchers_told()
            return
        except GameError as exc:
            pending = isinstance(exc, StepPending)
            code = ErrorCode.STEP_PENDING if pending else ErrorCode.ILLEGAL_ACTION
            self._refuse(member, code, str(exc))
            self._watchers_told()
            return
        # A simultaneous choice's commitment is on the disk before it is relayed: its nonce
        # comes from the seat's seed and the step, so a commitment lost with a machine that
        # crashed would be made again under the same nonce, maybe for another choice, and
        # the first one could then be tested against the opening of the second.
        durable = isinstance(msg, SealAct) and choices_of(host.engine) is not None
        self._out.append(Journal(memory.accepted(member.seat, msg), durable=durable))
        if isinstance(msg, SealAct):
            self._sealed_moved(member.seat)
        self._sealed_go(out)
        self._relayed = None
        if host.pending:
            self._out.append(SealedBots())  # after the sends: the player hears first

    def sealed_bots(self, now: float) -> list[Effect]:
        """The host's bots do the work the last sealed message left them (`SealedBots`), and
        their messages go out. Nothing to do if a later input did it already."""
        self._now = now
        self._sealed_settle()
        return self._take()

    def _sealed_settle(self) -> None:
        """The bots' work left by the last sealed message, done now: when the adapter gets to
        it (`SealedBots`), or before the next message of any member is taken if that comes
        first (a move is judged, and a newcomer sent its start, as the bots left the game)."""
        host = self.sealed_host
        if host is not None and host.pending:
            self._sealed_go(host.drive())

    def _sealed_go(self, out: list[Outgoing], send: bool = True) -> None:
        host = self.sealed_host
        assert host is not None
        if not host.started and host.ready_to_start():
            out = out + host.start()
        if not send:  # a resumed host replaying its journal: kept for the seats, not sent
            assert self.sealed_memory is not None
            self.sealed_memory.sent(out)
            self.table.phase = "over" if host.outcome is not None else self.table.phase
            self._sealed_done = self._sealed_done or host.verdict is not None
            if host.outcome is not None:
                self._results = [packed_once(Result(host.outcome.to_data()))]
            return
        self._sealed_send(out)
        self._watchers_told()  # after the players: they wait on theirs to play on
        self._sync_clock()
        table = self.table
        if host.outcome is not None and table.phase == "playing":
            table.phase = "over"
            self._results = [packed_once(Result(host.outcome.to_data()))]
            for member in self.members.values():
                if member.joined:
                    self._send(member, self._results[0])
            self._log("the sealed game is over: its audit follows")
        for seat in sorted(host.claims - self._sealed_broken_told):
            # Every player reads it: the game stops here, and why.
            self._sealed_broken_told = self._sealed_broken_told | {seat}
            name = table.seats[seat].name if 0 <= seat < len(table.seats) else "?"
            self._log(f"seat {seat + 1} found the deck tampered with: every seat shows its secrets")
            self._notice("broken", seat=seat, name=name)
        if host.verdict is not None and host.stopped and not self._sealed_done:
            self._sealed_done = True
            self._log(f"the game stopped; the host's check: {host.verdict}")
            finding = host.finding
            if finding is not None and 0 <= finding.seat < len(table.seats):
                name = table.seats[finding.seat].name
                self._notice(
                    "cheated",
                    seat=finding.seat,
                    name=name,
                    kind=finding.kind,
                    detail=finding.detail,
                )
            table.phase = "over"
            self._out.append(Finished())
        if host.verdict is not None and table.phase == "over" and not self._sealed_done:
            self._sealed_done = True
            self._log(f"the host's audit: {host.verdict}")
            self._out.append(Finished())

    _sealed_done: bool = False
    _sealed_broken_told: frozenset[int] = frozenset()
    """The seats whose `broken` step the players were told of (a `broken` notice each)."""

    def _sealed_send(self, out: list[Outgoing]) -> None:
        """Each message encoded and packed once for every seat it goes to; a step relayed as it
        was received goes out as the very map its sender sent (`_relayed`), not decoded and
        encoded again."""
        assert self.sealed_memory is not None
        self.sealed_memory.sent(out)
        ready: dict[int, Message | Packed] = {}
        relayed = self._relayed
        for seat, msg in out:
            wrapped = ready.get(id(msg))
            if wrapped is None:
                raw = relayed[1] if relayed is not None and relayed[0] is msg else encode(msg)
                wrapped = ready[id(msg)] = packed_once(Sealed(raw))
            for member in self.members.values():
                if member.joined and member.seat == seat:
                    self._send(member, wrapped)

    _relayed: tuple[Any, dict[str, Any]] | None = None
    """The sealed message taken last and the map it came as: what the host relays of it."""

    def _sealed_waits(self, seat: int) -> None:
        """A player of a sealed game is away: nobody else holds their secrets, so the table
        waits for them and says so."""
        s = self.table.seats[seat]
        self._log(f"the sealed game waits for seat {seat + 1}")
        self._to_everyone(TableNotice("waiting", {"seat": seat, "name": s.name}))

    # -- spectators --------------------------------------------------------------------------------

    _events_told: int = 0
    """How many of the host's engine events went out in spectators' updates (or were passed by
    while nobody watched)."""
    _watched: tuple[dict[str, Any], tuple[int, ...]] | None = None
    """The public view and who acts, as last told to the spectators."""
    _for_watchers: list[Message | Packed] | None = None

    def _watchers(self) -> list[Member]:
        return [m for m in self.members.values() if m.joined and m.spectator and not m.closed]

    def _public(self) -> tuple[dict[str, Any], tuple[int, ...]]:
        host = self.sealed_host
        assert host is not None
        engine, state = host.engine, host.state
        ready = state.ledger.ready() and engine.outcome(state) is None
        return engine.public_view(state), tuple(sorted(engine.to_act(state))) if ready else ()

    def _sealed_watch(self, seat: int | None) -> None:
        """The host's engine moved: a move by `seat`, or a step (None). Events of a step wait
        for the next move's update (a snapshot carries none)."""
        host = self.sealed_host
        assert host is not None
        if not self._watchers():
            if seat is not None:
                self._events_told = len(host.mirror.events)
            self._watched = None
            return
        public = self._public()
        if seat is None and public == self._watched:
            return
        self._watched = public
        view, to_act = public
        seq = len(host.actions)
        message: Message
        if seat is None:
            message = Snapshot(seq, view, to_act)
        else:
            events = host.mirror.events[self._events_told :]
            self._events_told = len(host.mirror.events)
            message = Update(seq, seat, tuple(e.for_seat(None) for e in events), view, to_act)
        if self._for_watchers is None:
            self._for_watchers = []
        # The engine's views and events: see encode_unchecked.
        self._for_watchers.append(packed_once(message, check=False))

    def _watchers_told(self) -> None:
        """Send the spectators what the host's engine showed since the last time, and whom
        the game waits for now if that changed (they hold no seat's state to work it out)."""
        waiting, self._for_watchers = self._for_watchers or [], None
        watchers = self._watchers()
        for member in watchers:
            for message in waiting:
                self._send(member, message)
        host = self.sealed_host
        if host is None or not watchers:
            self._awaited_told = None
            return
        found = host.awaited()
        if found != self._awaited_told:
            self._awaited_told = found
            notice = _awaited_notice(found)
            for member in watchers:
                self._send(member, notice)

    _awaited_told: tuple[Awaited, ...] | None = None
    """Whom the game waited for, as the spectators were last told (None: nobody watched)."""

    # -- a sealed game its host closes halfway ------------------------------------------------------

    def sealed_standings(self) -> Outcome | None:
        """The results so far of the sealed game under way, where its title scores them from
        public cards alone (Via Gladiola's need the hands: None), as its players work them out."""
        host = self.sealed_host
        if host is None:
            return None
        try:
            return host.engine.standings(host.state)
        except (GameError, HiddenCardNeeded, NotImplementedError):
            return None

    def sealed_unchecked(self) -> list[str] | None:
        """Why the sealed game being played cannot be checked if the table closes now, in the
        words every player's verdict uses (`deal not checked: ...`): whom it waits for and
        for what, and who left without publishing its secrets. None: no sealed game is under
        way (or it was checked)."""
        host = self.sealed_host
        if host is None or host.verdict is not None:
            return None
        names = [s.name for s in self.table.seats]
        away = {s.index for s in self.table.seats if s.kind == "human" and not s.connected}
        return closing_reasons(
            host.awaited(), names, None, away, set(host.secrets), self._unanswered
        )


def _awaited_notice(found: tuple[Awaited, ...]) -> Message | Packed:
    """The `awaited` notice: whom the game waits for, for the spectators."""
    return packed_once(TableNotice("awaited", {"steps": to_data(found)}))
