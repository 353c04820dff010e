"""`host --headless --owner NAME`: the player who joins under that name owns the table and may
add bots and change options from afar; anyone else is refused."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from protocol.client import HostRefused, Notice, TableClient
from protocol.known_hosts import KnownHosts
from tests.network.processes import host


async def until(client: TableClient, done: Callable[[Notice], bool]) -> Notice:
    while True:
        notice = await asyncio.wait_for(client.updates.get(), 10)
        if done(notice):
            return notice


async def test_the_named_owner_adds_a_bot_from_afar_and_others_may_not(tmp_path: Path) -> None:
    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "3", "--port", "0", "--owner", "Ann"
    )
    hosts = KnownHosts(tmp_path / "hosts")
    bob = TableClient(f"127.0.0.1:{port}", "Bob", hosts)
    ann = TableClient(f"127.0.0.1:{port}", "Ann", hosts)
    runners = [asyncio.create_task(c.run()) for c in (bob, ann)]
    try:
        await until(bob, lambda _: bob.lobby is not None)
        await until(ann, lambda _: ann.lobby is not None)
        assert ann.owner and not bob.owner
        await bob.add_bot(2, "random")
        refused = await until(bob, lambda n: isinstance(n, HostRefused))
        assert isinstance(refused, HostRefused) and refused.code == "not_allowed"
        await ann.add_bot(2, "random")
        await until(ann, lambda _: ann.lobby is not None and ann.lobby.seats[2].kind == "bot")
        assert ann.lobby is not None and ann.lobby.seats[2].bot_level == "random"
    finally:
        for r in runners:
            r.cancel()
        server.kill()
    assert "Ann owns the table" in server.stderr()
