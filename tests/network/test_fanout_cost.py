"""What every player waits on after an action: the update, and nothing else.

The host encodes a message meant for many (the spectators' update, a notice to everyone) once
and only seals it per connection; and at the end of a game, the results and the audit (the
whole game, encrypted for everyone) are encoded only once every peer's writer has the last
update in hand, so the end shows at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections import Counter
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

import pytest

import protocol.client_messages
import protocol.connection
from netcards.table import Table
from protocol.client import SeatTaken, TableClient
from protocol.host import HostSettings, Peer, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts
from protocol.messages import Update
from protocol.table_session import Effect, Member
from protocol.table_session.effects import Send


def bots_table(bot_delay: float) -> TableHost:
    """A two-seat Via Gladiola table that two random bots play by themselves."""
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=os.urandom(32))
    table.add_bot("random", 0)
    table.add_bot("random", 1)
    return TableHost(
        table, IdentityKey.generate(os.urandom), settings=HostSettings(bot_delay=bot_delay)
    )


def spectators(address: str, home: Path, count: int) -> list[TableClient]:
    return [
        TableClient(address, f"S{i}", KnownHosts(home / f"hosts{i}"), spectator=True)
        for i in range(count)
    ]


@contextlib.asynccontextmanager
async def watched_to_the_end(
    server: TableHost, home: Path, count: int
) -> AsyncIterator[list[TableClient]]:
    """The table open, `count` spectators following it, until its game is over; then closed."""
    port = await server.start()
    watchers = spectators(f"127.0.0.1:{port}", home, count)
    runners = [asyncio.create_task(w.run()) for w in watchers]
    try:
        await asyncio.wait_for(server.finished.wait(), 60)
        yield watchers
    finally:
        for runner in runners:
            runner.cancel()
        await server.close()


async def test_the_end_of_a_game_waits_for_the_last_update_to_leave(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    encoded: Counter[int] = Counter()

    def counting(encode: Any) -> Any:
        def encoder(message: Any) -> Any:
            if isinstance(message, Update):
                encoded[message.seq] += 1
            return encode(message)

        return encoder

    for name in ("encode", "encode_unchecked"):  # updates take the second (see `packed`)
        monkeypatch.setattr(protocol.connection, name, counting(getattr(protocol.connection, name)))
    server = bots_table(bot_delay=0.05)
    waiting_writers: list[bool] = []  # when the results start: did a writer still wait?
    send_results = server.session._send_results

    def results_once_the_update_is_out(member: Member) -> None:
        if not waiting_writers:
            waiting_writers.append(any(not p.queue.empty() for p in server.peers.values()))
        send_results(member)

    monkeypatch.setattr(server.session, "_send_results", results_once_the_update_is_out)
    async with watched_to_the_end(server, tmp_path, 3) as watchers:
        for watcher in watchers:
            while watcher.outcome is None:
                await asyncio.wait_for(watcher.updates.get(), 10)
        assert waiting_writers == [False]
        # Three spectators, one update each time, encoded once (after they had all joined).
        assert encoded and max(encoded.values()) == 1
        assert {w.seq for w in watchers} == {server.seq}


async def test_every_client_has_the_last_update_before_any_checks_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last update, the results and the audit reach a client together. Replaying the whole
    game to check the audit is work nobody waits for: it must not hold up the last update of
    the other clients served by the same program (or a slow screen)."""
    server = bots_table(bot_delay=0.01)
    port = await server.start()
    watchers = spectators(f"127.0.0.1:{port}", tmp_path, 4)
    behind_at_first_check: list[int] = []
    verify = protocol.client_messages.verify_game

    def checking(*args: Any, **kwargs: Any) -> Any:
        if not behind_at_first_check:
            # How many clients had not yet handed the last update on to whoever reads them?
            behind_at_first_check.append(sum(1 for w in watchers if w.seq < server.seq))
        return verify(*args, **kwargs)

    monkeypatch.setattr(protocol.client_messages, "verify_game", checking)
    runners = [asyncio.create_task(w.run()) for w in watchers]
    try:
        await asyncio.wait_for(server.finished.wait(), 60)
        for watcher in watchers:
            await asyncio.wait_for(watcher.wait_done(), 10)
        assert behind_at_first_check == [0]
        assert all(w.verdict is not None and w.verdict.ok for w in watchers)
    finally:
        for runner in runners:
            runner.cancel()
        await server.close()


async def test_an_update_reaches_the_players_connections_first_and_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Spectators who came first are served after the players, who wait on the update to play
    on; and no update waits in a queue for a task switch once the action is done."""
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=os.urandom(32))
    table.add_bot("random", 1)
    server = TableHost(table, IdentityKey.generate(os.urandom), settings=HostSettings())
    written: list[tuple[int, bool]] = []  # (update number, to a spectator) for every update
    queued_after_action: list[int] = []

    def watching_writes(peer: Peer) -> None:
        write = peer.writer.write

        def recording(data: Any) -> None:
            if server.table.phase != "lobby" and in_action:
                written.append((server.seq, peer.spectator))
            write(data)

        monkeypatch.setattr(peer.writer, "write", recording)

    in_action = False
    perform = server._perform

    def performing(effects: Iterable[Effect]) -> None:
        """The session's effects carried out; those of an action send its updates."""
        nonlocal in_action
        effects = list(effects)
        if not any(
            isinstance(e, Send) and isinstance(getattr(e.message, "message", None), Update)
            for e in effects
        ):
            perform(effects)
            return
        for peer in server.peers.values():
            if not getattr(peer, "watched", False):
                watching_writes(peer)
                peer.watched = True  # type: ignore[attr-defined]
        in_action = True
        perform(effects)
        in_action = False
        queued_after_action.append(sum(p.queue.qsize() for p in server.peers.values()))

    monkeypatch.setattr(server, "_perform", performing)
    port = await server.start()
    address = f"127.0.0.1:{port}"
    watchers = spectators(address, tmp_path, 3)
    runners = [asyncio.create_task(w.run()) for w in watchers]
    while any(w.lobby is None for w in watchers):
        await asyncio.sleep(0.01)
    ann = TableClient(address, "Ann", KnownHosts(tmp_path / "hosts"))
    runners.append(asyncio.create_task(ann.run()))
    try:
        for _ in range(6):  # a few of Ann's moves, and the bot's in between
            while not ann.my_turn:
                notice = await asyncio.wait_for(ann.updates.get(), 10)
                if isinstance(notice, SeatTaken):
                    await ann.set_ready(True)
            await ann.act({"kind": "rest"})
            await asyncio.wait_for(ann.updates.get(), 10)
        assert len(queued_after_action) >= 6 and set(queued_after_action) == {0}
        by_update: dict[int, list[bool]] = {}
        for seq, spectator in written:
            by_update.setdefault(seq, []).append(spectator)
        assert len(by_update) >= 6
        assert all(order == [False, True, True, True] for order in by_update.values())
    finally:
        for runner in runners:
            runner.cancel()
        await server.close()
