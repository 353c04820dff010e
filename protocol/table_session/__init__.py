"""The table as a sans-IO state machine: inputs in, effects out; no socket, clock, loop or file.

`TableSession` takes what happens at a table (a connection arrives, a member's message, a
member gone, a timer fired, a bot's answer, the host closing the table), each with the time
it happened, and returns the effects to carry out (`effects.py`): messages to send to whom,
connections to close, timers to set or cancel, journal records to write, bots to ask. The
asyncio adapter, `protocol/host.py`, performs them. Each concern is a module of its own:

    door.py     arrivals, the waiting room, the wrong-password throttle
    seats.py    joining, a seat coming back, watching, catching up, a member gone
    lobby.py    the lobby message, ready, the owner's requests
    dealing.py  the deal round (commit, pledges, parts) and the start of the game
    play.py     actions, their updates, the journal records, the bots' questions and answers
    clock.py    the turn clock, the grace of an absent player, stand-ins
    sealed_clock.py  a sealed table's clock, its absent seats, a game its players end
    chat.py     chat lines, their allowance, the lines kept for latecomers
    ending.py   the results at the end of a game, and the host closing the table
    sealed_play.py  a sealed table's game: its rounds, moves and audit, through the relay
"""

from __future__ import annotations

from protocol.errors import ErrorCode
from protocol.messages import (
    Action,
    AddBot,
    Contribute,
    EndGame,
    Error,
    Join,
    Leave,
    Message,
    Pledge,
    Ready,
    RemoveBot,
    Say,
    Sealed,
    SetOptions,
)
from protocol.table_session.chat import ChatRoom
from protocol.table_session.clock import Clocks
from protocol.table_session.config import HostSettings
from protocol.table_session.core import Member
from protocol.table_session.dealing import Dealing
from protocol.table_session.door import Arrival, Door
from protocol.table_session.effects import (
    DEAL_TIMER,
    GAME_OVER_TIMER,
    BotQuestion,
    Effect,
    Finished,
    TimerKey,
)
from protocol.table_session.ending import Ending
from protocol.table_session.lobby import LobbyRoom
from protocol.table_session.play import Play
from protocol.table_session.sealed_play import SealedPlay
from protocol.table_session.seats import Seats

__all__ = ["Arrival", "BotQuestion", "Effect", "HostSettings", "Member", "TableSession"]


class TableSession(Door, Seats, LobbyRoom, Dealing, SealedPlay, Play, Clocks, ChatRoom, Ending):
    """One table's session. Every public method is an input and returns the effects it calls
    for, in order; `now` is monotonic seconds, as the adapter's clock reads them."""

    def start(self, now: float) -> list[Effect]:
        """The host opens: a game resumed from a journal finds everyone away; a table of bots
        only has nobody to wait for."""
        self._now = now
        table = self.table
        if table.phase == "playing":
            for seat in table.seats:
                if seat.kind == "human":
                    self._start_grace(seat.index)
            self._schedule_bots()
            self._sync_clock()
        elif table.phase == "over":
            self._out.append(Finished())
        else:
            self._maybe_deal()
        return self._take()

    def received(self, number: int, message: Message, now: float) -> list[Effect]:
        """Member `number` said `message` (its connection decrypted and checked it)."""
        self._now = now
        member = self.members.get(number)
        if member is not None and not member.closed:
            # The bots' work a sealed message left is done before anything else is taken:
            # a newcomer is not told of it before its start, nor a move judged without it.
            self._sealed_settle()
            self._dispatch(member, message)
        return self._take()

    def gone(self, number: int, now: float) -> list[Effect]:
        """Member `number`'s connection is over, whoever ended it."""
        self._now = now
        member = self.members.get(number)
        if member is not None:
            member.closed = True
            if self.ended:  # everyone was told the table closed: nothing waits for anyone
                self.members.pop(number, None)
            else:
                self._gone(member)
        return self._take()

    def closing(self, number: int) -> None:
        """The adapter is closing member `number`'s connection for a reason of its own (its
        queue overflowed, it fell silent): nothing more is said to it."""
        member = self.members.get(number)
        if member is not None:
            member.closed = True

    def timer_fired(self, key: TimerKey, now: float) -> list[Effect]:
        """A timer set by `SetTimer` is due. One cancelled or replaced meanwhile is ignored."""
        self._now = now
        if self._timers.pop(key, None) is None:
            return []
        kind, seat = key
        if key == DEAL_TIMER:
            self._deal_timer_fired()
        elif key == GAME_OVER_TIMER:
            self._game_over()
        elif kind == "clock":
            self._clock_ran_out(seat)
        elif kind == "grace":
            self._stand_in(seat)
        elif kind == "answer":
            self._sealed_unanswered(seat)
        return self._take()

    @property
    def timers(self) -> dict[TimerKey, float]:
        """The armed timers and when each is due (for tests and for the curious)."""
        return dict(self._timers)

    def _dispatch(self, member: Member, message: Message) -> None:
        if not member.joined:
            if not isinstance(message, Join):
                self._log(f"dropped {member.label}: it sent '{message.TYPE}' before joining")
                why = f"'{message.TYPE}' before 'join': join the table first"
                self._refuse(member, ErrorCode.UNEXPECTED_MESSAGE, why, fatal=True)
                return
            self._join(member, message)
            return
        if isinstance(message, Join):
            self._refuse(member, ErrorCode.UNEXPECTED_MESSAGE, "already joined")
        elif isinstance(message, Sealed):
            self._sealed_message(member, message)
        elif isinstance(message, Action) and self.table.sealed:
            why = "a sealed table's moves travel as 'seal_act' (docs/sealed.md)"
            self._refuse(member, ErrorCode.NOT_ALLOWED, why)
        elif isinstance(message, Action):
            self._action(member, message)
        elif isinstance(message, Say):
            self._say(member, message)
        elif isinstance(message, Ready):
            self._ready(member, message)
        elif isinstance(message, Pledge | Contribute):
            self._deal_message(member, message)
        elif isinstance(message, AddBot | RemoveBot | SetOptions):
            self._owner_request(member, message)
        elif isinstance(message, EndGame):
            self._end_game(member)
        elif isinstance(message, Leave):
            self._log(f"{member.label} left: {message.reason or 'no reason given'}")
            member.left = True
            self._close(member)
        elif isinstance(message, Error):
            self._log(f"{member.label} reports: {message.text} [{message.code}]")
        # pongs need nothing: any bytes count as a sign of life
