"""Play: a player's action checked by the table, its updates fanned out, the journal, the bots.

Every accepted action is a `Journal` effect before any of its updates: the adapter writes it
(flushed) before it sends them. Bots never think here: the session hands out `BotQuestion`s
(`next_bot_question`, or `AskBot` when a clock runs out) and takes their answers in
`bot_answered`, dropping an answer the table no longer asks for.
"""

from __future__ import annotations

from typing import Any

from netcards.errors import FutureMove, GameError, StaleMove
from protocol.connection import Packed
from protocol.errors import ErrorCode
from protocol.fanout import update_for
from protocol.messages import Action, Message
from protocol.table_session.core import Member, SessionCore, packed_once
from protocol.table_session.effects import (
    GAME_OVER_TIMER,
    BotFailed,
    BotQuestion,
    Effect,
    Journal,
    WakeBots,
)


class Play(SessionCore):
    def _action(self, member: Member, message: Action) -> None:
        table = self.table
        if member.seat is None:
            self._refuse(member, ErrorCode.NOT_ALLOWED, "spectators cannot play")
            return
        if table.phase != "playing":
            self._refuse(member, ErrorCode.NOT_ALLOWED, "no game is being played")
            return
        try:
            events = table.submit(member.seat, message.action, seen=message.seq)
        except (StaleMove, FutureMove) as exc:
            # Every update up to `latest` went out before this refusal: the player's view is
            # already the fresh one.
            code = ErrorCode.STALE_SEQ if isinstance(exc, StaleMove) else ErrorCode.FUTURE_SEQ
            detail = {
                "seq": message.seq,
                "latest": self.seq,
                "asked_at": table.decision_asked_at(member.seat),
            }
            self._refuse(member, code, str(exc), detail=detail)
            return
        except GameError as exc:
            self._refuse(member, ErrorCode.ILLEGAL_ACTION, str(exc))
            return
        self._after_action(events)

    def _after_action(self, events: list[Any]) -> None:
        table = self.table
        actor = table.actions[-1][0]
        self._stop_clock(actor)
        self.seq += 1
        self._out.append(Journal(table.journal_action()))
        # One update per seat (and one for all spectators), encoded once, sealed per peer.
        # The players first: they wait on it to play on, spectators only watch.
        audience = [
            m
            for m in self.members.values()
            if m.joined and (m.seat is not None or m.spectator) and not m.closed
        ]
        audience.sort(key=lambda m: m.seat is None)
        by_seat: dict[int | None, Message | Packed] = {}
        for member in audience:
            if member.seat not in by_seat:
                by_seat[member.seat] = packed_once(
                    update_for(table.game, table.state, events, self.seq, actor, member.seat),
                    check=False,  # the engine's views and events: see encode_unchecked
                )
            self._send(member, by_seat[member.seat])
        self._sync_clock()
        if table.phase == "over":
            # The results and the audit (the whole game's actions, encrypted for everyone)
            # wait until the writers have sent the last update: players see the end at once.
            self._set_timer(GAME_OVER_TIMER, 0.0)
            return
        self._schedule_bots()

    # -- the bots ---------------------------------------------------------------------------------

    def _schedule_bots(self) -> None:
        if self.table.sealed:
            return  # a sealed game's bots play in memory, beside the relay (sealed_play.py)
        if self.table.bot_seats_to_act():
            self._out.append(WakeBots())

    def bot_to_act(self) -> int | None:
        """The first seat a bot plays that is asked to act now, if any."""
        seats = self.table.bot_seats_to_act()
        return seats[0] if seats else None

    def next_bot_question(self) -> BotQuestion | None:
        """The move the bots' loop is to think out next (None: no bot is asked now)."""
        seat = self.bot_to_act()
        return None if seat is None else self._question(seat)

    def _question(self, seat: int) -> BotQuestion:
        stand_in = self.table.seats[seat].stand_in
        return BotQuestion(seat, self.seq, self.table.bot_move(seat), stand_in)

    def bot_answered(
        self, question: BotQuestion, data: dict[str, Any] | None, now: float
    ) -> list[Effect]:
        """A bot's move for `question` (None: the bot failed to think, which the adapter has
        logged). Dropped when the table moved on while it thought (another action, the seat no
        longer asked), or when it stood in for a player who is back. A bot that failed or chose
        an illegal move is replaced by the random bot for that decision: one bot's bug never
        stops the table or the other bots (`BotFailed` only when no move at all could be made)."""
        self._now = now
        table = self.table
        seat = question.seat
        if (
            self.seq != question.seq
            or table.phase != "playing"
            or seat not in table.to_act()
            or (question.stand_in and not table.seats[seat].stand_in)
        ):
            return self._take()
        if data is not None:
            try:
                events = table.submit(seat, data)
            except GameError as exc:
                self._log(f"the bot for seat {seat + 1} chose an illegal move: {exc}")
            else:
                self._after_action(events)
                return self._take()
        try:
            events = table.submit(seat, table.bot_move(seat, "random")())
        except Exception as exc:  # no legal move at all: nothing a bot can do
            self._log(f"no move could be played for seat {seat + 1}: {exc!r}")
            self._out.append(BotFailed(seat))
            return self._take()
        self._after_action(events)
        return self._take()
