"""Seats: joining (a new seat, a seat token's seat back, watching), catching up, and leaving.

Where "a seat comes back" is decided: `_rejoin` (the newer connection wins, the grace timer is
cancelled, the stand-in steps aside) and `_catch_up` (what the one who is back is sent).
"""

from __future__ import annotations

from netcards.table import LobbyError
from protocol.admission import spectator_refusal
from protocol.errors import ErrorCode
from protocol.fanout import history_messages, snapshot_for
from protocol.messages import Contribution, Join, Seated, Start, TableNotice
from protocol.table_session.core import Member, SessionCore


class Seats(SessionCore):
    def _join(self, member: Member, join: Join) -> None:
        table = self.table
        member.joined = True
        member.name = join.name
        if join.spectator:
            self._watch(member)
            return
        if join.resume is not None:
            self._rejoin(member, join.resume)
            return
        token = self.random_bytes(32)
        if table.phase == "over":  # say so: a player may be back for the next game too soon
            why = "the game at this table is over, and it is not open for another yet"
            self._refuse(member, ErrorCode.TABLE_FULL, why, fatal=True, detail={"over": True})
            return
        try:
            seat = table.claim_seat(join.name, token.hex())
        except LobbyError as exc:  # full, or its game has begun: no seat for a newcomer
            self._refuse(
                member, ErrorCode.TABLE_FULL, f"{exc}; you may join as a spectator", fatal=True
            )
            return
        member.seat, member.token = seat.index, seat.token
        owner = self.owner_token is None and seat.name == self.owner_name
        if owner:
            self.owner_token = seat.token
            self._log(f"{seat.name} owns the table")
        self._send(member, Seated(seat.index, token, False, owner))
        self._log(f"{member.label} sits in seat {seat.index + 1}")
        self._broadcast_lobby()
        self._earlier_chat(member)

    def _watch(self, member: Member) -> None:
        s = self.settings
        refusal = spectator_refusal(
            [m.ip for m in self.members.values() if m.spectator and not m.closed],
            member.ip,
            limit=s.max_spectators,
            per_address=s.max_spectators_per_address,
        )
        if refusal is not None:
            self._refuse(member, ErrorCode.REFUSED, refusal, fatal=True)
            return
        member.spectator = True
        self._send(member, Seated(None, None, False, False))
        self._log(f"{member.label} watches")
        self._broadcast_lobby()
        self._catch_up(member)
        self._earlier_chat(member)

    def _rejoin(self, member: Member, resume: bytes) -> None:
        table = self.table
        try:
            seat = table.rejoin(resume.hex())  # any stand-in bot steps aside
        except LobbyError:
            self._refuse(
                member, ErrorCode.BAD_TOKEN, "this seat token is not valid here", fatal=True
            )
            return
        for other in list(self.members.values()):
            if other is not member and other.seat == seat.index and other.joined:
                self._log(f"{other.label} replaced by a newer connection")
                other.seat = None
                # Said, so that a program still alive there stops instead of coming back
                # with the same token and pushing the newer one out in turn, for ever.
                self._refuse(
                    other,
                    ErrorCode.REPLACED,
                    "a newer connection took this seat with its seat token",
                    fatal=True,
                )
        member.seat, member.token = seat.index, seat.token
        self._cancel_grace(seat.index)
        owner = seat.token == self.owner_token
        self._send(member, Seated(seat.index, resume, True, owner))
        if table.phase == "playing":
            self._notice("back", seat=seat.index, name=seat.name)
        self._log(f"{member.label} is back in seat {seat.index + 1}")
        self._broadcast_lobby()
        self._catch_up(member)
        self._earlier_chat(member)
        self._schedule_bots()
        self._sync_clock()

    def _catch_up(self, member: Member) -> None:
        """A (re)joining peer mid-game gets the start, its whole log and a snapshot."""
        table = self.table
        if table.phase == "lobby":
            if self.round is not None:  # the deal is being made: the joiner witnesses it too
                self._send(member, self._commit_message(self.round))
                if self.round.stage == "revealing":
                    self._send(member, self._pledges_message(self.round))
            return
        if self.taken_back_from is not None:  # before `start`, while it still has its old seq
            if self._run is None:  # drawn only here: a table never resumed draws nothing more
                self._run = int.from_bytes(self.random_bytes(6), "big")
            args = {"seq": self.taken_back_from, "run": self._run}
            self._send(member, TableNotice("taken_back", args))
        if table.sealed:
            self._sealed_catch_up(member)  # the host holds no view of a sealed seat to send
            return
        self._send(member, self._start_message(member.seat))
        for chunk in history_messages(table.history_steps(member.seat)):
            self._send(member, chunk)
        self._send(member, snapshot_for(table.game, table.state, self.seq, member.seat))
        if table.phase == "over":
            self._send_results(member)

    def _start_message(self, seat: int | None) -> Start:
        table = self.table
        return Start(
            table.game.id,
            table.game.rules_version,
            table.config.players,
            dict(table.config.options),
            tuple(s.name for s in table.seats),
            seat,
            table.commit,
            tuple(Contribution(s, part) for s, part in sorted(table.contributions().items())),
            tuple(table.game.cards(table.config)),
            table.sealed,
        )

    def _gone(self, member: Member) -> None:
        """`member`'s connection is over: its seat is freed in the lobby, or held (and its grace
        starts) during a game; a deal being made without it is called off."""
        if self.members.pop(member.number, None) is None or not member.joined:
            return
        table = self.table
        if member.seat is not None and member.token is not None:
            if any(m.seat == member.seat and m.joined for m in self.members.values()):
                return  # the seat has a newer connection already
            named_owner = self.owner_name is not None and member.token == self.owner_token
            if table.phase == "lobby" and (member.token != self.owner_token or named_owner):
                table.disconnect(member.seat)
                if named_owner:
                    self.owner_token = None  # the owner may come back under the name
            else:
                table.seats[member.seat].connected = False
                if table.phase == "playing":
                    why = "left" if member.left else "away"
                    self._notice(why, seat=member.seat, name=table.seats[member.seat].name)
                    self._start_grace(member.seat)
        problem = table.start_problem() if self.round is not None else None
        if problem is not None:
            self._call_off(problem)  # tells everyone, the lobby included
            return
        self._broadcast_lobby()
