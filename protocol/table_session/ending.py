"""The end of a table: the results when its game is over, and the host closing it on purpose.

Both reach every joined member the same way, whatever program it runs (a player's app, a
headless bot, the SSH door's guest): `Send`s through its own connection.
"""

from __future__ import annotations

from protocol.fanout import audit_messages
from protocol.messages import Leave, Result, TableNotice
from protocol.table_session.core import Member, SessionCore, packed_once
from protocol.table_session.effects import Effect, Finished, Journal


class Ending(SessionCore):
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
        so each program says it could not be checked (`client_sealed.py`)."""
        table = self.table
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
            self._send(member, Leave("the host closed the table"))
            self._close(member)
        for key in list(self._timers):
            self._cancel_timer(key)
        self._clocks.clear()
        self._refusals.flush(self._now, everything=True)
        # Closed on purpose: its players have the results so far and forgot their seats, so
        # `host --resume` refuses this journal instead of reopening a table nobody can come
        # back to.
        self._out.append(Journal({"type": "closed"}, durable=True))
        return self._take()
