"""The networked commands without the full-screen app: `host --headless`, `bot`, `discover`.

They print plain lines a person or a script can read: `listening HOST:PORT fingerprint FP` once
the host is ready, what happens at the table, and at the end one `result {json}` line that is
the same for the host and every client, then `deal verified` (or what failed) on clients.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from netcards.bots.registry import make_bot
from netcards.fairdeal import NOT_CHECKED
from netcards.game import Outcome
from netcards.table import Table
from protocol.address import format_address
from protocol.client import (
    DealChecked,
    Failed,
    GameOver,
    GameStarted,
    HostRefused,
    LinkDown,
    SeatTaken,
    TableClient,
    TableClosed,
    TableSays,
    TokenRefused,
    ViewChanged,
)
from protocol.deal_witness import DealWitness
from protocol.discovery import discover
from protocol.host import HostSettings, TableHost
from protocol.identity_store import load_or_create_identity
from protocol.journal_file import JournalError, JournalWriter, read_journal
from protocol.known_hosts import KnownHosts
from protocol.messages import Message, encode
from protocol.notices import notice_text
from protocol.sealed_play.awaited import waiting_words
from protocol.seat_tokens import SeatTokens
from protocol.settings import config_dir, data_dir
from ui.journals import GameJournal

NO_STANDINGS = "none: they need cards that are still sealed"
"""What a sealed game stopped halfway has for results so far when its title scores hidden cards
(Via Gladiola's hands): nobody can see them, the host included (docs/sealed.md)."""


def result_line(outcome: Outcome) -> str:
    """The one line every participant prints, so that scripts (and tests) can compare them."""
    data = {"winners": list(outcome.winners), "scores": list(outcome.scores)}
    return "result " + json.dumps(data, separators=(",", ":"))


def known_hosts() -> KnownHosts:
    return KnownHosts(config_dir() / "known_hosts")


@dataclass
class HostPlan:
    table: Table
    bind: str
    port: int
    password: str | None
    journal_path: Path
    resumed: bool
    grace: float
    discovery_port: int | None
    bot_delay: float = 0.0
    turn_clock: float = 0.0
    owner: str | None = None
    """The name under which a joining player owns the table (None: nobody owns it)."""
    ssh_port: int | None = None
    """Open the SSH door on this port (0: any free); None: no door."""
    ssh_keys: Any = None
    """The keys allowed through the door (asyncssh's SSHAuthorizedKeys); None: any."""
    journal_named: bool = False
    """The journal's name is netcards' own (`ui.journals`): it follows the game it holds."""


GUESTS_LINGER = 120.0
"""After the game, seconds the host waits for SSH guests still reading the results."""


async def run_host(plan: HostPlan, out: IO[str], err: IO[str]) -> int:
    """Host until the game ends; print the results; 0 on a finished game."""
    identity = load_or_create_identity(config_dir())

    def log(line: str) -> None:
        err.write(f"host: {line}\n")
        err.flush()

    def renamed(path: Path) -> None:
        plan.journal_path = path
        log(f"journal {path}")  # the game its owner chose in the lobby is another

    journal = (
        GameJournal(plan.journal_path, renamed=renamed)
        if plan.journal_named
        else JournalWriter(plan.journal_path)
    )

    host = TableHost(
        plan.table,
        identity,
        password=plan.password,
        settings=HostSettings(
            grace=plan.grace, bot_delay=plan.bot_delay, turn_clock=plan.turn_clock, one_game=True
        ),
        journal=journal,
        owner_name=plan.owner,
        log=log,
    )
    if plan.table.sealed and plan.table.phase == "playing":
        # Rebuilt by replaying every sealed message it had accepted; a message lost with a torn
        # record is simply sent again by its seat, which replays its history when it is back.
        try:
            host.session.resume_sealed(read_journal(plan.journal_path))
        except ValueError as exc:
            journal.close()
            raise JournalError(f"{plan.journal_path}: {exc}") from None
    elif plan.table.phase == "playing":  # resumed: whoever saw a later action is told
        host.taken_back_from = len(plan.table.actions) + 1
    if journal.repaired and plan.table.phase != "lobby":
        log(
            f"the journal ended in a torn record ({journal.repaired} bytes, cut off): action "
            f"{host.taken_back_from} is taken back and will be decided again"
        )
    try:
        port = await host.start(plan.bind, plan.port)
    except OSError as exc:
        journal.close()
        if not plan.resumed:
            with contextlib.suppress(OSError):
                plan.journal_path.unlink()
        if exc.errno == errno.EADDRINUSE:
            raise OSError(port_in_use(plan.port)) from None
        why = exc.strerror or str(exc)
        raise OSError(f"cannot listen on {plan.bind} (--bind): {why}") from None
    door = None
    if plan.ssh_port is not None:
        from ui.ssh_door import open_door

        try:
            door = await open_door(
                host, plan.bind, plan.ssh_port, password=plan.password,
                authorized_keys=plan.ssh_keys, log=log,
            )  # fmt: skip
        except OSError:
            await host.close()
            raise
    if not plan.resumed:
        journal.write({"type": "listen", "port": port})
        journal.sync_soon()  # by the journal's thread: the loop does not wait for the disk
    if plan.discovery_port != 0:
        problem = await host.announce(plan.discovery_port)
        if problem is not None:
            log(f"LAN discovery is off: {problem}")
        else:
            log(f"LAN discovery answers on UDP port {host.discovery_port}")
    out.write(f"listening {format_address(plan.bind, port)} fingerprint {identity.fingerprint}\n")
    if door is not None:
        out.write(f"ssh {format_address(plan.bind, door.port)} fingerprint {door.fingerprint}\n")
    out.flush()
    err.write(f"host: journal {plan.journal_path}\n")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    finished = asyncio.create_task(host.finished.wait())
    stopped = asyncio.create_task(stop.wait())
    await asyncio.wait({finished, stopped}, return_when=asyncio.FIRST_COMPLETED)
    # From here a signal cuts short the wait for SSH guests (and the second one ends it).
    hurry = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, hurry.set)
    outcome = host.outcome
    # Whom a sealed game still waited for (a step, or at the end a seat's secrets), as every
    # player's verdict will say it.
    unchecked = host.session.sealed_unchecked()
    if outcome is not None:
        await host.linger(3.0)
        print_outcome(plan.table.game.name, [s.name for s in plan.table.seats], outcome, out)
        if unchecked:
            out.write(NOT_CHECKED + "; ".join(unchecked) + "\n")
            out.flush()
        if door is not None:  # guests read the results in their app, then leave
            say_waiting(door, GUESTS_LINGER, err)
            await door.linger(GUESTS_LINGER, hurry)
        await host.close()
        if door is not None:
            await door.close()
    else:
        # The table says it closed (and the results so far) to every player, SSH guests too.
        await host.close()
        if host.table.phase == "playing" and host.table.sealed:
            err.write("host: stopped before the game's end: the table is closed, and its "
                      "players were told why the deal could not be checked\n")  # fmt: skip
            standings = host.session.sealed_standings()
            if standings is None:  # a title that scores cards still sealed (Via Gladiola)
                out.write(f"results so far: {NO_STANDINGS}\n")
            else:
                out.write("results so far:\n")
                print_places([s.name for s in host.table.seats], standings, out, over=False)
            out.write(NOT_CHECKED + "; ".join(unchecked or ["the game was not over"]) + "\n")
            out.flush()
        elif host.table.phase == "playing":
            table = host.table
            err.write("host: stopped before the game's end: the table is closed, and its "
                      "players were given the results so far\n")  # fmt: skip
            standings = host.standings_so_far()
            if standings is None:  # a sealed game's score that needs cards still sealed
                out.write(f"results so far: {NO_STANDINGS}\n")
            else:
                out.write("results so far:\n")
                print_places([s.name for s in table.seats], standings, out, over=False)
            out.flush()
        else:
            err.write("host: stopped: the table is closed\n")
        if door is not None:
            wait = door.settings.closing_wait
            say_waiting(door, wait, err)
            await door.close(wait, hurry)
    for task in (finished, stopped):
        task.cancel()
    return 0 if outcome is not None else 1


