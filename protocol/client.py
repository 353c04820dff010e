"""A player's (or spectator's) connection to a table, on asyncio TCP.

It pins the host's key on first contact (asking `trust` first, when given), keeps the current
view, the log and the chat, reconnects by itself with its seat token when the link drops, and
checks the deal at the end. The UI and the headless bot read `updates`, a queue of small
notices; everything they need to draw is also kept on the object.
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
from netcards.fairdeal import Verdict, combine, verify_game
from netcards.game import Game, Outcome, TableConfig
from netcards.registry import get_game
from netcards.replay import Replay, from_finished_game
from netcards.shown import ShownGame
from protocol.address import format_address, parse_address
from protocol.client_connection import ClientConnection
from protocol.deal_witness import DealTampered, DealWitness
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
from protocol.limits import CHAT_MEMORY
from protocol.messages import (
    Action,
    AddBot,
    Audit,
    Chat,
    Clock,
    Commit,
    Contribute,
    Error,
    History,
    Join,
    Leave,
    Lobby,
    Message,
    Pledge,
    Pledges,
    Ready,
    RemoveBot,
    Result,
    Say,
    Seated,
    SetOptions,
    Snapshot,
    Start,
    TableNotice,
    Update,
)
from protocol.own_moves import OwnMoves
from protocol.silence import SilenceWatch

Trust = Callable[[str], Awaitable[bool]]

AUDIT_CHECK_PAUSE = 0.05
"""Seconds between a game's results and the check of its audit (see `_on_message`)."""

# -- what the client tells its user -----------------------------------------------------------------


@dataclass(frozen=True)
class Connected:
    fingerprint: str
    first_contact: bool


@dataclass(frozen=True)
class LinkDown:
    """The connection dropped; `retrying` says whether the client is reconnecting. `code` says
    why without English, as `Failed.code` does (`closed`: the host ended the connection)."""

    reason: str
    retrying: bool
    code: str = "closed"


@dataclass(frozen=True)
class SeatTaken:
    seat: int | None
    owner: bool
    resumed: bool


@dataclass(frozen=True)
class LobbyChanged:
    lobby: Lobby


@dataclass(frozen=True)
class GameStarted:
    config: TableConfig
    seat: int | None
    names: tuple[str, ...]


@dataclass(frozen=True)
class ViewChanged:
    """The view changed; `events` are the new ones (empty after a snapshot)."""

    events: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class ChatLine:
    seat: int | None
    name: str
    text: str


@dataclass(frozen=True)
class TableSays:
    """A notice from the table itself (see protocol.notices for the codes). `taken_back` is
    worded by this client: the host came back from a crash without the last `count` actions we
    had seen (they are decided again)."""

    code: str
    args: dict[str, Any]


@dataclass(frozen=True)
class ClockChanged:
    """The turn clock changed: `TableClient.clock` has each clocked seat's deadline."""


@dataclass(frozen=True)
class HostRefused:
    """An `error` from the host: an illegal move (not fatal) or a refusal that ends the session."""

    code: str
    text: str
    fatal: bool
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TokenRefused:
    """The host knows no seat for our resume token (one saved from an earlier table at this
    address): the client has dropped it and joins again at once as a new player."""

    text: str


@dataclass(frozen=True)
class GameOver:
    outcome: Outcome


@dataclass(frozen=True)
class DealChecked:
    verdict: Verdict


@dataclass(frozen=True)
class Failed:
    """The client gave up for good (a refused host key, a wrong password, a fatal refusal).

    `code` says why without English: an error code of the protocol (`host_key_changed`,
    `wrong_password`, `password_required`, `table_full`...), or one of the client's own:
    `untrusted` (the user did not trust the host's key), `unknown_host` (the name resolves to
    no machine), `no_listener` (nobody listens there), `no_answer` and `unreachable` (a first
    connection that never reached a table), `not_a_table` (something answered there, but not a
    netcards host), `lost` (a table lost for too long), `table_over` (a `table_full` whose
    detail says the table's game is over and it is not open for another yet). The client's
    own codes are never the protocol's (the host's `refused` and `timeout` are its answers).
    """

    reason: str
    code: str = ""


