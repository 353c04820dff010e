"""A player who leaves a game on purpose is said to have left, not to have lost the
connection; one whose link drops is said to be away. In process, on loopback."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from netcards.table import Table
from protocol.client import GameStarted, SeatTaken, TableClient, TableSays
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts


async def until(client: TableClient, wanted: Any) -> Any:
    while not wanted(notice := await asyncio.wait_for(client.updates.get(), 10)):
        if isinstance(notice, SeatTaken):
            await client.set_ready(True)
    return notice


@pytest.mark.parametrize("on_purpose", [True, False], ids=["leaves", "link-drops"])
async def test_the_others_hear_whether_a_player_left_or_lost_the_link(
    tmp_path: Path, on_purpose: bool
) -> None:
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=os.urandom(32))
    server = TableHost(table, IdentityKey.generate(os.urandom), settings=HostSettings(grace=60))
    port = await server.start()
    hosts = KnownHosts(tmp_path / "hosts")
    ann, bea = (TableClient(f"127.0.0.1:{port}", n, hosts) for n in ("Ann", "Bea"))
    runners = [asyncio.create_task(c.run()) for c in (ann, bea)]
    try:
        started = (until(c, lambda n: isinstance(n, GameStarted)) for c in (ann, bea))
        await asyncio.gather(*started)
        if on_purpose:
            await bea.leave("done for tonight")
        else:
            runners[1].cancel()  # the program dies: no word to the host
        said = await until(ann, lambda n: isinstance(n, TableSays))
        assert said.code == ("left" if on_purpose else "away"), said
        assert said.args == {"seat": 1, "name": "Bea"}
        assert not table.seats[1].connected and table.seats[1].token, "the seat waits for her"
    finally:
        for runner in runners:
            runner.cancel()
        await server.close()
