"""Real tables on loopback for the app to join, in the test's own process."""

from __future__ import annotations

import os
from typing import Any

from netcards.table import Table
from protocol.discovery import Responder
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey


async def open_host(
    game: str = "via-gladiola",
    players: int = 3,
    *,
    bots: int = 0,
    password: str | None = None,
    name: str = "Club",
    **settings: Any,
) -> TableHost:
    """A table whose last `bots` seats are bots, listening on a free loopback port."""
    table = Table.create(game, players, {}, name=name, host_part=os.urandom(32))
    for seat in range(players - bots, players):
        table.add_bot("heuristic", seat)
    host = TableHost(
        table, IdentityKey(bytes(range(32))), password=password, settings=HostSettings(**settings)
    )
    await host.start("127.0.0.1", 0)
    return host


async def announce(host: TableHost, port: int) -> Responder:
    """LAN discovery for `host`, on loopback and one UDP port."""
    responder = Responder(host.table_info)
    await responder.start("127.0.0.1", port)
    return responder