@dataclass(frozen=True)
class TableClosed:
    """The host closed the table on purpose (a `closed` notice): nothing to reconnect to.

    When a game was being played, `standings` are its results so far and `verdict` the check
    of the deal so far, from the host's audit of the actions played (None without them)."""

    standings: Outcome | None
    verdict: Verdict | None


Notice = (
    Connected
    | LinkDown
    | SeatTaken
    | LobbyChanged
    | GameStarted
    | ViewChanged
    | ChatLine
    | TableSays
    | ClockChanged
    | HostRefused
    | TokenRefused
    | GameOver
    | DealChecked
    | Failed
    | TableClosed
)


class Fatal(Exception):
    """Stop for good: reconnecting would not help. `code` as in `Failed`."""

    def __init__(self, reason: str, code: str = "") -> None:
        super().__init__(reason)
        self.code = code


class JoinAgain(Exception):
    """Connect again at once (the host refused our seat token: we join as a new player)."""


@dataclass
class ClientSettings:
    connect_timeout: float = 10.0
    retry_delays: tuple[float, ...] = (0.2, 0.5, 1.0, 2.0, 3.0, 5.0)
    give_up_after: float = 600.0
    ping_interval: float = 5.0
    silence_timeout: float = 20.0


@dataclass
class TableClient:
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
    """Writes `moves` to disk whenever one of our own moves is applied (or found not ours)."""

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
    """(update number, its events) for every update so far: the log, numbered for the audit."""
    shown: ShownGame = field(default_factory=ShownGame)
    """What the host showed us of the game (views, events, result, start), for the audit."""
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
        self._acted_at: int | None = None
        self._answer_due = False
        """Our action sent at `_acted_at` has neither been applied nor refused yet."""
        self._claimed: tuple[int, int] | None = None
        """(`_acted_at`, the seq of the update taken as its answer): a `stale_seq` refusal of
        that action later says the update was the turn clock's bot's move, not ours."""
        self._shown_before: Counter[ChatLine] | None = None
        """This session's `earlier` chat lines still to be matched with lines already shown."""
        self._linked = False
        """This link has taken its seat (or its spectator's place)."""

    # -- what a player does ------------------------------------------------------------------------

    def replay(self) -> Replay | None:
        """The finished game for `netcards replay`, once the host has revealed it."""
        if self.verdict is None or self.game is None or self.config is None:
            return None
        if self._audit_seed is None:
            return None
        return from_finished_game(
            self.game, self.config, self.seat, self.names, self._audit_seed, self._audit
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
        data = action if isinstance(action, dict) else self._game().encode_action(action)
        self.awaiting = True
        self._acted_at = self.seq
        self._answer_due = True
        try:
            await self._send(Action(self.seq, data))
        except ConnectionError:
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
            if self.host_closed:
                self._closed_by_host()
                return
            if self._leaving or self.verdict is not None:
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

    async def _session(self) -> None:
        self._shown_before = None
        self._linked = False
        self._handshaking = False
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(self.host, self.port, limit=2**16),
            self.settings.connect_timeout,
        )
        self._handshaking = True
        pinned = self.known_hosts.lookup(self.pin_name)
        conn = ClientConnection(self.random_bytes, password=self.password, pinned_host_key=pinned)
        self._conn, self._writer = conn, writer
        writer.write(conn.data_to_send())
        await writer.drain()
        silence = SilenceWatch(
            reader,
            lambda: (
                self.settings.connect_timeout
                if conn.handshake is None
                else self.settings.silence_timeout
            ),
            "the host went silent",
        )
        try:
            await self._read_session(conn, reader, writer, silence, pinned is None)
        finally:
            silence.close()

    async def _read_session(
        self,
        conn: ClientConnection,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        silence: SilenceWatch,
        first_contact: bool,
    ) -> None:
        while True:
            data = await silence.read(65536)
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

    def _notify_table(self, code: str, **args: Any) -> None:
        said = TableSays(code, args)
        self.notices.append(said)
        self._notify(said)

    # -- messages from the host ------------------------------------------------------------------------

    async def _on_message(self, message: Message) -> None:
        if self.trace is not None:
            self.trace(message)
        if isinstance(message, Seated):
            self.seat, self.owner = message.seat, message.owner
            if message.token is not None:
                self.token = message.token
            if not self._linked:  # a `seated` later on this link is the lobby renumbering seats
                self._linked = True
                self.deal.on_link(resumed=message.resumed)
            self._notify(SeatTaken(message.seat, message.owner, message.resumed))
        elif isinstance(message, Lobby):
            self.lobby = message
            self._notify(LobbyChanged(message))
        elif isinstance(message, Commit | Pledges | Start):
            try:
                await self._witness(message)
            except DealTampered as exc:
                await self._refuse_deal(str(exc))
        elif isinstance(message, History):
            if message.offset == 0:
                self.log, self.steps = [], []
            for step in message.steps:
                if step.actor == self.seat:
                    self.moves.seen(step.seq)
                self.steps.append((step.seq, step.events))
                self.log.extend(step.events)
                self.shown.on_events(step.seq, step.events, history=True)
        elif isinstance(message, Snapshot):
            self.view, self.to_act, self.seq = message.view, message.to_act, message.seq
            self.shown.on_view(message.seq, message.view, message.to_act, snapshot=True)
            self.awaiting = self._answer_due = False
            self._notify(ViewChanged(()))
        elif isinstance(message, Update):
            self.view, self.to_act, self.seq = message.view, message.to_act, message.seq
            if message.actor == self.seat:
                self._our_seat_moved(message.seq)
                self.awaiting = False
            self.steps.append((message.seq, message.events))
            self.log.extend(message.events)
            self.shown.on_events(message.seq, message.events, history=False)
            self.shown.on_view(message.seq, message.view, message.to_act, snapshot=False)
            self._notify(ViewChanged(message.events))
        elif isinstance(message, Chat):
            line = ChatLine(message.seat, message.name, message.text)
            if message.earlier and self._shown_already(line):
                return
            self.chat.append(line)
            self._notify(line)
        elif isinstance(message, TableNotice) and message.code == "taken_back":
            self._taken_back(message.args.get("seq"), message.args.get("run"))
        elif isinstance(message, TableNotice) and message.code == "closed":
            self.host_closed = True
        elif isinstance(message, TableNotice) and message.code == "last_game":
            self.last_game = True
        elif isinstance(message, TableNotice):
            self._notify_table(message.code, **message.args)
        elif isinstance(message, Clock):
            now = asyncio.get_running_loop().time()
            self.turn_clock_ms = message.per_turn_ms
            self.clock = {e.seat: now + e.ms / 1000 for e in message.left}
            self._notify(ClockChanged())
        elif isinstance(message, Error) and message.code == "bad_token" and self.token:
            # The deal notes stay: they are of the table, not of the seat. A host that saw our
            # part and now forgets our seat is making the deal again (`DealWitness.on_link`).
            self.token = None
            self._notify(TokenRefused(message.text))
            raise JoinAgain()
        elif isinstance(message, Error):
            if message.detail.get("seq", self._acted_at) == self._acted_at:
                # Our latest move was refused (a refusal naming an older one leaves it waiting).
                # The host sent every update before its refusal, so the view is the fresh one.
                self.awaiting = self._answer_due = False
            self._disclaim(message)
            self._notify(
                HostRefused(message.code, message.text, message.fatal, dict(message.detail))
            )
            if message.fatal and message.code in STREAM_ERRORS:  # damaged on the way: again
                raise ConnectionError(f"the host dropped us: {message.text} [{message.code}]")
            if message.fatal:
                over = message.code == ErrorCode.TABLE_FULL and message.detail.get("over") is True
                raise Fatal(
                    f"the host refused: {message.text}", "table_over" if over else message.code
                )
        elif isinstance(message, Result):
            try:
                self.outcome = Outcome.from_data(message.outcome)
            except (KeyError, TypeError, ValueError):
                raise Fatal("the host sent a malformed result") from None
            self.shown.on_result(message.outcome)
            self._notify(GameOver(self.outcome))
            # The audit follows: a replay of the whole game that nobody waits for. A pause first,
            # so that the last update is shown everywhere before that work (by the other clients
            # of this program, and by a slow screen) and is not held up by it.
            await asyncio.sleep(AUDIT_CHECK_PAUSE)
        elif isinstance(message, Audit):
            self._on_audit(message)
        elif isinstance(message, Leave):
            if self.host_closed:
                self._closed_by_host()
                return
            raise ConnectionError(f"the host left: {message.reason or 'no reason given'}")

    def _our_seat_moved(self, seq: int) -> None:
        """An update of our seat's move: ours if it is the first since our action was sent,
        otherwise a bot's (the stand-in, or the turn clock's)."""
        if not self._answer_due or self._acted_at is None:
            self.moves.not_made(seq)
            return
        self._answer_due = False
        self._claimed = (self._acted_at, seq)
        self.moves.made(seq)
        self._keep_moves()

    def _disclaim(self, error: Error) -> None:
        """Our action was refused as stale after an update of our seat we took for its answer:
        the turn clock's bot had played that decision first."""
        claimed = self._claimed
        if claimed is None or error.code != ErrorCode.STALE_SEQ:
            return
        if error.detail.get("seq") == claimed[0]:
            self._claimed = None
            self.moves.not_made(claimed[1])
            self._keep_moves()

    def _keep_moves(self) -> None:
        if self.keep_moves is not None:
            with contextlib.suppress(OSError):  # a full disk costs only the words of a restart
                self.keep_moves(self.moves)

    def _shown_already(self, line: ChatLine) -> bool:
        """Whether an `earlier` line is one we showed before our link dropped. The host sends
        its last lines to every connection that joins; only those said while we were away are
        news. Counted, so that a line said twice is shown twice."""
        if self._shown_before is None:
            self._shown_before = Counter(self.chat[-CHAT_MEMORY:])
        if self._shown_before[line] > 0:
            self._shown_before[line] -= 1
            return True
        return False

    def _taken_back(self, first: object, run: object) -> None:
        """The host came back from a crash without action `first` and those after it: if we
        saw them, our user hears that they are taken back (they will be decided again)."""
        if type(first) is not int or first < 1:
            return
        # Heeded once per run of the host: it tells everyone who comes back for as long as it
        # runs, and a later return may find us past `first` by actions played since; a later
        # restart that loses the same number again is news again.
        heard = (run if type(run) is int else None, first)
        if heard in self._heard_taken_back:
            return
        self._heard_taken_back.add(heard)
        self.moves.taken_back(first)
        if self.seq >= first:
            self.shown.taken_back(first)
            self._notify_table("taken_back", count=self.seq - first + 1)

    async def _witness(self, message: Commit | Pledges | Start) -> None:
        """The deal being made: pledge, reveal, then hold the host to what we saw."""
        if isinstance(message, Commit):
            mine = self.deal.on_commit(
                message.commitment, message.seats, self.seat, self.random_bytes
            )
            self._keep_deal()
            if mine is not None:
                await self._send(Pledge(mine))
        elif isinstance(message, Pledges):
            part = self.deal.on_pledges({p.seat: p.commitment for p in message.pledges}, self.seat)
            self._keep_deal()  # on disk before the host can know our part
            if part is not None:
                await self._send(Contribute(part))
        else:
            parts = {c.seat: c.part for c in message.contributions}
            if len(parts) != len(message.contributions):
                raise DealTampered("the host published two seed parts for one seat")
            self.deal.on_start(message.commitment, parts)
            self._keep_deal()
            self._on_start(message)

    def _keep_deal(self) -> None:
        if self.keep_deal is not None:
            with contextlib.suppress(OSError):  # a full disk costs only the memory of a restart
                self.keep_deal(self.deal)

    async def _refuse_deal(self, reason: str) -> None:
        """Leave before playing a card of a deal the host may have chosen, and say why."""
        self.verdict = Verdict([reason])
        self._notify(DealChecked(self.verdict))
        self._leaving = True
        with contextlib.suppress(Exception):
            await self._send(Leave("the deal is not fair: " + reason[:170]))
        raise Fatal(f"deal NOT verified: {reason}")

    def _on_start(self, start: Start) -> None:
        try:
            game = get_game(start.game)
            config = game.make_config(start.players, dict(start.options))
        except GameError as exc:
            raise Fatal(f"the host's table cannot be played here: {exc}") from None
        if start.rules_version != game.rules_version:
            raise Fatal(
                f"the host plays {game.name} rules {start.rules_version}, this netcards has "
                f"{game.rules_version}: both need the same release"
            )
        self.game, self.config, self.names = game, config, start.names
        self.cards = [dict(c) for c in start.cards]
        facts = {
            "game": start.game,
            "rules_version": start.rules_version,
            "players": start.players,
            "options": start.options,
            "seat": start.seat,
            "commitment": start.commitment,
            "parts": {c.seat: c.part for c in start.contributions},
        }
        self.shown.on_start(facts, start.cards)
        self.seat = start.seat
        self.moves.for_game(start.commitment)
        self._contributions = {c.seat: c.part for c in start.contributions}
        self._notify(GameStarted(config, start.seat, start.names))

    def _on_audit(self, audit: Audit) -> None:
        if audit.offset == 0:
            self._audit = []
        if audit.offset != len(self._audit):
            raise Fatal("the host's audit arrived out of order")
        self._audit.extend((e.seat, e.action) for e in audit.actions)
        self._audit_part = audit.host_part
        self._audit_seed = audit.seed
        if len(self._audit) < audit.total:
            return
        game, config, deal = self.game, self.config, self.deal
        if game is None or config is None or deal.host_commitment is None:
            raise Fatal("the host sent an audit before the game started")
        self.verdict = verify_game(
            game,
            config,
            seat=self.seat,
            commit=deal.host_commitment,
            host_part=audit.host_part,
            contributions=self._contributions,
            my_contribution=deal.contribution,
            actions=self._audit,
            received=self.steps,
            pledges=deal.pledges if deal.saw_the_deal else None,
            claimed_seed=audit.seed,
            finished=not self.host_closed,
            shown=self.shown,
        )
        self.verdict.problems.extend(deal.problems(self.seat))
        self.verdict.caveats.extend(deal.caveats())
        if self.host_closed:
            self.standings = self._standings_so_far(game, config, audit.host_part)
            self._closed_by_host()
            return
        self._notify(DealChecked(self.verdict))
        self._done.set()

    def _standings_so_far(
        self, game: Game[Any], config: TableConfig, host_part: bytes
    ) -> Outcome | None:
        """The results of a game the host stopped, from the actions it revealed."""
        try:
            state = game.setup(config, combine(host_part, self._contributions))
            for seat, data in self._audit:
                game.apply(state, seat, game.decode_action(data))
            return game.outcome(state) or game.standings(state)
        except (GameError, ValueError, NotImplementedError):
            return None

    def _closed_by_host(self) -> None:
        if not self._done.is_set():
            self._notify(TableClosed(self.standings, self.verdict))
            self._done.set()


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
