"""Time at the table: the turn clock (a bot plays the turn of a player whose time ran out) and the
grace an absent player has before a bot stands in for them. A sealed table's differ, its seats
being played by their own programs only (`sealed_clock.py`).

Each is a timer (`clock_timer(seat)`, `grace_timer(seat)`) the adapter arms; the deadlines are
kept here from the `now` each input brings, so the `clock` message says what is left.
"""

from __future__ import annotations

from protocol.messages import Clock, ClockEntry
from protocol.table_session.effects import AskBot, clock_timer, grace_timer
from protocol.table_session.sealed_clock import SealedClock


class Clocks(SealedClock):
    def _sync_clock(self) -> None:
        """Start a clock for each player asked to act who has none, stop the others, tell all.
        (A sealed table's, after every step too: told only when it changed.)"""
        per_turn = self.settings.turn_clock
        if not per_turn:
            return
        table = self.table
        if table.sealed:
            clocked = self._sealed_clocked()
            if clocked == set(self._clocks):
                return
        else:
            acting = set(table.to_act()) if table.phase == "playing" else set()
            clocked = {
                s for s in acting if table.seats[s].kind == "human" and not table.seats[s].stand_in
            }
        for seat in list(self._clocks):
            if seat not in clocked:
                self._stop_clock(seat)
        for seat in sorted(clocked - set(self._clocks)):
            self._set_timer(clock_timer(seat), per_turn)
            self._clocks[seat] = self._now + per_turn
        now = self._now
        left = tuple(
            ClockEntry(s, max(0, int((deadline - now) * 1000)))
            for s, deadline in sorted(self._clocks.items())
        )
        self._to_everyone(Clock(round(per_turn * 1000), left))

    def _stop_clock(self, seat: int) -> None:
        if self._clocks.pop(seat, None) is not None:
            self._cancel_timer(clock_timer(seat))

    def _clock_ran_out(self, seat: int) -> None:
        self._clocks.pop(seat, None)
        table = self.table
        if table.sealed:
            self._sealed_time_up(seat)  # no bot here may play it: the seat's own program does
            return
        if table.phase != "playing" or seat not in table.to_act():
            return
        self._log(f"time ran out for seat {seat + 1}: a bot plays the turn")
        self._notice("clock", seat=seat, name=table.seats[seat].name)
        self._out.append(AskBot(self._question(seat)))

    # -- absent players ---------------------------------------------------------------------------

    def _start_grace(self, seat: int) -> None:
        if self.table.sealed:
            self._sealed_waits(seat)  # no stand-in will come: say at once whom the table waits for
            self._sync_clock()  # (nor does its clock run while it is away)
            return
        self._set_timer(grace_timer(seat), self.settings.grace)

    def _cancel_grace(self, seat: int) -> None:
        """`seat`'s player is back."""
        self._cancel_timer(grace_timer(seat))
        if self.table.sealed:
            self._sealed_present(seat, say=False)  # (`seats.py` says it is back)

    def _stand_in(self, seat: int) -> None:
        s = self.table.seats[seat]
        if s.connected or self.table.phase != "playing":
            return
        if self.table.sealed:
            self._sealed_waits(seat)
            return
        self.table.set_stand_in(seat, True)
        self._notice("stand_in", seat=seat, name=s.name, level=self.table.stand_in_level)
        self._log(f"a bot stands in for seat {seat + 1}")
        self._broadcast_lobby()
        self._schedule_bots()
        self._sync_clock()
