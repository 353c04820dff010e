"""Hostile and broken peers: the host logs them, drops them, and the honest game still finishes."""

from __future__ import annotations

import asyncio
import os
import socket
import struct
from pathlib import Path

from protocol.client import HostRefused, SeatTaken, TableClient, TokenRefused
from protocol.client_connection import ClientConnection
from protocol.known_hosts import KnownHosts
from protocol.messages import Action, Join, Say
from tests.network.processes import bot, host, wait_for


def garbage(port: int, data: bytes) -> bytes:
    """Send `data` on a fresh connection; return what the host answered before closing."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := s.recv(4096):
            chunks.append(chunk)
    return b"".join(chunks)


async def spectator(port: int, tmp: Path) -> TableClient:
    """A spectator's session; retried while the host is still shedding a connection flood (it
    refuses connections beyond its limit rather than fall over)."""
    for _ in range(20):
        client = TableClient(
            f"127.0.0.1:{port}", "Mallory", KnownHosts(tmp / "mallory_hosts"), spectator=True
        )
        runner = asyncio.create_task(client.run())
        for _ in range(100):
            if client.lobby is not None:
                return client
            if runner.done():
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.2)
    raise AssertionError("the spectator never got the lobby")


async def test_the_host_survives_hostile_peers_and_the_honest_game_finishes(tmp_path: Path) -> None:
    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "2", "--port", "0", "--bot-delay", "0"
    )
    try:
        # Garbage, and a length prefix far over the limit: refused with an error, then closed.
        assert garbage(port, os.urandom(300))
        assert b"frame_too_large" in garbage(port, struct.pack(">I", 10_000_000) + b"x" * 10)
        # Half-open handshakes left hanging, and 200 rapid connections.
        hanging = [socket.create_connection(("127.0.0.1", port)) for _ in range(5)]
        hanging[0].sendall(ClientConnection(os.urandom).data_to_send())  # hello, then silence
        for _ in range(200):
            with socket.create_connection(("127.0.0.1", port)) as s:
                s.sendall(b"\x00")
        # A chat flood from a spectator, and moves it has no seat for.
        mallory = await spectator(port, tmp_path)
        await mallory._send(Action(0, {"kind": "rest"}))
        for _ in range(60):
            try:
                await mallory._send(Say("spam " * 50))
            except ConnectionError:
                break
        # Someone claiming a seat with a made-up token gets no seat with it: the token is
        # refused, and the client can only sit down as a new player (then it leaves).
        forger = TableClient(
            f"127.0.0.1:{port}", "Eve", KnownHosts(tmp_path / "eve_hosts"), token=os.urandom(32)
        )
        running = asyncio.create_task(forger.run())
        notices = []
        while not any(isinstance(n, SeatTaken) for n in notices):
            notices.append(await asyncio.wait_for(forger.updates.get(), 10))
        assert any(isinstance(n, TokenRefused) for n in notices)
        taken = next(n for n in notices if isinstance(n, SeatTaken))
        assert not taken.resumed and not taken.owner
        await forger.leave("gone")
        await asyncio.wait_for(running, 10)

        ann = bot(tmp_path, port, "Ann")
        bea = bot(tmp_path, port, "Bea")
        assert await asyncio.to_thread(ann.wait) == 0, ann.stderr()
        assert await asyncio.to_thread(bea.wait) == 0, bea.stderr()
        assert await asyncio.to_thread(server.wait) == 0, server.stderr()
        for s in hanging:
            s.close()
    finally:
        server.kill()
    log = server.stderr()
    assert "protocol error" in log and "frame_too_large" in log
    assert "flooded the chat" in log
    assert "spectators cannot play" not in log  # refused to the peer, not a host problem
    assert server.result() == ann.result() == bea.result()


def test_a_spectator_is_refused_a_move_with_a_clear_error(tmp_path: Path) -> None:
    async def scenario() -> list[object]:
        server, port, _ = host(tmp_path, "--game", "via-gladiola", "--players", "2", "--port", "0")
        try:
            mallory = await spectator(port, tmp_path)
            await mallory._send(Action(0, {"kind": "rest"}))
            await mallory._send(Join("again", None, False))
            await asyncio.sleep(0.3)
            seen = []
            while not mallory.updates.empty():
                seen.append(mallory.updates.get_nowait())
            await mallory.leave()
            return seen
        finally:
            server.kill()

    seen = asyncio.run(scenario())
    refusals = [n for n in seen if isinstance(n, HostRefused)]
    assert [r.code for r in refusals] == ["not_allowed", "unexpected_message"]
    assert refusals[0].text == "spectators cannot play" and not refusals[0].fatal


def test_host_is_still_listening_after_a_truncated_frame(tmp_path: Path) -> None:
    server, port, _ = host(tmp_path, "--game", "via-gladiola", "--players", "2", "--port", "0")
    try:
        hello = ClientConnection(os.urandom).data_to_send()
        garbage(port, hello[: len(hello) // 2])
        wait_for(lambda: "[truncated]" in server.stderr(), what="the truncated frame in the log")
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
    finally:
        server.kill()
