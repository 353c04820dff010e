"""Two live programs holding one seat token: the newer connection keeps the seat, the older is
told why (`replaced`, fatal) and stops, instead of reconnecting with the token and pushing the
newer one out in turn, for ever."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from netcards.table import Table
from protocol.client import Failed, SeatTaken, TableClient
from protocol.host import TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts


async def test_the_older_of_two_connections_with_one_token_stops(tmp_path: Path) -> None:
    table = Table.create("via-gladiola", 3, {}, name="t", host_part=os.urandom(32))
    logged: list[str] = []
    server = TableHost(table, IdentityKey.generate(os.urandom), log=logged.append)
    port = await server.start()
    hosts = KnownHosts(tmp_path / "hosts")
    first = TableClient(f"127.0.0.1:{port}", "Bot", hosts)
    runners = [asyncio.create_task(first.run())]
    try:
        while first.token is None:
            notice = await asyncio.wait_for(first.updates.get(), 10)
        second = TableClient(f"127.0.0.1:{port}", "Bot", hosts, token=first.token)
        runners.append(asyncio.create_task(second.run()))
        while not isinstance(notice := await asyncio.wait_for(second.updates.get(), 10), SeatTaken):
            pass
        assert notice.seat == 0 and notice.resumed

        async def failure() -> Failed:
            while not isinstance(notice := await first.updates.get(), Failed):
                pass
            return notice

        failed = await asyncio.wait_for(failure(), 10)
        assert failed.code == "replaced", failed
        assert "newer connection" in failed.reason
        await asyncio.wait_for(runners[0], 5)  # the older program's session is over
        await asyncio.sleep(1.0)  # long enough for several rounds of a fight, had it begun
        assert sum("replaced by a newer connection" in line for line in logged) == 1, logged
        assert second.connected and second.seat == 0
        assert [s.name for s in table.seats if s.kind == "human"] == ["Bot"]
    finally:
        for runner in runners:
            runner.cancel()
        await server.close()
