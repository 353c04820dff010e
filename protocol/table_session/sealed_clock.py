"""The turn clock at a sealed table, and ending a sealed game that waits for an absent player
(docs/sealed.md, section 7, "The turn clock").

No bot of the host may play a sealed seat: only that seat's own program holds its keys. So when
a connected player's time runs out, the host says so to everyone (the `clock` notice, as at any
table) and that seat's program plays its stand-in's move itself. A program that does not (it
was modified to ignore the clock, or it hangs) has `clock_answer` seconds more; then the host
counts the seat absent (`unanswered`), as it counts one whose connection is gone. The host can
do nothing else: it cannot make a sealed seat's move, and a game that waits for ever is lost to
everyone. So while a seat is absent, any player still at the table may end the game
(`end_game`): the table closes with the results so far, and every program's verdict names the
absent seat. A seat that moves again, or comes back, is no longer absent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from protocol.errors import ErrorCode
from protocol.sealed_play.awaited import listed
from protocol.table_session.core import Member, SessionCore
from protocol.table_session.effects import Finished, answer_timer

if TYPE_CHECKING:
    from protocol.sealed_play.host import SealedHost


class SealedClock(SessionCore):
    sealed_host: SealedHost | None  # (sealed_play.py)
    ended: bool  # (ending.py)
    _late: frozenset[int] = frozenset()
    """Sealed seats whose time ran out, whose program's stand-in move is awaited."""
    _unanswered: frozenset[int] = frozenset()
    """Sealed seats whose program did not play when its time ran out: counted absent."""

    def _sealed_acting(self) -> set[int]:
        """The seats a sealed game waits on for a decision: none while a step is under way
        (a seat's time runs only while it alone can move the game on)."""
        host = self.sealed_host
        if host is None or self.table.phase != "playing" or host.stopped:
            return set()
        engine, state = host.engine, host.state
        if not state.ledger.ready() or engine.outcome(state) is not None:
            return set()
        return set(engine.to_act(state))

    def _sealed_clocked(self) -> set[int]:
        """Who gets a clock: a connected player asked to decide, whose time has not run out."""
        seats = self.table.seats
        return (
            {s for s in self._sealed_acting() if seats[s].kind == "human" and seats[s].connected}
            - self._late
            - self._unanswered
        )

    def _sealed_time_up(self, seat: int) -> None:
        """A connected player's time ran out: its own program plays its stand-in's move, and
        has `clock_answer` seconds to send it."""
        s = self.table.seats[seat]
        if seat not in self._sealed_acting() or not s.connected:
            return
        self._late |= {seat}
        self._log(f"time ran out for seat {seat + 1}: its own program plays its stand-in's move")
        self._notice("clock_own", seat=seat, name=s.name, level=self.table.stand_in_level)
        self._set_timer(answer_timer(seat), self.settings.clock_answer)

    def _sealed_unanswered(self, seat: int) -> None:
        """The stand-in's move never came: the seat is absent until it moves or comes back."""
        if seat not in self._late:
            return
        self._late -= {seat}
        self._unanswered |= {seat}
        name = self.table.seats[seat].name
        self._log(
            f"seat {seat + 1} did not play when its time ran out: the sealed game waits for it,"
            " and its players may end the game"
        )
        self._notice("unanswered", seat=seat, name=name)

    def _sealed_moved(self, seat: int) -> None:
        """A move of `seat` was taken: its clock stops, and it is no longer absent."""
        self._stop_clock(seat)
        self._sealed_present(seat)

    def _sealed_present(self, seat: int, *, say: bool = True) -> None:
        """`seat` moved or came back: it is no longer late nor absent (its clock starts afresh
        at its next decision); everyone hears it is back (`say`: not told otherwise)."""
        self._cancel_timer(answer_timer(seat))
        self._late -= {seat}
        if seat in self._unanswered:
            self._unanswered -= {seat}
            if say:
                self._notice("back", seat=seat, name=self.table.seats[seat].name)

    def absent_seats(self) -> set[int]:
        """The seats of a sealed game under way that its players may end it without: a
        player's whose connection is gone, or whose program did not play when its time ran
        out."""
        if not self.table.sealed or self.table.phase != "playing":
            return set()
        gone = {s.index for s in self.table.seats if s.kind == "human" and not s.connected}
        return gone | set(self._unanswered)

    def _end_game(self, member: Member) -> None:
        """A player asks to end the sealed game: granted only while a seat is absent, to a
        player who is not."""
        absent = self.absent_seats()
        if not self.table.sealed or self.table.phase != "playing" or self.sealed_host is None:
            why = "only a sealed game under way can be ended by its players"
        elif member.seat is None:
            why = "a spectator cannot end the game"
        elif not absent:
            why = "nobody is absent: the game goes on"
        elif member.seat in absent:
            why = "a player counted absent cannot end the game: play your move first"
        else:
            why = ""
        if why:
            self._refuse(member, ErrorCode.NOT_ALLOWED, why)
            return
        assert member.seat is not None
        seats = self.table.seats
        who = seats[member.seat].name
        self._log(
            f"{who} (seat {member.seat + 1}) ended the game: "
            + ", ".join(f"seat {s + 1}" for s in sorted(absent))
            + " absent"
        )
        names = [seats[s].name for s in sorted(absent)]
        self._notice(
            "ended",
            seat=member.seat,
            name=who,
            absent=sorted(absent),
            absent_names=listed(names),
        )
        self._end_table(f"{who} ended the game: a player was absent")
        self._out.append(Finished())
