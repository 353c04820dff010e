"""Nobody can lock a player out of their own seat: a real host process, a restarted player, a
flood of idle connections from many loopback addresses and every spectator place taken."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from pathlib import Path

from protocol.host import HostSettings
from protocol.messages import Error, Join, Seated
from tests.network.processes import bot, host, read_trace, spawn, wait_for
from tests.network.raw import Raw, connect

SETTINGS = HostSettings()


async def spectator(port: int, source: str) -> Raw:
    """A spectator that joins and then just sits there."""
    raw = await connect(port, source=source)
    await raw.handshake()
    await raw.send(Join("Idle", None, True))
    return raw


async def test_a_player_with_a_seat_token_gets_back_in_past_idle_floods(tmp_path: Path) -> None:
    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "3", "--bots", "1", "--port", "0",
        "--grace", "600", "--bot-delay", "0.02",
    )  # fmt: skip
    idle: list[socket.socket] = []
    watchers: list[Raw] = []
    try:
        first = tmp_path / "ann-1.jsonl"
        ann = bot(tmp_path, port, "Ann", "--delay", "0.05", "--log", str(first))
        bea = bot(tmp_path, port, "Bea", "--delay", "0.05")
        await asyncio.to_thread(
            wait_for, lambda: len(read_trace(first)) >= 12, 60, "the game to get going"
        )
        ann.kill()

        # Every spectator place taken, from as few addresses as the per-address cap allows.
        per_address = SETTINGS.max_spectators_per_address
        for n in range(SETTINGS.max_spectators):
            watchers.append(await spectator(port, f"127.0.1.{1 + n // per_address}"))
            assert isinstance(await _first(watchers[-1], Seated), Seated)
            if n + 1 == per_address:  # one address has as many as it may have
                crowded = await spectator(port, "127.0.1.1")
                refusal = await _first(crowded, Error)
                assert isinstance(refusal, Error) and refusal.code == "refused" and refusal.fatal
                assert "from your address" in refusal.text
        one_more = await spectator(port, "127.0.2.1")
        refusal = await _first(one_more, Error)
        assert isinstance(refusal, Error) and refusal.code == "refused" and refusal.fatal
        assert f"{SETTINGS.max_spectators} spectators already" in refusal.text

        # 200 connections that never say a word, from 25 addresses, the player's own among them.
        for n in range(200):
            address = f"127.0.0.{1 + n % 25}"
            with contextlib.suppress(OSError):
                idle.append(socket.create_connection(("127.0.0.1", port), 5, (address, 0)))

        restarted = time.monotonic()
        again = spawn(tmp_path, "Ann-again", "bot", f"127.0.0.1:{port}", "--name", "Ann")
        await asyncio.to_thread(
            wait_for, lambda: "Ann: seat" in again.stderr(), 30, "Ann back in her seat"
        )
        back_after = time.monotonic() - restarted
        assert back_after < 10, f"Ann took {back_after:.1f} s to get back in"
        assert await asyncio.to_thread(again.wait) == 0, again.stderr()
        assert await asyncio.to_thread(bea.wait) == 0, bea.stderr()
        assert await asyncio.to_thread(server.wait) == 0, server.stderr()
    finally:
        server.kill()
        for s in idle:
            s.close()
        for raw in watchers:
            raw.close()
    assert "deal verified" in again.stdout()
    assert server.result() == again.result() == bea.result()
    log = server.stderr()
    assert "to make room" in log, "idle connections were shed for the newcomers"


async def _first(raw: Raw, kind: type[Seated | Error]) -> Seated | Error:
    """The first `kind` message (or a refusal), skipping whatever else the host says first."""
    for _ in range(50):
        message = await raw.message(10)
        if isinstance(message, kind | Error):
            return message
    raise AssertionError(f"no {kind.__name__} came")
