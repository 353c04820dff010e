"""No hidden card reaches a client that may not know it, whatever way it came in, over real
sockets: a spectator from the deal on, a spectator who arrives mid-game (its `start`, `history`
and `snapshot`), and a player whose program was killed and started again (the same, for its
seat), beside a player who stayed. Each checks every payload it was sent against the game
replayed from the audit (`tests.network.traces`)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from netcards.registry import all_games
from protocol.client import TableClient
from protocol.known_hosts import KnownHosts
from tests.network.processes import bot, host, read_trace, spawn, wait_for
from tests.network.traces import check_trace
from ui.headless import message_tracer


def watcher(tmp_path: Path, port: int, name: str) -> tuple[TableClient, asyncio.Task[None]]:
    client = TableClient(
        f"127.0.0.1:{port}", name, KnownHosts(tmp_path / f"{name}_hosts"), spectator=True,
        trace=message_tracer(tmp_path / f"{name}.jsonl"),
    )  # fmt: skip
    return client, asyncio.create_task(client.run())


@pytest.mark.parametrize("game", sorted(all_games()))
async def test_spectators_and_a_rejoined_player_are_told_only_what_they_may_know(
    tmp_path: Path, game: str
) -> None:
    server, port, _ = host(
        tmp_path, "--game", game, "--players", "3", "--port", "0", "--grace", "600"
    )  # fmt: skip
    early, early_run = watcher(tmp_path, port, "Sam")
    late_run = None
    try:
        first = tmp_path / "ann-1.jsonl"
        ann = bot(tmp_path, port, "Ann", "--delay", "0.02", "--log", str(first))
        bea = bot(tmp_path, port, "Bea", "--delay", "0.02", "--log", str(tmp_path / "bea.jsonl"))
        cid = bot(tmp_path, port, "Cid", "--delay", "0.02")
        await asyncio.to_thread(
            wait_for, lambda: sum(m["type"] == "update" for m in read_trace(first)) >= 8, 60,
            "the game to get going",
        )  # fmt: skip
        ann.kill()
        late, late_run = watcher(tmp_path, port, "Tom")
        again = spawn(
            tmp_path, "Ann-2", "bot", f"127.0.0.1:{port}", "--name", "Ann",
            "--log", str(tmp_path / "ann-2.jsonl"),
        )  # fmt: skip
        for proc in (again, bea, cid):
            assert await asyncio.to_thread(proc.wait) == 0, proc.stderr()
        for client in (early, late):
            await asyncio.to_thread(
                wait_for, lambda c=client: c.verdict is not None, 30, "the spectators' check"
            )
            assert client.verdict is not None and client.verdict.ok, client.verdict
    finally:
        server.kill()
        early_run.cancel()
        if late_run is not None:
            late_run.cancel()
    rejoined = read_trace(tmp_path / "ann-2.jsonl")
    assert [m["type"] for m in rejoined].count("history") >= 1, "it was sent its log again"
    for trace in ("ann-2", "bea", "Sam", "Tom"):
        assert check_trace(read_trace(tmp_path / f"{trace}.jsonl")) > 0, trace
