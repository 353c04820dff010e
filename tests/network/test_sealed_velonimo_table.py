"""Sealed Velonimo over real loopback sockets with the shipped `TableClient`: players making
random legal moves beside the host's bots; every program says `deal verified`, and turtles'
steals were made by public random draws and passed to the stealer alone."""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path

import pytest

from netcards.table import Table
from protocol.client import TableClient
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts
from tests.network.test_sealed_table import play


@pytest.mark.parametrize(("players", "bots"), [(2, [1]), (3, [1]), (5, [1, 3])])
async def test_an_honest_sealed_velonimo_game_is_verified_in_every_program(
    tmp_path: Path, players: int, bots: list[int]
) -> None:
    table = Table.create(
        "velonimo",
        players,
        {"difficulties": [1, 2]},
        name="t",
        host_part=os.urandom(32),
        sealed=True,
    )
    for seat in bots:
        table.add_bot("random", seat)
    server = TableHost(table, IdentityKey.generate(os.urandom), settings=HostSettings())
    port = await server.start()
    clients = [
        TableClient(f"127.0.0.1:{port}", f"P{i}", KnownHosts(tmp_path / f"hosts{i}"))
        for i in range(players - len(bots))
    ]
    runners = [asyncio.create_task(c.run()) for c in clients]
    try:
        rng = random.Random(players)
        await asyncio.wait_for(asyncio.gather(*(play(c, rng) for c in clients)), 120)
    finally:
        for c in clients:
            await c.leave("done")
        for r in runners:
            r.cancel()
        await server.close()
    host = server.session.sealed_host
    assert [c.sealed_verdict for c in clients] == ["deal verified"] * len(clients)
    assert host.verdict == "deal verified" and table.phase == "over"
    assert host.relay.draws.values, "no turtle stole"
    assert any(kept.moves.passed for kept in host.relay.rounds.values())
    for c in clients:
        assert c.sealed is not None and c.sealed.mirror.draws_done == len(host.relay.draws.values)
