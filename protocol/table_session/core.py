"""The session's shared state (the table, its members, the armed timers) and how it says things.

Every concern of the table (`door`, `seats`, `lobby`, `dealing`, `play`, `clock`, `chat`,
`ending`) is a mixin over this core: they share the state below and speak only through the
helpers here, which append effects (`effects.py`) to the outbox the public inputs hand back.
Methods one concern calls in another are declared here, so each module reads on its own.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from netcards.table import Table
from protocol.connection import Packed, packed
from protocol.deal_round import DealRound
from protocol.errors import ErrorCode, ProtocolError
from protocol.messages import Chat, Commit, Error, Message, Pledges, Start, TableNotice
from protocol.repeats import RepeatedLines
from protocol.table_session.config import HostSettings
from protocol.table_session.effects import (
    BotQuestion,
    CancelTimer,
    Close,
    Effect,
    Log,
    Send,
    SetTimer,
    TimerKey,
)
from protocol.throttle import FailureThrottle

RandomBytes = Callable[[int], bytes]


@dataclass
class Member:
    """One connection as the table sees it: who it is, where it sits, how it has behaved."""

    number: int
    address: str
    ip: str
    opened: float
    joined: bool = False
    spectator: bool = False
    token: str | None = None
    seat: int | None = None
    name: str = ""
    chat_allowance: float = 0.0
    chat_checked: float = 0.0
    left: bool = False
    """It said `leave`: its player left on purpose, and the others are told so."""
    chat_refusals: int = 0
    """Lines refused for coming too fast: past the limit, the speaker is disconnected (other
    refusals, such as a stale move, never count towards it)."""
    closed: bool = False

    @property
    def label(self) -> str:
        who = f" {self.name!r}" if self.name else ""
        return f"peer {self.number}{who} ({self.address})"


def packed_once(message: Message, check: bool = True) -> Message | Packed:
    """`message` encoded once for every peer it goes to; left as it is when it cannot be (too
    big), so that sending it says so for each peer, as sending any message does."""
    try:
        return packed(message, check=check)
    except ProtocolError:
        return message


class SessionCore:
    def __init__(
        self,
        table: Table,
        *,
        settings: HostSettings,
        random_bytes: RandomBytes,
        password_protected: bool = False,
        throttle: FailureThrottle | None = None,
        owner_token: bytes | None = None,
        owner_name: str | None = None,
    ) -> None:
        self.table = table
        self.settings = settings
        self.random_bytes = random_bytes
        self.password_protected = password_protected
        self.throttle = throttle if throttle is not None else FailureThrottle()
        """Wrong passwords per peer address: a growing wait before the next guess is judged."""
        self.owner_token = owner_token.hex() if owner_token else None
        self.owner_name = owner_name
        """A headless table's owner: the first player to join under this name (while the
        seat it takes is held, nobody else can become the owner)."""
        self.members: dict[int, Member] = {}
        self.seq = len(table.actions)
        self.round: DealRound | None = None
        self.taken_back_from: int | None = None
        """Set when resuming a game from a journal: the number of the first action it does not
        hold. Everyone who comes back is told (a client heeds it once), so that whoever had seen
        that action (its record torn by the crash, or lost whole to a power cut before it was
        synced) knows it is taken back."""
        self._withheld: set[str] = set()
        """Seat tokens of players who pledged and did not reveal in time: not asked again."""
        self._results: list[Message | Packed] | None = None  # the end of the game, once over
        self._numbers = 0
        self._timers: dict[TimerKey, float] = {}
        """Armed timers and when each is due: a firing of one not armed (cancelled, replaced)
        is ignored."""
        self._clocks: dict[int, float] = {}
        """Seats whose turn clock runs, and when it runs out."""
        self._run: int | None = None
        """A number of this run of the host, new at every start: a client told that actions
        were taken back heeds it once per run (`taken_back`'s `run`)."""
        self._chat: deque[Chat] = deque(maxlen=settings.chat_memory)
        self._refusals = RepeatedLines(self._log, "refused", interval=settings.refusal_log_interval)
        """Connections turned away at once (their address guessed too often): the first of an
        address is logged, then how many more once per interval (`tick`)."""
        """The last lines said, for those who join later (`_earlier_chat`)."""
        self._now = 0.0
        """The time of the input being handled (monotonic seconds, passed in)."""
        self._out: list[Effect] = []

    # -- the outbox -------------------------------------------------------------------------------

    def _take(self) -> list[Effect]:
        out, self._out = self._out, []
        return out

    def _log(self, line: str) -> None:
        self._out.append(Log(line))

    def _send(self, member: Member, message: Message | Packed) -> None:
        if not member.closed:
            self._out.append(Send(member.number, message))

    def _close(self, member: Member) -> None:
        if not member.closed:
            member.closed = True
            self._out.append(Close(member.number))

    def _to_everyone(self, message: Message) -> None:
        outgoing = packed_once(message)
        for member in self.members.values():
            if member.joined:
                self._send(member, outgoing)

    def _notice(self, code: str, **args: Any) -> None:
        self._to_everyone(TableNotice(code, args))

    def _refuse(
        self,
        member: Member,
        code: ErrorCode,
        text: str,
        *,
        fatal: bool = False,
        detail: dict[str, Any] | None = None,
    ) -> None:
        self._send(member, Error(code.value, text[:500], fatal, detail or {}))
        if fatal:
            self._close(member)

    def _set_timer(self, key: TimerKey, delay: float) -> None:
        self._timers[key] = self._now + delay
        self._out.append(SetTimer(key, delay))

    def _cancel_timer(self, key: TimerKey) -> None:
        if self._timers.pop(key, None) is not None:
            self._out.append(CancelTimer(key))

    # -- what one concern asks of another ----------------------------------------------------------

    def _broadcast_lobby(self) -> None:
        raise NotImplementedError  # lobby.py

    def _maybe_deal(self) -> None:
        raise NotImplementedError  # dealing.py

    def _call_off(self, reason: str) -> None:
        raise NotImplementedError  # dealing.py

    def _catch_up(self, member: Member) -> None:
        raise NotImplementedError  # seats.py

    def _earlier_chat(self, member: Member) -> None:
        raise NotImplementedError  # chat.py

    def _schedule_bots(self) -> None:
        raise NotImplementedError  # play.py

    def _question(self, seat: int) -> BotQuestion:
        raise NotImplementedError  # play.py

    def _commit_message(self, round_: DealRound) -> Commit:
        raise NotImplementedError  # dealing.py

    def _pledges_message(self, round_: DealRound) -> Pledges:
        raise NotImplementedError  # dealing.py

    def _start_message(self, seat: int | None) -> Start:
        raise NotImplementedError  # seats.py

    def _sync_clock(self) -> None:
        raise NotImplementedError  # clock.py

    def _stop_clock(self, seat: int) -> None:
        raise NotImplementedError  # clock.py

    def _start_grace(self, seat: int) -> None:
        raise NotImplementedError  # clock.py

    def _cancel_grace(self, seat: int) -> None:
        raise NotImplementedError  # clock.py

    def _send_results(self, member: Member) -> None:
        raise NotImplementedError  # ending.py

    def _game_over(self) -> None:
        raise NotImplementedError  # ending.py

    def _sealed_deal(self) -> None:
        raise NotImplementedError  # sealed_play.py

    def _sealed_waits(self, seat: int) -> None:
        raise NotImplementedError  # sealed_play.py

    def _sealed_moved(self, seat: int) -> None:
        raise NotImplementedError  # sealed_clock.py

    def _sealed_present(self, seat: int, *, say: bool = True) -> None:
        raise NotImplementedError  # sealed_clock.py

    def _end_table(self, why: str = "the host closed the table") -> None:
        raise NotImplementedError  # ending.py

    def _sealed_catch_up(self, member: Member) -> None:
        raise NotImplementedError  # sealed_play.py

    def sealed_unchecked(self) -> list[str] | None:
        raise NotImplementedError  # sealed_play.py
