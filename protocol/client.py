"""A player's (or spectator's) connection to a table, on asyncio TCP.

It pins the host's key on first contact (asking `trust` first, when given), keeps the current
view, the log and the chat, reconnects by itself with its seat token when the link drops, and
checks the deal at the end. The UI and the headless bot read `updates`, a queue of small
notices (`client_notices.py`); everything they need to draw is also kept on the object. What
it does with each message from the host is `client_messages.py`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from netcards.action import Action as GameAction
from netcards.errors import GameError
from netcards.fairdeal import Verdict
from netcards.game import Game, Outcome, TableConfig
from netcards.replay import Replay, from_finished_game
from netcards.shown import ShownGame
from protocol.address import format_address, parse_address
from protocol.client_connection import ClientConnection
from protocol.client_messages import AUDIT_CHECK_PAUSE, HostMessages
from protocol.client_notices import (
    ChatLine,
    ClockChanged,
    Connected,
    DealChecked,
    Failed,
    Fatal,
    GameOver,
    GameStarted,
    HostRefused,
    JoinAgain,
    LinkDown,
    LobbyChanged,
    Notice,
    SeatTaken,
    TableClosed,
    TableSays,
    TokenRefused,
    ViewChanged,
)
from protocol.deal_witness import DealWitness
from protocol.disk_worker import shared
from protocol.errors import (
    STREAM_ERRORS,
    ErrorCode,
    HostKeyChanged,
    PasswordRequired,
    ProtocolError,
    VersionMismatch,
    WrongPassword,
)
from protocol.events import ConnectionClosed, HandshakeDone, MessageReceived, NeedData
from protocol.known_hosts import KnownHosts
from protocol.liveness import Liveness
from protocol.messages import (
    Action,
    AddBot,
    Join,
    Leave,
    Lobby,
    Message,
    Ready,
    RemoveBot,
    Say,
    SetOptions,
)
from protocol.own_moves import OwnMoves
from protocol.seat_tokens import SealedSeedFile
from protocol.settings import host_silence
from protocol.silence import SilenceWatch

Trust = Callable[[str], Awaitable[bool]]

__all__ = [
    "AUDIT_CHECK_PAUSE",
    "ChatLine",
    "ClientSettings",
    "ClockChanged",
    "Connected",
    "DealChecked",
    "Failed",
    "Fatal",
    "GameOver",
    "GameStarted",
    "HostRefused",
    "JoinAgain",
    "LinkDown",
    "LobbyChanged",
    "Notice",
    "SeatTaken",
    "TableClient",
    "TableClosed",
    "TableSays",
    "TokenRefused",
    "ViewChanged",
]


@dataclass
class ClientSettings:
    connect_timeout: float = 10.0
    retry_delays: tuple[float, ...] = (0.2, 0.5, 1.0, 2.0, 3.0, 5.0)
    give_up_after: float = 600.0
    ping_interval: float = 5.0
    """A host quiet this long is pinged (it answers at once, however long its game waits)."""
    silence_timeout: float = 20.0
    host_silence: float = field(default_factory=host_silence)
    """Seconds of open links on which the host, since it last said anything, said nothing at
    all: then it is given up on, as frozen (`NETCARDS_HOST_SILENCE`; 60 by default)."""

    @property
    def ping_every(self) -> float:
        """How long the host may be quiet before it is pinged: a few pings fit in the wait for
        a silent host, so that one answering them is never taken for frozen."""
        return min(self.ping_interval, self.host_silence / 4)


@dataclass
class TableClient(HostMessages):
    address: str
    name: str
    known_hosts: KnownHosts
    password: str | None = None
    spectator: bool = False
    token: bytes | None = None
    trust: Trust | None = None
    settings: ClientSettings = field(default_factory=ClientSettings)
    random_bytes: Callable[[int], bytes] = os.urandom
    trace: Callable[[Message], None] | None = None
    """Called with every message the host sends us, decrypted (for `netcards bot --log`)."""
    deal: DealWitness = field(default_factory=DealWitness)
    """What we saw of the deal being made (restored from disk by a restarted program)."""
    keep_deal: Callable[[DealWitness], None] | None = None
    """Writes the deal notes to disk; called whenever they change, before the pledge or the
    part they record is sent, so that a restarted program never forgets a part it revealed."""
    moves: OwnMoves = field(default_factory=OwnMoves)
    """Which of our seat's moves this program made and which a bot made for us (restored from
    disk by a restarted program): the log says who made each."""
    keep_moves: Callable[[OwnMoves], None] | None = None
    seed_file: SealedSeedFile | None = None
    """Where our seat's seed for a sealed game is kept (beside the seat token), so that a
    restarted program takes the seat back; None: in memory only."""
    """Writes `moves` to disk whenever one of our own moves is applied (or found not ours)."""
    """What we saw of the deal being made (restored from disk by a restarted program)."""

    # What the table looks like now.
    fingerprint: str = ""
    seat: int | None = None
    owner: bool = False
    lobby: Lobby | None = None
    game: Game[Any] | None = None
    config: TableConfig | None = None
    names: tuple[str, ...] = ()
    cards: list[dict[str, Any]] = field(default_factory=list)
    """The table's card catalogue from `start`: entry i describes card id i."""
    view: dict[str, Any] | None = None
    to_act: tuple[int, ...] = ()
    seq: int = 0
    awaiting: bool = False
    """An action of ours is on its way: do not act again until the host applied or refused it."""
    log: list[dict[str, Any]] = field(default_factory=list)
    steps: list[tuple[int, tuple[dict[str, Any], ...]]] = field(default_factory=list)
    shown: ShownGame = field(default_factory=ShownGame)
    """What the host showed us of the game (views, events, result, start), for the audit."""
    """(update number, its events) for every update so far: the log, numbered for the audit."""
    chat: list[ChatLine] = field(default_factory=list)
    notices: list[TableSays] = field(default_factory=list)
    clock: dict[int, float] = field(default_factory=dict)
    """Seat -> when its time runs out, on this event loop's clock (`loop.time()`)."""
    turn_clock_ms: int = 0
    outcome: Outcome | None = None
    verdict: Verdict | None = None
    host_closed: bool = False
    """The host said it closes the table on purpose; once it has, `standings` (if a game was
    on) are the results so far."""
    last_game: bool = False
    """The host said its table closes when this game is over: no next game at this address."""
    standings: Outcome | None = None
    connected: bool = False
    updates: asyncio.Queue[Notice] = field(default_factory=asyncio.Queue)

    def __post_init__(self) -> None:
        host, port = parse_address(self.address)
        self.host, self.port = host, port
        self.pin_name = format_address(host, port)
        self._conn: ClientConnection | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._contributions: dict[int, bytes] = {}
        self._heard_taken_back: set[tuple[object, int]] = set()
        self._audit: list[tuple[int, dict[str, Any]]] = []
        self._audit_part: bytes | None = None
        self._audit_seed: bytes | None = None
        self._leaving = False
        self._done = asyncio.Event()
        self._ever_connected = False
        self._handshaking = False
        """Connected, the handshake not done: what fails now says the peer is no table."""
        self._down_since: float | None = None
        self._unheard = 0.0
        """Seconds the links to the host, open (connected, or in the handshake), went without
        a byte from it since it last said anything: ended links too, but never the time no
        link was open (a host that crashed refuses connections, and is waited for)."""
        self._heard_at: float | None = None
        """While a link is open: when its host last said anything (or when it opened)."""
        self._acted_at: int | None = None
        self._answer_due = False
        """Our action sent at `_acted_at` has neither been applied nor refused yet."""
        self._claimed: tuple[int, int] | None = None
        """(`_acted_at`, the seq of the update taken as its answer): a `stale_seq` refusal of
        that action later says the update was the turn clock's bot's move, not ours."""
        self._shown_before: Counter[ChatLine] | None = None
        self._linked = False
        """This link has taken its seat (or its spectator's place)."""
        self._told_sealed: bool | None = None
        """This session's `earlier` chat lines still to be matched with lines already shown."""

    # -- what a player does ------------------------------------------------------------------------

    def replay(self) -> Replay | None:
        """The finished game for `netcards replay`, once the host has revealed it (at a sealed
        table, once this seat's audit has found it sound)."""
        if self.sealed is not None:
            return self._sealed_replay()
        if self.verdict is None or self.game is None or self.config is None:
            return None
        if self._audit_seed is None:
            return None
        return from_finished_game(
            self.game,
            self.config,
            self.seat,
            self.names,
            self._audit_seed,
            self._audit,
            stand_in=self.moves.by_bot,  # update n is action n's
        )

    def legal_actions(self) -> list[GameAction]:
        """What this seat may do now, worked out from its view."""
        if self.game is None or self.view is None or self.seat is None:
            return []
        return self.game.legal_actions_in_view(self.view)

    @property
    def my_turn(self) -> bool:
        """Asked to act, and no action of ours is still on its way to the host."""
        return (
            self.seat is not None
            and self.seat in self.to_act
            and self.outcome is None
            and not self.awaiting
        )

    async def act(self, action: GameAction | dict[str, Any]) -> None:
        if self.sealed is not None:
            await self._sealed_act(action, self._game())
            return
        data = action if isinstance(action, dict) else self._game().encode_action(action)
        self.awaiting = True
        self._acted_at = self.seq
        self._answer_due = True
        try:
            await self._send(Action(self.seq, data))
        except Exception:  # not sent (a lost link, a message refused on our side): no answer due
            self.awaiting = self._answer_due = False
            raise

    async def set_ready(self, ready: bool = True) -> None:
        await self._send(Ready(ready))

    async def say(self, text: str) -> None:
        await self._send(Say(text))

    async def add_bot(self, seat: int, level: str) -> None:
        await self._send(AddBot(seat, level))

    async def remove_bot(self, seat: int) -> None:
        await self._send(RemoveBot(seat))

    async def set_options(self, game: str, players: int, options: dict[str, Any]) -> None:
        await self._send(SetOptions(game, players, options))

    def leaving_on_purpose(self) -> None:
        """Our user chose to leave: the deal notes stop counting what follows as a re-deal (the
        host did not make us go). Written at once, before the link closes."""
        self.deal.on_left()
        self._keep_deal()

    async def leave(self, reason: str = "") -> None:
        self._leaving = True
        await shared().settled()  # the notes that say we left are on the disk before we go
        with contextlib.suppress(Exception):
            await self._send(Leave(reason))
        self._hang_up()
        self._done.set()

    def _game(self) -> Game[Any]:
        if self.game is None:
            raise GameError("the game has not started")
        return self.game

    async def _send(self, message: Message) -> None:
        if self._conn is None or self._writer is None or not self._conn.can_send:
            raise ConnectionError("not connected to the table")
        self._writer.write(self._conn.send(message))
        await self._writer.drain()

    # -- the session loop ----------------------------------------------------------------------------

    async def run(self) -> None:
        """Connect and play until the game is checked, the user leaves, or the host refuses us.

        A dropped link is retried with the seat token (or as a spectator again), with growing
        pauses, for up to `give_up_after` seconds. A first connection that fails is retried
        only by a client that holds a seat token (a restarted program whose host may be
        restarting too, or busy): without one, the address is probably wrong."""
        loop = asyncio.get_running_loop()
        delays = list(self.settings.retry_delays)
        while not self._done.is_set():
            try:
                await self._session()
                if self._done.is_set():
                    return
                reason, code = "the host closed the connection", "closed"
            except Fatal as exc:
                self._notify(Failed(str(exc), exc.code))
                self._done.set()
                return
            except JoinAgain:
                continue
            except (OSError, TimeoutError, ProtocolError, asyncio.IncompleteReadError) as exc:
                reason = _describe(exc)
                if isinstance(exc, socket.gaierror):
                    reason = f"no machine named {self.host} was found"
                code = _failure_code(exc)
                if self._handshaking and code in NOT_A_TABLE:
                    why = "said nothing" if code == "no_answer" else reason
                    code = "not_a_table"
                    reason = (
                        f"{self.address} is not a netcards table (it took the connection, then "
                        f"{why}): check the port"
                    )
            finally:
                self.connected = False
                self._hang_up()
                if self._heard_at is not None:
                    self._unheard += loop.time() - self._heard_at
                    self._heard_at = None
            if self.host_closed:
                self._closed_by_host()
                return
            if self._leaving or self.verdict is not None:
                return
            if (self._ever_connected or self.token is not None) and self._host_frozen():
                self._host_stopped_answering()
                return
            now = loop.time()
            if self._down_since is None:
                self._down_since = now
            retrying = (self._ever_connected or self.token is not None) and (
                now - self._down_since < self.settings.give_up_after
            )
            self._notify(LinkDown(reason, retrying, code))
            if not retrying:
                if self._ever_connected:
                    self._notify(Failed(f"lost the table: {reason}", "lost"))
                else:
                    self._notify(Failed(f"could not reach the table: {reason}", code))
                self._done.set()
                return
            await asyncio.sleep(delays[0])
            if len(delays) > 1:
                delays.pop(0)

    async def wait_done(self) -> None:
        await self._done.wait()

    def _hang_up(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._writer = None
        self._conn = None

    def _host_frozen(self) -> bool:
        return self._unheard >= self.settings.host_silence

    def _silence_left(self) -> float:
        """How long the open link may stay silent before the host counts as frozen."""
        return max(0.0, self.settings.host_silence - self._unheard)

    def _host_stopped_answering(self) -> None:
        """The host kept its links open and said nothing for `host_silence` seconds, pings
        unanswered: it is given up on. A game under way gets a verdict that names the host,
        neither verified nor caught (its end, and its check, will not come)."""
        why = (
            f"the host stopped answering (nothing from it for "
            f"{self.settings.host_silence:g} s while its connection was open)"
        )
        if self.game is not None and self.verdict is None:
            self.verdict = Verdict(unchecked=[why])
            if self.sealed is not None:
                self.sealed_verdict = self.verdict.headline
            self._notify(DealChecked(self.verdict))
        self._notify(Failed(why, "host_silent"))
        self._done.set()

    async def _session(self) -> None:
        self._shown_before = None
        self._linked = False
        self._handshaking = False
        loop = asyncio.get_running_loop()
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(self.host, self.port, limit=2**16),
            self.settings.connect_timeout,
        )
        self._heard_at = loop.time()  # a link open: its silence counts from now
        self._handshaking = True
        pinned = self.known_hosts.lookup(self.pin_name)
        conn = ClientConnection(self.random_bytes, password=self.password, pinned_host_key=pinned)
        self._conn, self._writer = conn, writer
        writer.write(conn.data_to_send())
        await writer.drain()
        silence = SilenceWatch(
            reader,
            lambda: min(
                self.settings.connect_timeout
                if conn.handshake is None
                else self.settings.silence_timeout,
                self._silence_left(),
            ),
            "the host went silent",
        )
        liveness = Liveness(loop.time(), self.settings.ping_every, float("inf"))
        pings = asyncio.create_task(self._keep_alive(conn, writer, liveness))
        try:
            await self._read_session(conn, reader, writer, silence, pinned is None, liveness)
        finally:
            silence.close()
            pings.cancel()

    async def _keep_alive(
        self, conn: ClientConnection, writer: asyncio.StreamWriter, liveness: Liveness
    ) -> None:
        """Ping a host that has been quiet for `ping_every` (once the handshake is done): a
        host alive answers at once, even while its game waits on another seat, so that only
        a host that answers nothing is ever taken for frozen (`host_silence`)."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(max(0.0, liveness.deadline() - loop.time()))
            ping = liveness.poll(loop.time())
            if ping is not None and conn.can_send and self.connected:
                with contextlib.suppress(ProtocolError, OSError):
                    writer.write(conn.send(ping))

    async def _read_session(
        self,
        conn: ClientConnection,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        silence: SilenceWatch,
        first_contact: bool,
        liveness: Liveness,
    ) -> None:
        loop = asyncio.get_running_loop()
        while True:
            data = await silence.read(65536)
            if data:
                self._heard_at = loop.time()
                self._unheard = 0.0
                liveness.received(self._heard_at)
            try:
                conn.receive_data(data)
                while True:
                    event = conn.next_event()
                    out = conn.data_to_send()
                    if out:
                        writer.write(out)
                    if isinstance(event, NeedData):
                        break
                    if isinstance(event, ConnectionClosed):
                        return
                    if isinstance(event, HandshakeDone):
                        await self._handshake_done(event, first_contact)
                        self._heard_at = loop.time()  # a question for the user is no silence
                    elif isinstance(event, MessageReceived):
                        await self._on_message(event.message)
                        if self._done.is_set():
                            return
            except (HostKeyChanged, WrongPassword, PasswordRequired, VersionMismatch) as exc:
                with contextlib.suppress(Exception):
                    writer.write(conn.data_to_send())
                raise Fatal(str(exc), exc.code.value) from None
            except ProtocolError:
                with contextlib.suppress(Exception):  # tell the host why we hang up
                    writer.write(conn.data_to_send())
                raise
            await writer.drain()

    async def _handshake_done(self, done: HandshakeDone, first_contact: bool) -> None:
        self._handshaking = False
        self.fingerprint = done.fingerprint
        if first_contact:
            if self.trust is not None and not await self.trust(done.fingerprint):
                self._leaving = True
                raise Fatal(
                    f"you did not trust the host with fingerprint {done.fingerprint}", "untrusted"
                )
            self.known_hosts.remember(self.pin_name, done.host_key)
        self.connected = True
        self._ever_connected = True
        self._down_since = None
        self._notify(Connected(done.fingerprint, first_contact))
        await self._send(Join(self.name, self.token, self.spectator))

    def _notify(self, notice: Notice) -> None:
        self.updates.put_nowait(notice)

    def _sealed_finished(self) -> None:
        self._done.set()

    def _notify_table(self, code: str, **args: Any) -> None:
        said = TableSays(code, args, len(self.log))
        self.notices.append(said)
        self._notify(said)


NOT_A_TABLE = frozenset(
    {"no_answer", ErrorCode.UNEXPECTED_MESSAGE.value}
    | {code.value for code in STREAM_ERRORS}
    - {ErrorCode.AUTHENTICATION_FAILED, ErrorCode.COUNTER_EXHAUSTED, ErrorCode.TIMEOUT}
)
"""Failures that, before the handshake is done, say the peer does not speak our protocol: it
stays silent (a server waiting for its own kind of request), or what it sends is no frame or
no handshake message. A host that ends the handshake with an `error` is a netcards host (its
reason arrives as `peer_error`, or as the reason itself)."""


def _failure_code(exc: BaseException) -> str:
    """`Failed.code` for a connection that failed with `exc`."""
    if isinstance(exc, socket.gaierror):
        return "unknown_host"
    if isinstance(exc, ConnectionRefusedError):
        return "no_listener"
    if isinstance(exc, TimeoutError):
        return "no_answer"
    if isinstance(exc, ProtocolError):
        return exc.code.value
    return "unreachable"


def _describe(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return str(exc) or "the connection timed out"
    if isinstance(exc, ConnectionRefusedError):
        return "nobody answers at that address (is the table open?)"
    if isinstance(exc, ProtocolError):
        return str(exc)
    if isinstance(exc, OSError):
        return exc.strerror or str(exc) or exc.__class__.__name__
    return exc.__class__.__name__
