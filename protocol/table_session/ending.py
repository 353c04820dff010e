"""The end of a table: the results when its game is over, and the host closing it on purpose.

Both reach every joined member the same way, whatever program it runs (a player's app, a
headless bot, the SSH door's guest): `Send`s through its own connection.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from netcards.errors import GameError
from netcards.game import Outcome
from netcards.sealed_cards import HiddenCardNeeded
from protocol.fanout import audit_messages
from protocol.messages import Leave, Result, TableNotice
from protocol.table_session.core import Member, SessionCore, packed_once
from protocol.table_session.effects import Effect, Finished, Journal

if TYPE_CHECKING:
    from protocol.sealed_play.host import SealedHost


class Ending(SessionCore):
    sealed_host: SealedHost | None  # (sealed_play.py)
    ended: bool = False
    """The host closed the table (`end_table`): a connection that ends after that changes
    nothing (no seat waits for its player, no stand-in, no lobby to tell)."""

    def outcome(self) -> Outcome | None:
        """The results of a game that is over. A sealed game's are its own engine's: the
        classic rules would score the hands before every card of them is revealed."""
        sealed = self.sealed_host
        if sealed is not None:
            return sealed.outcome  # type: ignore[no-any-return]
        return self.table.outcome()

    def standings_so_far(self) -> Outcome | None:
        """The results so far of a game under way, as the host's own record scores them (what
        it prints when it is stopped; each player's program works out its own). At a sealed
        table that record is public: its engine scores from public cards only, and a title
        whose score needs a card still sealed (Via Gladiola's hands) has none (None), at
        whatever moment the game is stopped: dealing, sealing, reshuffling, between rounds."""
        table, sealed = self.table, self.sealed_host
        try:
            if sealed is not None:
                return sealed.engine.standings(sealed.state)
            if table.state is None:
                return None
            return table.game.standings(table.state)
        except (HiddenCardNeeded, GameError, NotImplementedError):
            return None

    def _game_over(self) -> None:
        for member in self.members.values():
            if member.joined:
                self._send_results(member)
        self._log("the game is over")
        self._out.append(Finished())

    def _send_results(self, member: Member) -> None:
        if self._results is None:  # the same for everyone, and final: encoded once
            table = self.table
            outcome = table.outcome()
            assert outcome is not None
            last = [TableNotice("last_game", {})] if self.settings.one_game else []
            self._results = [
                *map(packed_once, last),
                packed_once(Result(outcome.to_data())),
                *map(packed_once, audit_messages(table.host_part, table.seed, table.actions)),
            ]
        for message in self._results:
            self._send(member, message)

    def end_table(self) -> list[Effect]:
        """The host closes the table on purpose. Every member hears it before its connection
        closes: a `closed` notice, the audit of a game stopped halfway (its results so far and
        its deal check), then `leave`; the journal is marked closed. (A host that dies says
        nothing: its players wait for it instead.) A sealed game stopped halfway has no such
        audit: its deal is checked only from every seat's secrets, published once it is scored,
        so each program says it could not be checked (`client_sealed.py`). Closing a table
        closed already (a player ended its sealed game, `sealed_clock.py`) does nothing more."""
        self._end_table()
        return self._take()

    def _end_table(self, why: str = "the host closed the table") -> None:
        if self.ended:
            return
        table = self.table
        self.ended = True
        audit = (
            audit_messages(table.host_part, table.seed, table.actions)
            if table.phase == "playing" and not table.sealed
            else []
        )
        unchecked = self.sealed_unchecked()
        if unchecked:
            # Whom the game waited for: the host's word on it, as each player's verdict says.
            self._log("the sealed game is not checked: " + "; ".join(unchecked))
        for member in list(self.members.values()):
            if member.joined:
                self._send(member, TableNotice("closed", {}))
                for chunk in audit:
                    self._send(member, chunk)
            self._send(member, Leave(why))
            self._close(member)
        for key in list(self._timers):
            self._cancel_timer(key)
        self._clocks.clear()
        self._refusals.flush(self._now, everything=True)
        # Closed on purpose: its players have the results so far and forgot their seats, so
        # `host --resume` refuses this journal instead of reopening a table nobody can come
        # back to.
        self._out.append(Journal({"type": "closed"}, durable=True))
