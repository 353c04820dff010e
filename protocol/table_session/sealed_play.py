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
that crashed rebuilds its game from its journal (`resume_sealed`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from netcards.action import Action
from netcards.bots.registry import make_bot
from netcards.errors import GameError, StepPending
from netcards.sealed_game import sealed_engine
from protocol.errors import ErrorCode, RemoteProtocolError
from protocol.messages import Result, Sealed, TableNotice
from protocol.sealed.errors import Caught
from protocol.sealed.messages import decode, encode
from protocol.sealed.round_driver import Outgoing
from protocol.sealed.seed_stream import SeedStream
from protocol.sealed_play.host import BotChoice, SealedHost
from protocol.sealed_play.memory import SealedMemory, game_record, kept_game
from protocol.table_session.core import Member, SessionCore, packed_once
from protocol.table_session.effects import Finished, Journal


class SealedPlay(SessionCore):
    sealed_host: SealedHost | None = None
    sealed_memory: SealedMemory | None = None

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
                out = host.receive(seat, msg)
            except (Caught, GameError) as exc:  # it was accepted once: not this journal's game
                raise ValueError(f"sealed message {number} of the journal: {exc}") from None
            memory.accepted(seat, msg)
            self._sealed_go(out, send=False)

    def _sealed_catch_up(self, member: Member) -> None:
        """A player back at a sealed game is told how many sealed messages follow (so that it
        plays only once it has caught up), then sent the start and everything the host sent
        its seat, in order; then the results if the game is over. A spectator gets the start."""
        memory = self.sealed_memory
        history = (
            memory.history(member.seat) if memory is not None and member.seat is not None else []
        )
        if member.seat is not None:
            self._send(member, TableNotice("sealed_history", {"count": len(history)}))
        self._send(member, self._start_message(member.seat))
        for msg in history:
            self._send(member, Sealed(encode(msg)))
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
        memory = self.sealed_memory
        assert memory is not None
        if memory.repeat(member.seat, msg):
            return  # a seat that came back signs again what it signed before: nothing new
        try:
            out = host.receive(member.seat, msg)
        except Caught as exc:
            seat = exc.seat
            name = self.table.seats[seat].name if 0 <= seat < len(self.table.seats) else "?"
            self._log(f"seat {seat + 1} cheated: {exc.finding}")
            self._notice("cheated", seat=seat, name=name, kind=exc.kind, detail=exc.finding.detail)
            self._refuse(member, ErrorCode.CHEATED, str(exc.finding))
            return
        except GameError as exc:
            pending = isinstance(exc, StepPending)
            code = ErrorCode.STEP_PENDING if pending else ErrorCode.ILLEGAL_ACTION
            self._refuse(member, code, str(exc))
            return
        self._out.append(Journal(memory.accepted(member.seat, msg)))
        self._sealed_go(out)

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
        table = self.table
        if host.outcome is not None and table.phase == "playing":
            table.phase = "over"
            self._results = [packed_once(Result(host.outcome.to_data()))]
            for member in self.members.values():
                if member.joined:
                    self._send(member, self._results[0])
            self._log("the sealed game is over: its audit follows")
        if host.verdict is not None and table.phase == "over" and not self._sealed_done:
            self._sealed_done = True
            self._log(f"the host's audit: {host.verdict}")
            self._out.append(Finished())

    _sealed_done: bool = False

    def _sealed_send(self, out: list[Outgoing]) -> None:
        assert self.sealed_memory is not None
        self.sealed_memory.sent(out)
        for seat, msg in out:
            wrapped = Sealed(encode(msg))
            for member in self.members.values():
                if member.joined and member.seat == seat:
                    self._send(member, wrapped)

    def _sealed_waits(self, seat: int) -> None:
        """A player of a sealed game is away: nobody else holds their secrets, so the table
        waits for them and says so."""
        s = self.table.seats[seat]
        self._log(f"the sealed game waits for seat {seat + 1}")
        self._to_everyone(TableNotice("waiting", {"seat": seat, "name": s.name}))
