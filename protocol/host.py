"""The host on asyncio TCP: the thin adapter that performs what the table's session decides.

Every decision about the table is `protocol/table_session`'s (a sans-IO state machine); this
module owns what it must not touch: the listening socket, the timers, the bots' thinking in a
worker thread, and the journal file; `host_links.py` has the connections (one task reading
bytes into each connection's sans-IO `HostConnection` and one writer task draining a bounded
queue, so a slow or stuck client never delays the others: when its queue is full it is
disconnected, and may rejoin with its seat token; the password's stretching; pings). Every accepted
action is in the journal (flushed) before any player hears of it, and synced to the disk a
moment later by the journal's own thread (see `journal_file`): the event loop never waits for
the disk. A record the session wants on the disk before anything after it (`Journal.durable`:
a game's start, the close, a sealed choice's commitment) holds the effects that follow it, and
those of every later input, in order, until that thread says it is synced; the loop meanwhile
goes on reading, pinging and taking inputs.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from netcards.game import Outcome
from netcards.table import Table
from protocol.crypto import TablePassword
from protocol.discovery import Responder, TableInfo
from protocol.host_links import Dropped, Links, LogLine, Peer, _Turn
from protocol.identity import IdentityKey
from protocol.journal_file import JournalWriter
from protocol.limits import PROTOCOL_VERSION
from protocol.messages import Lobby
from protocol.table_session import BotQuestion, Effect, TableSession
from protocol.table_session.config import HostSettings
from protocol.table_session.effects import (
    AskBot,
    BotFailed,
    CancelTimer,
    Close,
    Drop,
    Finished,
    Journal,
    Log,
    SealedBots,
    Send,
    SetTimer,
    TimerKey,
    WakeBots,
)
from protocol.throttle import FailureThrottle

__all__ = ["Dropped", "HostSettings", "Peer", "TableHost"]


class TableHost(Links):
    session_class: type[TableSession] = TableSession
    """The state machine this adapter drives (tests put a dishonest one in its place)."""

    def __init__(
        self,
        table: Table,
        identity: IdentityKey,
        *,
        password: str | None = None,
        settings: HostSettings | None = None,
        journal: JournalWriter | None = None,
        owner_token: bytes | None = None,
        owner_name: str | None = None,
        log: LogLine | None = None,
        random_bytes: Callable[[int], bytes] = os.urandom,
        throttle: FailureThrottle | None = None,
    ) -> None:
        self.identity = identity
        self.settings = settings or HostSettings()
        self.journal = journal
        self.log: LogLine = log or (lambda _line: None)
        self.random_bytes = random_bytes
        self.password = TablePassword(password) if password is not None else None
        self.session = self.session_class(
            table,
            settings=self.settings,
            random_bytes=random_bytes,
            password_protected=self.password is not None,
            throttle=throttle,
            owner_token=owner_token,
            owner_name=owner_name,
        )
        self._turns: dict[str, _Turn] = {}
        self._stretching = asyncio.Semaphore(1)
        self.peers: dict[int, Peer] = {}
        self.finished = asyncio.Event()
        self.port = 0
        self.discovery_port = 0
        self._server: asyncio.Server | None = None
        self._timers: dict[TimerKey, asyncio.TimerHandle] = {}
        self._bots: asyncio.Task[None] | None = None
        self._liveness_task: asyncio.Task[None] | None = None
        self._responder: Responder | None = None
        self._clock_tasks: set[asyncio.Task[bool]] = set()
        self._sync_timer: asyncio.TimerHandle | None = None
        self._held: deque[Effect] | None = None
        """Effects waiting for a durable journal record to reach the disk, in order (None: none
        wait, effects are performed as they come)."""
        self._released = asyncio.Event()
        self._released.set()

    # -- what the session holds, as the host's public face -----------------------------------------

    @property
    def table(self) -> Table:
        return self.session.table

    @property
    def seq(self) -> int:
        return self.session.seq

    @property
    def taken_back_from(self) -> int | None:
        return self.session.taken_back_from

    @taken_back_from.setter
    def taken_back_from(self, value: int | None) -> None:
        self.session.taken_back_from = value

    @property
    def throttle(self) -> FailureThrottle:
        return self.session.throttle

    @property
    def dealing(self) -> bool:
        return self.session.dealing

    @property
    def outcome(self) -> Outcome | None:
        """The results, once the game is over."""
        return self.session.outcome()

    def standings_so_far(self) -> Outcome | None:
        """The results so far of the game under way (None: there are none to tell, such as a
        sealed game whose score needs cards still sealed); see `TableSession`."""
        return self.session.standings_so_far()

    def lobby_message(self) -> Lobby:
        return self.session.lobby_message()

    # -- life cycle -------------------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        self._server = await asyncio.start_server(self._accept, host, port, limit=2**16)
        self.port = int(self._server.sockets[0].getsockname()[1])
        self._liveness_task = asyncio.create_task(self._watch_liveness())
        self._perform(self.session.start(time.monotonic()))
        return self.port

    async def close(self) -> None:
        """Close the table on purpose: the session says goodbye to everyone (`ending.py`);
        this waits a moment for the last words to leave, then stops every task and timer."""
        if self._responder is not None:
            await self._responder.close()
        if self._server is not None:
            self._server.close()
        self._perform(self.session.end_table())
        await self._released.wait()  # the close's record is on the disk, and what it held done
        writers = [task for peer in self.peers.values() for task in peer.tasks]
        if writers:
            await asyncio.wait(writers, timeout=2.0)  # the last words reach everyone first
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        if self._sync_timer is not None:
            self._sync_timer.cancel()
            self._sync_timer = None
        for clock_task in self._clock_tasks:
            clock_task.cancel()
        for task in (self._bots, self._liveness_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for peer in list(self.peers.values()):
            for task in peer.tasks:
                task.cancel()
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)
        if self.journal is not None:
            await asyncio.to_thread(self.journal.close)  # its last sync, off the loop

    async def linger(self, seconds: float) -> None:
        """Give clients a moment to receive the last messages (results, audit)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and any(not p.queue.empty() for p in self.peers.values()):
            await asyncio.sleep(0.05)

    def table_info(self) -> TableInfo:
        """What LAN discovery says about this table (free seats only before the game)."""
        table = self.table
        return TableInfo(
            table.name,
            table.game.id,
            table.config.players,
            table.free_seats() if table.phase == "lobby" else 0,
            self.port,
            PROTOCOL_VERSION,
            self.identity.fingerprint,
            self.password is not None,
            table.sealed,
        )

    async def announce(self, port: int | None = None) -> str | None:
        """Answer LAN discovery queries until the table closes; the reason if it cannot."""
        responder = Responder(self.table_info)
        try:
            self.discovery_port = await responder.start("0.0.0.0", port)
        except OSError as exc:
            return exc.strerror or str(exc)
        self._responder = responder
        return None

    # -- carrying out the session's effects --------------------------------------------------------

    def _perform(self, effects: Iterable[Effect]) -> None:
        if self._held is not None:
            self._held.extend(effects)  # after the ones already waiting for the disk
            return
        pending = iter(effects)
        for effect in pending:
            if self._held is not None:  # an input taken meanwhile waits for the disk: so do we
                self._held.append(effect)
                self._held.extend(pending)
                return
            if isinstance(effect, Send):
                peer = self.peers.get(effect.to)
                if peer is not None:
                    self._send(peer, effect.message)
            elif isinstance(effect, Close):
                peer = self.peers.get(effect.to)
                if peer is not None:
                    self._close(peer)
            elif isinstance(effect, Drop):
                self._drop(effect)
            elif isinstance(effect, Journal):
                if self._journal(effect):
                    self._held = deque(pending)
                    self._released.clear()
                    return
            elif isinstance(effect, SetTimer):
                self._set_timer(effect.key, effect.delay)
            elif isinstance(effect, CancelTimer):
                handle = self._timers.pop(effect.key, None)
                if handle is not None:
                    handle.cancel()
            elif isinstance(effect, WakeBots):
                self._schedule_bots()
            elif isinstance(effect, AskBot):
                task = asyncio.create_task(self._bot_turn(effect.question))
                self._clock_tasks.add(task)
                task.add_done_callback(self._clock_tasks.discard)
            elif isinstance(effect, SealedBots):
                # Not now: the sends before it go first, and the loop hears the others.
                asyncio.get_running_loop().call_soon(self._sealed_bots)
            elif isinstance(effect, Log):
                self.log(effect.line)
            elif isinstance(effect, Finished):
                self.finished.set()
            # BotFailed is read by the bots' loop (`_bot_turn`)

    def _drop(self, effect: Drop) -> None:
        peer = self.peers.get(effect.to)
        if peer is None:
            return
        self.log(f"dropped {peer.label}: {effect.why}")
        self._close(peer)
        if effect.at_once:
            # Hung up now: its writer task may not have run yet, and the end of its reading
            # (EOF, at once) forgets it as for any other connection that goes.
            peer.writer.close()

    def _set_timer(self, key: TimerKey, delay: float) -> None:
        old = self._timers.pop(key, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self._timers[key] = loop.call_later(delay, self._timer_fired, key)

    def _timer_fired(self, key: TimerKey) -> None:
        self._timers.pop(key, None)
        self._perform(self.session.timer_fired(key, time.monotonic()))

    def _journal(self, effect: Journal) -> bool:
        """Write the record; True when what follows must wait until it is on the disk."""
        journal = self.journal
        if journal is None:
            return False
        try:
            journal.write(effect.record)
        except OSError as exc:  # the table goes on; its journal says less than it should
            self.log(f"could not write the journal: {exc.strerror or exc}")
            return False
        if effect.durable:
            loop = asyncio.get_running_loop()

            def synced(error: BaseException | None) -> None:  # in the journal's thread
                with contextlib.suppress(RuntimeError):  # the loop is gone: so is the table
                    loop.call_soon_threadsafe(self._synced, error)

            return journal.after_sync(synced)
        if self._sync_timer is None:
            # The players get their update first: the sync to the disk need not keep them
            # waiting (the updates are sent before this timer can fire).
            self._sync_timer = asyncio.get_running_loop().call_later(
                self.settings.journal_sync_delay, self._sync_journal
            )
        return False

    def _synced(self, error: BaseException | None) -> None:
        """The durable record is on the disk (or could not be synced): what it held goes on."""
        if error is not None:
            self._sync_failed(error)
        held, self._held = self._held, None
        if held:
            self._perform(held)
        if self._held is None:
            self._released.set()

    def _sync_journal(self) -> None:
        self._sync_timer = None
        if self.journal is None:
            return
        loop = asyncio.get_running_loop()

        def synced(error: BaseException | None) -> None:  # in the journal's thread
            if error is not None:
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(self._sync_failed, error)

        self.journal.sync_soon(synced)

    def _sync_failed(self, error: BaseException) -> None:
        # The game goes on; a crash of this process would still find the records.
        text = error.strerror if isinstance(error, OSError) and error.strerror else error
        self.log(f"could not sync the journal to the disk: {text}")

    # -- the bots -----------------------------------------------------------------------------------

    def _sealed_bots(self) -> None:
        self._perform(self.session.sealed_bots(time.monotonic()))

    def _schedule_bots(self) -> None:
        if self._bots is None or self._bots.done():
            self._bots = asyncio.create_task(self._run_bots())
            self._bots.add_done_callback(self._bots_stopped)

    def _bots_stopped(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            self.log(f"the bots stopped after an internal error: {task.exception()!r}")

    async def _run_bots(self) -> None:
        """Bots take their turns one at a time, each after `bot_delay`, until none is asked."""
        session = self.session
        while session.bot_to_act() is not None:
            if self.settings.bot_delay:
                await asyncio.sleep(self.settings.bot_delay)
            question = session.next_bot_question()
            if question is None or not await self._bot_turn(question):
                return

    async def _bot_turn(self, question: BotQuestion) -> bool:
        """A bot's move, thought out in a worker thread; False if no move could be played. A bot
        that raises is logged and the session plays the random bot's move instead."""
        data: dict[str, Any] | None
        try:
            data = await asyncio.to_thread(question.think)
        except Exception as exc:
            self.log(
                f"the bot for seat {question.seat + 1} failed: {exc!r}; it plays a random move"
            )
            data = None
        effects = self.session.bot_answered(question, data, time.monotonic())
        self._perform(effects)
        return not any(isinstance(effect, BotFailed) for effect in effects)