def say_waiting(door: Any, seconds: float, err: IO[str]) -> None:
    """SSH guests read the end of the table in their app and leave by a key, which ends their
    session as a LAN player's program ends. The host's process holds their sessions: it waits
    for them, or a guest's app would die with it, leaving their terminal as the app had it."""
    guests = door.at_table()
    if guests:
        err.write(f"host: waiting up to {seconds:.0f} s for {guests} SSH guest(s) to leave; "
                  "ctrl+c ends their sessions now\n")  # fmt: skip
        err.flush()


def port_in_use(port: int) -> str:
    return (
        f"port {port} is already in use (another table?): choose another with --port N, "
        "or --port 0 for any free port"
    )


def print_outcome(game_name: str, names: list[str], outcome: Outcome, out: IO[str]) -> None:
    out.write(f"{game_name} is over.\n")
    print_places(names, outcome, out)
    out.write(result_line(outcome) + "\n")
    out.flush()


def print_places(names: list[str], outcome: Outcome, out: IO[str], over: bool = True) -> None:
    """One line a seat, best first; `over` False: standings so far, which have leaders."""
    marked, word = (outcome.winners, "winner") if over else (outcome.leaders(), "leading")
    for seat in sorted(range(len(names)), key=lambda s: outcome.places[s]):
        star = f" ({word})" if seat in marked else ""
        out.write(f"  {outcome.places[seat]}. {names[seat]}: {outcome.scores[seat]}{star}\n")


