"""The host's limits, in process: handshakes that never finish, clients that stop reading,
discovery of a real host process."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from netcards.table import Table
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.messages import Action, Chat, Error, Join, Say, decode
from protocol.wire import unpack
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
        said = await asyncio.wait_for(reader.read(), 3)  # all of it: the host hung up
        refusal = decode(unpack(said[4:]))  # one plaintext frame: the handshake never was
        assert isinstance(refusal, Error) and (refusal.code, refusal.fatal) == ("timeout", True)
        assert len(said) == 4 + int.from_bytes(said[:4], "big")
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
        refusal = await raw.message(3)  # encrypted, as everything after the handshake
        assert isinstance(refusal, Error) and (refusal.code, refusal.fatal) == ("timeout", True)
        assert await asyncio.wait_for(raw.reader.read(), 3) == b""
        assert any("did not finish the handshake and join in time" in line for line in lines)
        assert not server.peers
        raw.close()
    finally:
        await server.close()


async def test_connections_shed_to_make_room_are_hung_up_at_once() -> None:
    """One address may keep only so many connections waiting to join: those over go, and go
    at once, even in a burst that arrives before the host has run anything for them (their
    programs see the end, and the host keeps no socket for them)."""
    lines: list[str] = []
    server = quick_host(lines)
    port = await server.start()
    keep = server.settings.max_waiting_per_address
    source = ("127.0.0.3", 0)
    streams = await asyncio.gather(
        *(asyncio.open_connection("127.0.0.1", port, local_addr=source) for _ in range(keep + 4))
    )

    async def hung_up(reader: asyncio.StreamReader) -> bool:
        try:
            return await asyncio.wait_for(reader.read(), 2) == b""
        except TimeoutError:
            return False

    try:
        ended = await asyncio.gather(*(hung_up(reader) for reader, _ in streams))
        assert sum(ended) == 4, "those shed are closed, the others kept"
        assert sum("to make room" in line for line in lines) == 4
        assert len(server.peers) == keep
    finally:
        for _, writer in streams:
            writer.close()
        await server.close()


async def test_a_joined_player_gone_silent_is_told_why_it_is_dropped() -> None:
    from tests.network.raw import connect

    lines: list[str] = []
    server = quick_host(lines, ping_interval=0.1, ping_timeout=0.4)
    port = await server.start()
    try:
        raw = await connect(port)
        await raw.handshake()
        await raw.send(Join("Ann", None, False))
        await raw.message(3)
        await asyncio.sleep(1.5)  # reads nothing, so answers no ping: silent
        said = []
        with contextlib.suppress(ConnectionError):
            while True:
                said.append(await raw.message(3))
        refusal = said[-1]
        assert isinstance(refusal, Error) and (refusal.code, refusal.fatal) == ("timeout", True)
        assert any("silent for" in line for line in lines)
        raw.close()
    finally:
        await server.close()


async def test_only_chat_too_fast_counts_towards_the_chat_flood_limit() -> None:
    """A spectator refused many moves (it has no seat) may still chat; chat too fast is
    refused, without ending the connection, until the speaker keeps on past the limit."""
    from tests.network.raw import connect

    lines: list[str] = []
    server = quick_host(lines, chat_abuse_limit=5, chat_burst=2, chat_per_second=0.001)
    port = await server.start()
    try:
        raw = await connect(port)
        await raw.handshake()
        await raw.send(Join("Eve", None, True))
        for _ in range(12):
            await raw.send(Action(0, {"kind": "rest"}))
        await raw.send(Say("hello"))
        said = [await raw.message(3)]
        while not isinstance(said[-1], Chat):  # the lobby, the refusals, then the line
            said.append(await raw.message(3))
        assert said[-1].text == "hello"
        refusals = [m for m in said if isinstance(m, Error)]
        assert len(refusals) == 12 and {m.code for m in refusals} == {"not_allowed"}
        await raw.send(Say("again"))  # the burst is spent: too fast from now on
        for n in range(5):
            await raw.send(Say(f"flood {n}"))
            refusal = await _next(raw, Error)
            assert (refusal.code, refusal.fatal) == ("refused", False)
        await raw.send(Say("one more"))
        with pytest.raises(ConnectionError):
            await _next(raw, Error)
        assert any("flooded the chat" in line for line in lines)
    finally:
        await server.close()


async def _next(raw: Any, kind: type[Error]) -> Error:
    while not isinstance(message := await raw.message(3), kind):
        pass
    return message


async def test_a_message_before_join_is_refused_with_the_reason_then_the_close() -> None:
    from tests.network.raw import connect

    lines: list[str] = []
    server = quick_host(lines)
    port = await server.start()
    try:
        raw = await connect(port)
        await raw.handshake()
        await raw.send(Say("hello?"))
        refusal = await raw.message(3)
        assert isinstance(refusal, Error), refusal
        assert (refusal.code, refusal.fatal) == ("unexpected_message", True)
        assert await asyncio.wait_for(raw.reader.read(), 3) == b""
        assert any("sent 'say' before joining" in line for line in lines)
        raw.close()
    finally:
        await server.close()
