"""A sealed table closed by its host at any moment of any title: nothing raises, on the host or
in any player's program, and the results so far are what the public record scores (each
player's own engine and the host's say the same), none where the title scores cards still sealed
(Via Gladiola's hands). Over real loopback sockets with the shipped `TableClient`; the headless
host's process and the app are in test_sealed_closing_processes.py and
tests/ui/test_sealed_closing_app.py."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
from pathlib import Path

import pytest

from netcards.table import Table
from protocol.client import Failed, SeatTaken, TableClient, TableClosed, ViewChanged
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts
from tests.network.sealed_moments import GAMES, MOMENTS, TRIES, when


async def player(client: TableClient, rng: random.Random) -> TableClosed | Failed:
    """A player's program making random legal moves, until the table closes (or fails)."""
    while True:
        notice = await client.updates.get()
        if isinstance(notice, TableClosed | Failed):
            return notice
        if isinstance(notice, SeatTaken):
            await client.set_ready(True)
        if isinstance(notice, ViewChanged) and client.my_turn:
            legal = client.legal_actions()
            if legal:
                with contextlib.suppress(ConnectionError):  # the table is closing under it
                    await client.act(rng.choice(legal))


@pytest.mark.parametrize("leaving", [False, True], ids=["closed", "a player left first"])
@pytest.mark.parametrize("moment", list(MOMENTS))
@pytest.mark.parametrize(("title", "players"), GAMES)
async def test_a_sealed_table_closed_at_any_moment_gives_the_public_results_so_far(
    tmp_path: Path, title: str, players: int, moment: str, leaving: bool
) -> None:
    """`leaving`: at that moment a player leaves (its program says `leave` and is gone), the
    others hear the table wait for it, and then the host closes the table: their verdict names
    the seat that left, by the step the table waited for from it, or as gone before publishing
    its secrets."""
    for attempt in range(TRIES):
        if await closed_at(tmp_path / str(attempt), title, players, moment, leaving):
            return
    raise AssertionError(f"no game of {TRIES} came to {moment}")


async def closed_at(folder: Path, title: str, players: int, moment: str, leaving: bool) -> bool:
    """A sealed game of `title` closed by its host at `moment` (False: it ended before)."""
    table = Table.create(title, players, {}, name="t", host_part=os.urandom(32), sealed=True)
    table.add_bot("random", players - 1)
    server = TableHost(table, IdentityKey.generate(os.urandom), settings=HostSettings(grace=0.0))
    there = asyncio.Event()
    when(server.session, moment, there.set)
    port = await server.start()
    clients = [
        TableClient(f"127.0.0.1:{port}", f"P{i}", KnownHosts(folder / f"hosts{i}"))
        for i in range(players - 1)
    ]
    runners = [asyncio.create_task(c.run()) for c in clients]
    rng = random.Random(f"{title} {players} {moment} {folder.name}")
    playing = [asyncio.create_task(player(c, rng)) for c in clients]
    try:
        over = asyncio.create_task(server.finished.wait())
        reached = asyncio.create_task(there.wait())
        await asyncio.wait({over, reached}, timeout=120, return_when=asyncio.FIRST_COMPLETED)
        over.cancel()
        if not there.is_set():
            assert server.finished.is_set(), f"the game got stuck before {moment}"
            return False
        gone = clients[0] if leaving else None
        if gone is not None:
            playing[0].cancel()
            await gone.leave("I have to go")
            await asyncio.wait_for(runners[0], 10)
            for c in clients[1:]:
                while not any(n.args.get("seat") == gone.seat for n in c.notices):
                    await asyncio.sleep(0.01)
        await server.close()
        so_far = server.standings_so_far()
        stayed = [(c, p) for c, p in zip(clients, playing, strict=True) if c is not gone]
        ends = await asyncio.wait_for(asyncio.gather(*(p for _, p in stayed)), 30)
        await asyncio.wait_for(asyncio.gather(*runners), 30)  # raises what a program raised
    finally:
        for task in (*playing, *runners):
            task.cancel()
        await server.close()
    assert table.phase == "playing", "closed before the game's end"
    if title == "via-gladiola":
        assert so_far is None, "its score is the hands, which nobody can see"
    else:
        assert so_far is not None
    for (client, _), end in zip(stayed, ends, strict=True):
        assert isinstance(end, TableClosed), end
        assert end.verdict is not None and end.verdict.unchecked and not end.verdict.ok
        assert client.sealed_verdict is not None
        assert client.sealed_verdict.startswith("deal not checked")
        assert client.replay() is None, "its hidden cards stay unknown: no replay"
        if gone is not None:
            assert gone.seat is not None
            # Named once: by the step the table waited for from it, if any, else as gone.
            n, verdict = gone.seat + 1, client.sealed_verdict
            waited = f"the table closed while waiting for P0 (seat {n}) to "
            left = f"seat {n} (P0) left before publishing its secrets"
            assert (waited in verdict) != (left in verdict), verdict
        mine = None if end.standings is None else end.standings.to_data()
        assert mine == (None if so_far is None else so_far.to_data()), (
            "a player's program scores the public record as the host's does"
        )
    return True