def message_tracer(path: Path) -> Callable[[Message], None]:
    """Appends every message received, decrypted, as one JSON line (bytes as hex)."""
    trace_file = path.open("a", encoding="utf-8")

    def plain(value: Any) -> Any:
        return value.hex() if isinstance(value, bytes) else str(value)

    def write(message: Message) -> None:
        trace_file.write(json.dumps(encode(message), default=plain) + "\n")
        trace_file.flush()

    return write


WAIT_SAID_AFTER = 1.0
"""Seconds a sealed table waits on the same step before `netcards bot` says whom it waits for
(its steps follow each other in milliseconds: only a wait that lasts is news)."""


class WaitNotes:
    """`netcards bot`'s lines about whom a sealed table waits for: one per wait that lasts
    `WAIT_SAID_AFTER` seconds, in the words every program uses (`waiting_words`)."""

    def __init__(self, client: TableClient, say: Callable[[str], None]) -> None:
        self.client = client
        self.say = say
        self.watched = ""
        self.said = ""
        self.timer: asyncio.TimerHandle | None = None

    def now(self) -> str:
        client = self.client
        return waiting_words(client.awaited, client.names, client.seat)

    def changed(self) -> None:
        """The game moved: a new wait is said if it lasts."""
        words = self.now()
        if words == self.watched:
            return
        self.watched = words
        self.stop()
        if words and words != self.said:
            self.timer = asyncio.get_running_loop().call_later(WAIT_SAID_AFTER, self._due, words)

    def _due(self, words: str) -> None:
        self.timer = None
        if self.now() == words:
            self.said = words
            self.say(words)

    def stop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


async def run_bot(
    address: str,
    level: str,
    name: str,
    password: str | None,
    out: IO[str],
    err: IO[str],
    trace: Path | None = None,
    delay: float = 0.0,
    numbered: bool = False,
) -> int:
    """A headless player: takes a seat, plays with a bot's brain, checks the deal at the end.

    Another program of this user already at the table under `name` keeps it: a bot whose name
    was not chosen (`numbered`) takes the next free one (Bot 2, Bot 3...), else it stops."""
    tokens = SeatTokens(data_dir() / "seats")
    claim = tokens.claim(address, name)
    base = name
    for n in range(2, 100 if numbered else 2):
        if claim is not None:
            break
        name = f"{base} {n}"
        claim = tokens.claim(address, name)
    if claim is None:
        err.write(
            f"{base}: another netcards program of yours is already at {address} as {base}; "
            "give this one another --name\n"
        )
        return 2
    try:
        return await _play_as_bot(
            address, level, name, password, out, err, tokens, trace=trace, delay=delay
        )
    finally:
        claim.release()


