"""`start` carries the table's card catalogue, so a client knows what every card id means even
with the owner's own deck file."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from netcards.games.via_gladiola.cards import house_deck_text
from netcards.table import Table
from protocol.client import GameStarted, SeatTaken, TableClient
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts
from protocol.messages import Message, Start


async def test_start_holds_every_card_of_a_custom_deck(tmp_path: Path) -> None:
    deck = house_deck_text().replace("\n1 = 3\n", "\n1 = 5\n").replace("\n11 = 0\n", "\n11 = 4\n")
    table = Table.create("via-gladiola", 2, {"deck": deck}, name="t", host_part=os.urandom(32))
    table.add_bot("random", 1)
    server = TableHost(table, IdentityKey.generate(os.urandom), settings=HostSettings())
    port = await server.start()
    seen: list[Message] = []
    ann = TableClient(f"127.0.0.1:{port}", "Ann", KnownHosts(tmp_path / "hosts"), trace=seen.append)
    runner = asyncio.create_task(ann.run())
    try:
        while True:
            notice = await asyncio.wait_for(ann.updates.get(), 10)
            if isinstance(notice, SeatTaken):
                await ann.set_ready(True)
            if isinstance(notice, GameStarted):
                break
        start = next(m for m in seen if isinstance(m, Start))
        cards = list(start.cards)
        assert [c["id"] for c in cards] == list(range(67))
        assert cards[0] == {"id": 0, "kind": "distance", "value": 1, "blisters": 5}
        assert cards[10] == {"id": 10, "kind": "distance", "value": 11, "blisters": 4}
        assert cards[49]["kind"] == "finish" and cards[63]["kind"] == "start"
        assert cards == table.game.cards(table.config)
        assert ann.cards == cards
    finally:
        runner.cancel()
        await server.close()
