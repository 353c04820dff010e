"""A player who rejoins mid-game hears, in this order: `seated`, the table's `back` notice,
`lobby`, `start`, its `history` (every entry numbered by its update) and a `snapshot`."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from netcards.table import Table
from protocol.client import SeatTaken, TableClient
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts
from protocol.messages import History, Message, Snapshot


async def test_a_rejoining_player_is_seated_before_anything_else(tmp_path: Path) -> None:
    table = Table.create("via-gladiola", 2, {"first_player": 1}, name="t", host_part=os.urandom(32))
    table.add_bot("heuristic", 1)
    server = TableHost(table, IdentityKey.generate(os.urandom), settings=HostSettings(grace=60))
    port = await server.start()
    hosts = KnownHosts(tmp_path / "hosts")
    ann = TableClient(f"127.0.0.1:{port}", "Ann", hosts)
    runner = asyncio.create_task(ann.run())
    try:
        while ann.view is None or ann.seq < 1:
            notice = await asyncio.wait_for(ann.updates.get(), 10)
            if isinstance(notice, SeatTaken):
                await ann.set_ready(True)
        await ann.leave("a dropped connection")
        await asyncio.wait_for(runner, 5)
        while table.seats[0].connected:
            await asyncio.sleep(0.01)
        seen: list[Message] = []
        again = TableClient(f"127.0.0.1:{port}", "Ann", hosts, token=ann.token, trace=seen.append)
        runner = asyncio.create_task(again.run())
        while not any(isinstance(m, Snapshot) for m in seen):
            await asyncio.wait_for(again.updates.get(), 10)
        types = [m.TYPE for m in seen]
        start = types.index("start")
        assert types[:4] == ["seated", "notice", "lobby", "start"], types
        assert set(types[start + 1 : types.index("snapshot")]) == {"history"}
        history = [m for m in seen if isinstance(m, History)]
        steps = [entry.seq for h in history for entry in h.steps]
        assert steps == list(range(1, len(table.actions) + 1))
    finally:
        runner.cancel()
        await server.close()