async def _play_as_bot(
    address: str,
    level: str,
    name: str,
    password: str | None,
    out: IO[str],
    err: IO[str],
    tokens: SeatTokens,
    *,
    trace: Path | None,
    delay: float,
) -> int:
    client = TableClient(
        address,
        name,
        known_hosts(),
        password=password,
        token=tokens.load(address, name),
        trace=message_tracer(trace) if trace is not None else None,
        deal=DealWitness.restore(tokens.load_deal(address, name)),
        keep_deal=lambda deal: tokens.save_deal(address, name, deal.to_data()),
        seed_file=tokens.sealed_seed(address, name),
    )
    runner = asyncio.create_task(client.run())
    bot: Any = None
    refusals = 0

    def say(line: str) -> None:
        err.write(f"{name}: {line}\n")
        err.flush()

    waits = WaitNotes(client, say)

    async def play() -> None:
        if bot is None or not client.my_turn or client.view is None:
            return
        if delay:
            await asyncio.sleep(delay)
            if not client.my_turn or client.view is None:
                return
        # A search bot thinks for a while: off the event loop, so the connection stays alive.
        history = list(client.log) if bot.wants_history else []
        action = await asyncio.to_thread(bot.choose, client.view, client.legal_actions(), history)
        if not client.my_turn:
            return
        with contextlib.suppress(ConnectionError):
            await client.act(action)

    code = 1
    try:
        while True:
            get = asyncio.create_task(client.updates.get())
            done, _ = await asyncio.wait({get, runner}, return_when=asyncio.FIRST_COMPLETED)
            if get not in done:
                get.cancel()
                break
            notice = get.result()
            if isinstance(notice, SeatTaken):
                if client.token is not None:
                    tokens.save(address, name, client.token, client.deal.to_data())
                if notice.seat is None:
                    err.write(f"{name}: the host made us a spectator\n")
                else:
                    err.write(f"{name}: seat {notice.seat + 1}\n")
                if not notice.resumed:
                    # The link may have dropped since: then the seat is taken again on the
                    # way back, and ready then.
                    with contextlib.suppress(ConnectionError):
                        await client.set_ready(True)
            elif isinstance(notice, GameStarted):
                if client.token is not None:
                    tokens.save(address, name, client.token, client.deal.to_data())
                assert client.game is not None and notice.seat is not None
                bot = make_bot(level, client.game, notice.config, notice.seat, os.urandom(32))
            elif isinstance(notice, ViewChanged):
                refusals = 0
                waits.changed()
                await play()
            elif isinstance(notice, TokenRefused):
                tokens.forget(address, name)
                err.write(f"{name}: {notice.text}; joining as a new player\n")
            elif isinstance(notice, HostRefused):
                if notice.fatal:
                    continue  # the client gives up, and its `Failed` says why, once
                err.write(f"{name}: the host refused: {notice.text}\n")
                refusals += 1
                if refusals < 3:
                    await play()
            elif isinstance(notice, LinkDown):
                then = "trying again" if notice.retrying else "giving up"
                err.write(f"{name}: link down ({notice.reason}); {then}\n")
            elif isinstance(notice, TableSays):
                err.write(f"{name}: table: {notice_text(notice.code, notice.args)}\n")
            elif isinstance(notice, GameOver):
                print_outcome(
                    client.game.name if client.game else "The game",
                    list(client.names),
                    notice.outcome,
                    out,
                )
            elif isinstance(notice, DealChecked):
                tokens.forget(address, name)
                tokens.forget_deal(address, name)  # checked (or refused) and said: done with
                out.write(notice.verdict.headline + "\n")
                if notice.verdict.ok:
                    for caveat in notice.verdict.caveats:
                        out.write(f"  note: {caveat}\n")
                    code = 0
                out.flush()
                await client.leave("game over")
                break
            elif isinstance(notice, TableClosed):
                tokens.forget(address, name)
                if notice.verdict is not None:
                    tokens.forget_deal(address, name)
                out.write("the host closed the table\n")
                if notice.standings is not None:
                    out.write("results so far:\n")
                    print_places(list(client.names), notice.standings, out, over=False)
                elif client.sealed is not None:
                    out.write(f"results so far: {NO_STANDINGS}\n")
                if notice.verdict is not None and notice.verdict.unchecked:
                    out.write(notice.verdict.headline + "\n")
                elif notice.verdict is not None:
                    verified = "verified" if notice.verdict.ok else "NOT verified"
                    out.write(f"deal so far {verified}\n")
                out.flush()
                break
            elif isinstance(notice, Failed):
                err.write(f"{name}: {notice.reason}\n")
                break
    finally:
        waits.stop()
        runner.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runner
    return code


async def run_discover(
    target: str | None, port: int | None, timeout: float, as_json: bool, out: IO[str]
) -> int:
    try:
        found = await discover(target=target, port=port, timeout=timeout, nonce=os.urandom(8))
    except OSError as exc:  # a target that names no machine, say
        where = f"{target} (--target)" if target else "the LAN"
        raise OSError(f"cannot ask {where}: {exc.strerror or exc}") from None
    if as_json:
        out.write(json.dumps([{"address": t.address, **t.info.to_data()} for t in found]) + "\n")
        return 0
    if not found:
        out.write("no tables found\n")
        return 0
    for t in found:
        info = t.info
        out.write(
            f"{t.address:<24} {info.name:<24} {info.game:<14} "
            f"{info.free}/{info.players} free  {'password' if info.password else 'open    '}  "
            f"fingerprint {info.fingerprint}{'  sealed' if info.sealed else ''}\n"
        )
    return 0


def load_resumed_table(path: Path) -> tuple[Table, int | None]:
    """The table of a journal, and the port it listened on (to listen there again)."""
    records = read_journal(path)
    port = next((int(r["port"]) for r in records if r.get("type") == "listen"), None)
    table = Table.from_journal(records)
    if table.phase != "over" and any(r.get("type") == "closed" for r in records):
        raise JournalError(
            f"{path}: its host closed this table on purpose, and its players were given the "
            "results so far: there is nothing to resume (a journal is for a host that crashed)"
        )
    return table, port


def main_loop(coro: Any) -> int:
    try:
        return int(asyncio.run(coro))
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130
