"""The lobby: what everyone is shown of the table, seats saying they are ready, and the owner's
requests (a bot added or removed, another game or number of seats)."""

from __future__ import annotations

from netcards.errors import GameError
from netcards.table import LobbyError
from protocol.errors import ErrorCode
from protocol.messages import AddBot, Lobby, Ready, RemoveBot, Seated, SeatInfo, SetOptions
from protocol.table_session.core import Member, SessionCore


class LobbyRoom(SessionCore):
    @property
    def dealing(self) -> bool:
        return self.round is not None

    def lobby_message(self) -> Lobby:
        table = self.table
        phase = "dealing" if self.dealing else table.phase
        note = table.start_problem() or "" if table.phase == "lobby" and not self.dealing else ""
        return Lobby(
            table.name,
            table.game.id,
            table.config.players,
            {k: v for k, v in table.config.options.items() if k != "deck"},
            tuple(
                SeatInfo(
                    s.index,
                    s.kind,
                    s.name,
                    s.ready or s.kind == "bot",
                    s.connected or s.kind == "bot",
                    s.bot_level,
                    s.stand_in,
                )
                for s in table.seats
            ),
            sum(1 for m in self.members.values() if m.spectator),
            self.password_protected,
            phase,
            note,
            round(self.settings.turn_clock * 1000),
            table.sealed,
        )

    def _broadcast_lobby(self) -> None:
        self._to_everyone(self.lobby_message())

    def _ready(self, member: Member, ready: Ready) -> None:
        if member.seat is None:
            self._refuse(member, ErrorCode.NOT_ALLOWED, "spectators are never asked to be ready")
            return
        try:
            self.table.set_ready(member.seat, ready.ready)
        except LobbyError as exc:
            self._refuse(member, ErrorCode.NOT_ALLOWED, str(exc))
            return
        self._broadcast_lobby()
        self._maybe_deal()

    def _owner_request(self, member: Member, message: AddBot | RemoveBot | SetOptions) -> None:
        if member.token is None or member.token != self.owner_token:
            self._refuse(member, ErrorCode.NOT_ALLOWED, "only the table's owner may do that")
            return
        try:
            if isinstance(message, AddBot):
                self.table.add_bot(message.level, message.seat)
            elif isinstance(message, RemoveBot):
                self.table.remove_bot(message.seat)
            else:
                self._reconfigure(message)
        except GameError as exc:
            self._refuse(member, ErrorCode.REFUSED, str(exc))
            return
        self._broadcast_lobby()
        self._maybe_deal()

    def _reconfigure(self, message: SetOptions) -> None:
        """Another game, number of seats or options; every seated player is told its seat again
        (it may have a new number, and nobody is ready now)."""
        options = dict(message.options)
        deck = self.table.config.options.get("deck")
        if "deck" not in options and deck is not None and message.game == self.table.game.id:
            options["deck"] = deck  # the lobby never shows the deck: unsaid, it stays
        before = [s for s in self.table.seats if s.kind == "bot"]
        self.table.reconfigure(message.game, message.players, options)
        table = self.table
        self._log(f"the table is now {table.game.name}, {table.config.players} seats")
        self._notice("changed", game=table.game.name, players=table.config.players)
        for bot in before:
            if bot not in table.seats:  # the fewer seats had no room for it
                self._log(f"{bot.name} leaves: no seat for it at the smaller table")
                self._notice("bot_left", name=bot.name)
        for other in self.members.values():
            if other.token is not None and other.joined and not other.closed:
                seat = table.seat_of_token(other.token)
                other.seat = seat.index
                owner = seat.token == self.owner_token
                self._send(other, Seated(seat.index, None, False, owner))
