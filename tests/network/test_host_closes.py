"""A host that closes its table says so; a host that dies does not, and its players wait for it.

In process, on loopback: a player plays a few moves against a bot, then the host closes the
table (or vanishes without a word).
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from netcards.table import Table
from protocol.client import (
    Failed,
    GameOver,
    GameStarted,
    LinkDown,
    TableClient,
    TableClosed,
    ViewChanged,
)
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts


async def seated_against_a_bot(
    tmp_path: Path, settings: HostSettings | None = None
) -> tuple[TableHost, TableClient, asyncio.Task[Any]]:
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=os.urandom(32))
    table.add_bot("heuristic", 1)
    server = TableHost(table, IdentityKey.generate(os.urandom), settings=settings or HostSettings())
    port = await server.start()
    client = TableClient(f"127.0.0.1:{port}", "Ann", KnownHosts(tmp_path / "hosts"))
    return server, client, asyncio.create_task(client.run())


async def play_until(client: TableClient, moves: int | None) -> list[Any]:
    """Ready up, then play the first legal move `moves` times (None: until the game is over);
    returns the notices seen."""
    seen: list[Any] = []
    played = 0
    while moves is None or played < moves:
        notice = await asyncio.wait_for(client.updates.get(), 10)
        seen.append(notice)
        if isinstance(notice, GameOver):
            break
        if type(notice).__name__ == "SeatTaken":
            await client.set_ready(True)
        if isinstance(notice, ViewChanged | GameStarted) and client.my_turn:
            await client.act(client.legal_actions()[0])
            played += 1
    return seen


async def next_of(client: TableClient, kinds: tuple[type, ...]) -> Any:
    while True:
        notice = await asyncio.wait_for(client.updates.get(), 10)
        if isinstance(notice, kinds):
            return notice


@pytest.mark.parametrize("one_game", [True, False], ids=["headless", "app"])
async def test_a_table_that_closes_after_its_game_says_so_with_the_results(
    tmp_path: Path, one_game: bool
) -> None:
    """A headless host's table closes once the game is over: its players must know before
    they think of another game there. The app's host may open the table again: it says
    nothing of the kind."""
    server, client, runner = await seated_against_a_bot(tmp_path, HostSettings(one_game=one_game))
    try:
        await play_until(client, None)
        assert client.last_game is one_game, "told with the results, before them"
    finally:
        runner.cancel()
        await server.close()


async def test_a_newcomer_at_a_table_whose_game_is_over_is_told_so(tmp_path: Path) -> None:
    """A player back too soon for the next game (the host has not chosen Play again yet)
    learns that the game is over, not merely that the table is full."""
    server, client, runner = await seated_against_a_bot(tmp_path)
    try:
        await play_until(client, None)
        late = TableClient(f"127.0.0.1:{server.port}", "Bea", KnownHosts(tmp_path / "hosts"))
        await asyncio.wait_for(late.run(), 10)
        failed = [n for n in drain(late) if isinstance(n, Failed)]
        assert [f.code for f in failed] == ["table_over"], failed
        assert "the game at this table is over" in failed[0].reason
    finally:
        runner.cancel()
        await server.close()


def drain(client: TableClient) -> list[Any]:
    out = []
    while not client.updates.empty():
        out.append(client.updates.get_nowait())
    return out


async def test_a_host_closing_mid_game_tells_its_players_with_the_results_so_far(
    tmp_path: Path,
) -> None:
    server, client, runner = await seated_against_a_bot(tmp_path)
    try:
        await play_until(client, 3)
        played = len(server.table.actions)
        await server.close()
        closed = await next_of(client, (TableClosed, LinkDown))
        await asyncio.wait_for(runner, 5)  # the client stops: nothing to reconnect to
    finally:
        runner.cancel()
        await server.close()
    assert isinstance(closed, TableClosed), "the player hears the table closed, not a lost link"
    assert closed.verdict is not None and closed.verdict.ok, closed.verdict
    assert closed.standings is not None
    expected = server.table.game.standings(server.table.state)
    assert closed.standings.scores == expected.scores, "the results so far are the table's"
    replay = client.replay()
    assert replay is not None and len(replay.actions) == played, "the game so far can be replayed"


async def test_a_host_closing_its_lobby_tells_who_is_waiting(tmp_path: Path) -> None:
    table = Table.create("via-gladiola", 3, {}, name="t", host_part=os.urandom(32))
    server = TableHost(table, IdentityKey.generate(os.urandom))
    port = await server.start()
    client = TableClient(f"127.0.0.1:{port}", "Ann", KnownHosts(tmp_path / "hosts"))
    runner = asyncio.create_task(client.run())
    try:
        while client.lobby is None:
            await asyncio.sleep(0.01)
        await server.close()
        closed = await next_of(client, (TableClosed, LinkDown))
    finally:
        runner.cancel()
        await server.close()
    assert closed == TableClosed(None, None)


async def test_a_host_that_dies_leaves_its_players_waiting_to_reconnect(tmp_path: Path) -> None:
    server, client, runner = await seated_against_a_bot(tmp_path)
    try:
        await play_until(client, 2)
        assert server._server is not None
        server._server.close()
        for peer in list(server.peers.values()):
            peer.writer.transport.abort()  # no goodbye: the process died
        down = await next_of(client, (TableClosed, LinkDown))
    finally:
        runner.cancel()
        await server.close()
    assert isinstance(down, LinkDown) and down.retrying, "the player waits for the host"


def test_a_headless_host_stopped_tells_its_bots_with_the_results_so_far(tmp_path: Path) -> None:
    from tests.network.processes import NETCARDS, bot, host, wait_for

    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "2", "--port", "0", "--bot-delay", "0.2",
    )  # fmt: skip
    try:
        trace = tmp_path / "ann.jsonl"
        ann = bot(tmp_path, port, "Ann", "--delay", "0.2", "--log", str(trace))
        bea = bot(tmp_path, port, "Bea", "--delay", "0.2")
        wait_for(lambda: trace.exists() and trace.read_text().count('"update"') >= 3, what="play")
        server.popen.send_signal(signal.SIGTERM)
        assert ann.wait(30) == 1 and bea.wait(30) == 1, "the game was not finished"
        assert server.wait(30) == 1, "the host's game was not finished either"
    finally:
        server.kill()
    # Whoever stopped it reads what happened, not a bare exit.
    assert "stopped before the game's end" in server.stderr(), server.stderr()
    hosted = server.stdout()
    assert "results so far:" in hosted and "(winner)" not in hosted, hosted
    assert re.search(r"^  [12]\. Ann: \d+", hosted, re.M), hosted
    for player in (ann, bea):
        out = player.stdout()
        assert "the host closed the table" in out and "results so far:" in out, out
        assert "(winner)" not in out, "a game stopped half way has no winner"
        assert "deal so far verified" in out, out
        assert "link down" not in player.stderr(), "no reconnecting to a table that was closed"
    # Its journal says so: resuming it would reopen a table whose players have gone home.
    (journal,) = re.findall(r"host: journal (\S+)", server.stderr())
    resumed = subprocess.run(
        [*NETCARDS, "host", "--resume", journal, "--headless", "--discovery-port", "0"],
        check=False, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert resumed.returncode == 2, resumed.stdout + resumed.stderr
    assert "closed this table on purpose" in resumed.stderr
    assert "listening" not in resumed.stdout


def test_a_busy_port_is_one_line_that_says_what_to_do(tmp_path: Path) -> None:
    import socket
    import subprocess

    from tests.network.processes import NETCARDS

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [*NETCARDS, "host", "--headless", "--game", "via-gladiola", "--bind", "127.0.0.1",
             "--port", str(port), "--discovery-port", "0", "--journal", str(tmp_path / "j")],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"netcards: error: port {port} is already in use (another table?): choose another "
        "with --port N, or --port 0 for any free port"
    ]
    assert not (tmp_path / "j").exists(), "no empty journal is left behind"
