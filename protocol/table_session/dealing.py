"""The deal round on the table: commit, pledges, parts, then the game starts (or is called off).

`protocol/deal_round.py` is one round's bookkeeping; this is when rounds open and close: a
round opens once the table is full and ready, its one timer (`DEAL_TIMER`) closes the pledges
and then gives up on late parts, and anyone leaving mid-round calls it off.
"""

from __future__ import annotations

from protocol.deal_round import DealRefusal, DealRound
from protocol.errors import ErrorCode
from protocol.fanout import snapshot_for
from protocol.messages import Commit, Contribute, Pledge, Pledges, SeatPledge
from protocol.table_session.core import Member, SessionCore
from protocol.table_session.effects import DEAL_TIMER, Journal


class Dealing(SessionCore):
    def _maybe_deal(self) -> None:
        """Open a deal round once the table is full and ready: commit, then ask for pledges."""
        table = self.table
        if self.round is not None or table.phase != "lobby" or table.start_problem() is not None:
            return
        asked = {
            m.seat
            for m in self.members.values()
            if m.seat is not None and m.joined and not m.closed and m.token not in self._withheld
        }
        self.round = DealRound(asked)
        self._to_everyone(self._commit_message(self.round))
        self._broadcast_lobby()
        if not asked:
            self._close_pledges()
        else:
            self._set_timer(DEAL_TIMER, self.settings.pledge_timeout)

    def _commit_message(self, round_: DealRound) -> Commit:
        return Commit(self.table.commit, tuple(sorted(round_.asked)), self.table.sealed)

    def _pledges_message(self, round_: DealRound) -> Pledges:
        return Pledges(tuple(SeatPledge(s, c) for s, c in sorted(round_.pledges.items())))

    def _deal_timer_fired(self) -> None:
        if self.round is None:
            return
        if self.round.stage == "pledging":
            self._close_pledges()
        else:
            self._reveals_late()

    def _deal_message(self, member: Member, message: Pledge | Contribute) -> None:
        """A pledge, or a part, for the round being made; the round moves on once all are in."""
        round_ = self.round
        try:
            if round_ is None or member.seat is None:
                raise DealRefusal("no deal is being made now")
            if isinstance(message, Pledge):
                round_.pledge(member.seat, message.commitment)
            else:
                round_.reveal(member.seat, message.part)
        except DealRefusal as exc:
            self._refuse(member, ErrorCode.UNEXPECTED_MESSAGE, str(exc))
            return
        if round_.stage == "pledging" and round_.all_pledged:
            self._close_pledges()
        elif round_.all_revealed:
            self._deal()

    def _close_pledges(self) -> None:
        """Publish every pledge made so far; from now on players may reveal their parts."""
        round_ = self.round
        if round_ is None or round_.stage != "pledging":
            return
        problem = self.table.start_problem()
        if problem is not None:
            self._call_off(problem)
            return
        round_.close_pledges()
        self._to_everyone(self._pledges_message(round_))
        if round_.all_revealed:  # nobody pledged: the host's part alone makes the seed
            self._deal()
        else:
            self._set_timer(DEAL_TIMER, self.settings.contribute_timeout)

    def _reveals_late(self) -> None:
        """Seats that pledged and kept their part to themselves lose their say in this table's
        deal (else one player could hold the table back for ever); the round is made again."""
        if self.round is not None and not self.round.all_revealed:
            late = self.round.missing()
            self._withheld.update(t for t in (self.table.seats[s].token for s in late) if t)
            names = ", ".join(self.table.seats[s].name for s in late)
            self._call_off(f"{names} did not reveal their seed part in time")

    def _call_off(self, reason: str) -> None:
        """This round is over without a deal; the next one starts with a new commit."""
        self._cancel_timer(DEAL_TIMER)
        self.round = None
        self._log(f"the deal is off: {reason}")
        self._notice("deal_off", reason=reason)
        self._broadcast_lobby()
        self._maybe_deal()  # at once, if the table is still full and ready

    def _deal(self) -> None:
        round_ = self.round
        if round_ is None or not round_.all_revealed:
            return
        table = self.table
        problem = table.start_problem()
        if problem is not None:  # someone left while we waited
            self._call_off(problem)
            return
        self._cancel_timer(DEAL_TIMER)
        self.round = None
        table.use_contributions(round_.parts)
        table.start()
        if table.sealed:
            self._log(f"the sealed game starts: {table.game.name}, {table.config.players} players")
            for member in self.members.values():
                if member.joined:
                    self._send(member, self._start_message(member.seat))
            self._broadcast_lobby()
            self._sealed_deal()
            return
        self._out.append(Journal(table.journal_start(), durable=True))
        self._log(f"the game starts: {table.game.name}, {table.config.players} players")
        for member in self.members.values():
            if member.joined:
                self._send(member, self._start_message(member.seat))
                self._send(member, snapshot_for(table.game, table.state, self.seq, member.seat))
        self._broadcast_lobby()
        self._schedule_bots()
        self._sync_clock()
