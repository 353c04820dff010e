"""What every player waits on after an action: the update, and nothing else.

The host encodes a message meant for many (the spectators' update, a notice to everyone) once
and only seals it per connection; and at the end of a game, the results and the audit (the
whole game, encrypted for everyone) are encoded only once every peer's writer has the last
update in hand, so the end shows at once.
"""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import protocol.connection
from netcards.table import Table
from protocol.client import TableClient
from protocol.host import HostSettings, Peer, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts
from protocol.messages import Update


async def test_the_end_of_a_game_waits_for_the_last_update_to_leave(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    encoded: Counter[int] = Counter()
    encode = protocol.connection.encode

    def counting(message: Any) -> Any:
        if isinstance(message, Update):
            encoded[message.seq] += 1
        return encode(message)

    monkeypatch.setattr(protocol.connection, "encode", counting)
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=os.urandom(32))
    table.add_bot("random", 0)
    table.add_bot("random", 1)
    server = TableHost(
        table, IdentityKey.generate(os.urandom), settings=HostSettings(bot_delay=0.05)
    )
    waiting_writers: list[bool] = []  # when the results start: did a writer still wait?
    send_results = server._send_results

    def results_once_the_update_is_out(peer: Peer) -> None:
        if not waiting_writers:
            waiting_writers.append(any(not p.queue.empty() for p in server.peers.values()))
        send_results(peer)

    monkeypatch.setattr(server, "_send_results", results_once_the_update_is_out)
    port = await server.start()
    watchers = [
        TableClient(
            f"127.0.0.1:{port}", f"S{i}", KnownHosts(tmp_path / f"hosts{i}"), spectator=True
        )
        for i in range(3)
    ]
    runners = [asyncio.create_task(w.run()) for w in watchers]
    try:
        await asyncio.wait_for(server.finished.wait(), 60)
        for watcher in watchers:
            while watcher.outcome is None:
                await asyncio.wait_for(watcher.updates.get(), 10)
        assert waiting_writers == [False]
        # Three spectators, one update each time, encoded once (after they had all joined).
        assert encoded and max(encoded.values()) == 1
        assert {w.seq for w in watchers} == {server.seq}
    finally:
        for runner in runners:
            runner.cancel()
        await server.close()
