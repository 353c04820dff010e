"""The host's limits, in process: handshakes that never finish, clients that stop reading,
discovery of a real host process."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from pathlib import Path

import pytest

from netcards.table import Table
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from tests.network.processes import NETCARDS, free_udp_port, host


def quick_host(lines: list[str], **settings: float) -> TableHost:
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=os.urandom(32))
    return TableHost(
        table, IdentityKey.generate(os.urandom), settings=HostSettings(**settings), log=lines.append
    )


async def test_a_handshake_left_hanging_is_dropped_after_the_timeout() -> None:
    lines: list[str] = []
    server = quick_host(lines, handshake_timeout=0.3)
    port = await server.start()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"\x00\x00")  # half a length prefix, then nothing
        assert await asyncio.wait_for(reader.read(), 3) == b""  # the host hung up
        assert any("did not finish the handshake and join in time" in line for line in lines)
        writer.close()
    finally:
        await server.close()


async def test_a_client_that_stops_reading_is_disconnected_not_waited_for() -> None:
    lines: list[str] = []
    server = quick_host(lines, queue_limit=3)
    port = await server.start()
    try:
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        for _ in range(100):
            if server.peers:
                break
            await asyncio.sleep(0.01)
        (peer,) = server.peers.values()
        peer.queue.put_nowait(b"a")  # the writer is stuck: nothing is taken off the queue
        for _ in range(5):
            server._enqueue(peer, b"update")
        assert peer.closed
        assert any("does not keep up (queue full)" in line for line in lines)
        writer.close()
    finally:
        await server.close()


@pytest.mark.parametrize("locked", [False, True], ids=["open", "password"])
def test_discover_finds_a_host_process_and_shows_its_game_and_free_seats(
    tmp_path: Path, locked: bool
) -> None:
    udp = free_udp_port()
    server, port, fingerprint = host(
        tmp_path, "--game", "velonimo", "--players", "4", "--bots", "1", "--port", "0",
        "--name", "Club night", "--discovery-port", str(udp),
        *(["--password", "sesame"] if locked else []),
    )  # fmt: skip
    try:
        found = subprocess.run(
            [*NETCARDS, "discover", "--target", "127.0.0.1", "--port", str(udp), "--json"],
            capture_output=True, text=True, timeout=30, check=True,
        )  # fmt: skip
        plain = subprocess.run(
            [*NETCARDS, "discover", "--port", str(udp), "--timeout", "0.5"],
            capture_output=True, text=True, timeout=30, check=True,
        )  # fmt: skip
    finally:
        server.kill()
    (table,) = json.loads(found.stdout)
    assert table["name"] == "Club night" and table["game"] == "velonimo"
    assert (table["players"], table["free"]) == (4, 3)
    assert table["address"] == f"127.0.0.1:{port}" and table["fp"] == fingerprint
    assert table["pw"] is locked
    assert "Club night" in plain.stdout
    assert ("3/4 free  password" if locked else "3/4 free  open") in plain.stdout


async def test_the_turn_clock_runs_out_into_a_bot_move_and_everyone_is_told(tmp_path: Path) -> None:
    from protocol.client import ClockChanged, TableClient, TableSays
    from protocol.known_hosts import KnownHosts

    lines: list[str] = []
    table = Table.create("via-gladiola", 2, {"first_player": 0}, name="t", host_part=os.urandom(32))
    table.add_bot("heuristic", 1)
    server = TableHost(
        table,
        IdentityKey.generate(os.urandom),
        settings=HostSettings(turn_clock=0.3),
        log=lines.append,
    )
    port = await server.start()
    sleeper = TableClient(f"127.0.0.1:{port}", "Sleepy", KnownHosts(tmp_path / "hosts"))
    runner = asyncio.create_task(sleeper.run())
    try:
        seen: list[object] = []
        while not any(isinstance(n, TableSays) and n.code == "clock" for n in seen):
            notice = await asyncio.wait_for(sleeper.updates.get(), 10)
            seen.append(notice)
            if type(notice).__name__ == "SeatTaken":
                await sleeper.set_ready(True)
        assert sleeper.lobby is not None and sleeper.lobby.turn_clock_ms == 300
        clocks = [n for n in seen if isinstance(n, ClockChanged)]
        assert clocks, "the players were told the clock runs"
        said = next(n for n in seen if isinstance(n, TableSays) and n.code == "clock")
        assert said.args == {"seat": 0, "name": "Sleepy"}
        await asyncio.sleep(0.2)
        assert table.actions and table.actions[0][0] == 0, "a bot played the sleeper's turn"
        assert any("time ran out for seat 1" in line for line in lines)
        assert sleeper.turn_clock_ms == 300
    finally:
        runner.cancel()
        await server.close()


async def test_a_connection_that_never_joins_is_dropped_after_the_join_timeout() -> None:
    from tests.network.raw import connect

    lines: list[str] = []
    server = quick_host(lines, handshake_timeout=0.3, join_timeout=0.3)
    port = await server.start()
    try:
        raw = await connect(port)
        await raw.handshake()  # keys agreed, then silence instead of a join
        assert await asyncio.wait_for(raw.reader.read(), 3) == b""
        assert any("did not finish the handshake and join in time" in line for line in lines)
        assert not server.peers
        raw.close()
    finally:
        await server.close()
