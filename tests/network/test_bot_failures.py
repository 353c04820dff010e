"""A bot that fails at one seat (raises, or answers with an illegal move) is logged and its seat
plays the random bot's legal move instead: the other bots and the game go on to the end."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from netcards.table import Table
from protocol.client import TableClient
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts
from tests.network.test_stand_in_handover import play


def raises() -> dict[str, Any]:
    raise RuntimeError("the bot tripped over its own feet")


def illegal() -> dict[str, Any]:
    return {"kind": "no such move"}


FAILURES: dict[str, Callable[[], dict[str, Any]]] = {"raises": raises, "illegal": illegal}


@pytest.mark.parametrize("how", sorted(FAILURES))
async def test_a_failing_bot_falls_back_to_a_legal_move_and_the_other_bots_play_on(
    tmp_path: Path, how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = Table.bot_move

    def broken_at_seat_2(
        table: Table, seat: int, level: str | None = None
    ) -> Callable[[], dict[str, Any]]:
        think = original(table, seat) if level is None else original(table, seat, level)
        return FAILURES[how] if seat == 1 and level is None else think

    monkeypatch.setattr(Table, "bot_move", broken_at_seat_2)
    table = Table.create("via-gladiola", 3, {}, name="t", host_part=os.urandom(32))
    table.add_bot("heuristic", 1)
    table.add_bot("heuristic", 2)
    lines: list[str] = []
    server = TableHost(
        table, IdentityKey.generate(os.urandom), settings=HostSettings(), log=lines.append
    )
    port = await server.start()
    ann = TableClient(f"127.0.0.1:{port}", "Ann", KnownHosts(tmp_path / "hosts"))
    runner = asyncio.create_task(ann.run())
    try:
        await asyncio.wait_for(play(ann, random.Random(how)), 120)
        await asyncio.wait_for(server.finished.wait(), 10)
    finally:
        runner.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runner
        await server.close()
    assert ann.verdict is not None and ann.verdict.ok, ann.verdict
    seats = [seat for seat, _ in table.actions]
    assert seats.count(1) > 1 and seats.count(2) > 1, "both bots played all game long"
    said = [line for line in lines if "the bot for seat 2" in line]
    reason = "tripped over its own feet" if how == "raises" else "chose an illegal move"
    assert len(said) == seats.count(1) and all(reason in line for line in said), said
    assert not any("seat 3" in line or "no move could be played" in line for line in lines)
