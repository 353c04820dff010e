"""A player who comes back while a stand-in plays their seat takes it over, and the house's bots
play on: a bot's answer to a decision that is no longer its own is dropped, never played, and
never stops the bots. In process, with real clients on loopback; the moments are arranged."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from netcards.table import Table
from protocol.client import Failed, HostRefused, SeatTaken, TableClient
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts

GAMES = ["via-gladiola", "velonimo", "auf-achse"]


async def play(
    client: TableClient, rng: random.Random, stop: Callable[[TableClient], bool] | None = None
) -> None:
    """Answer each decision of `client` with a legal move, until the game is checked or, when
    asked to act, `stop(client)` holds."""
    while client.verdict is None:
        notice = await asyncio.wait_for(client.updates.get(), 30)
        if isinstance(notice, SeatTaken) and not notice.resumed:
            await client.set_ready(True)
        assert not isinstance(notice, Failed), notice.reason
        assert not isinstance(notice, HostRefused), f"{notice.code}: {notice.text}"
        if client.my_turn and client.verdict is None:
            if stop is not None and stop(client):
                return
            await client.act(rng.choice(client.legal_actions()))


async def until(what: str, condition: Callable[[], bool], timeout: float = 30) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.005)


def asked_bot_moves(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, bool]]:
    """(seat, whether it was asked to act with some legal move) for every bot move the host
    asks the table for."""
    calls: list[tuple[int, bool]] = []
    original = Table.bot_move

    def spy(table: Table, seat: int, level: str | None = None) -> Callable[[], dict[str, Any]]:
        asked = (
            table.phase == "playing"
            and seat in table.to_act()
            and bool(table.game.legal_actions(table.state, seat))
        )
        calls.append((seat, asked))
        return original(table, seat) if level is None else original(table, seat, level)

    monkeypatch.setattr(Table, "bot_move", spy)
    return calls


async def dropped(runner: asyncio.Task[None]) -> None:
    """The player's program dies: its connection closes, nothing more is said."""
    runner.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await runner


def seated_against_a_house_bot(
    game: str, settings: HostSettings, lines: list[str] | None = None
) -> tuple[Table, TableHost]:
    table = Table.create(game, 2, {}, name="t", host_part=os.urandom(32))
    table.add_bot("heuristic", 1)
    log = lines.append if lines is not None else None
    return table, TableHost(table, IdentityKey.generate(os.urandom), settings=settings, log=log)


@pytest.mark.parametrize("game", GAMES)
async def test_a_player_back_during_the_stand_ins_pause_moves_and_the_house_bot_plays_on(
    tmp_path: Path, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = asked_bot_moves(monkeypatch)
    lines: list[str] = []
    table, server = seated_against_a_house_bot(game, HostSettings(grace=0.05, bot_delay=1.5), lines)
    port = await server.start()
    hosts = KnownHosts(tmp_path / "hosts")
    rng = random.Random(game)
    ann = TableClient(f"127.0.0.1:{port}", "Ann", hosts)
    runner = asyncio.create_task(ann.run())
    again: asyncio.Task[None] | None = None
    try:
        server.settings.bot_delay = 0.01
        await asyncio.wait_for(play(ann, rng, stop=lambda c: c.seq >= 3), 60)
        server.settings.bot_delay = 1.5  # the stand-in's pause, during which Ann comes back
        await dropped(runner)
        await until("the stand-in", lambda: table.seats[0].stand_in)
        assert 0 in table.to_act(), "the stand-in is asked Ann's decision, and pauses first"
        waiting_at = len(table.actions)
        back = TableClient(f"127.0.0.1:{port}", "Ann", hosts, token=ann.token, deal=ann.deal)
        again = asyncio.create_task(back.run())
        await asyncio.wait_for(play(back, rng, stop=lambda c: True), 30)
        assert not table.seats[0].stand_in
        assert len(table.actions) == waiting_at, "Ann is back before her stand-in moved"
        await back.act(rng.choice(back.legal_actions()))
        server.settings.bot_delay = 0.01
        await asyncio.wait_for(play(back, rng), 120)
        await asyncio.wait_for(server.finished.wait(), 10)
    finally:
        await dropped(runner)
        if again is not None:
            await dropped(again)
        await server.close()
    assert table.actions[waiting_at][0] == 0, "Ann's own move answered her decision"
    assert back.verdict is not None and back.verdict.ok, back.verdict
    assert back.outcome == table.outcome()
    assert asked and all(ok for _, ok in asked), f"a bot was asked out of turn: {asked}"
    assert not any("bot" in line and ("failed" in line or "error" in line) for line in lines)


async def test_a_stand_ins_answer_that_comes_after_the_player_is_back_is_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stand-in is still thinking when Ann comes back: the decision is hers again, and the
    bot's answer, when it comes, is not played in her name."""
    release = threading.Event()
    thinking = threading.Event()
    original = Table.bot_move

    def slow_stand_in(
        table: Table, seat: int, level: str | None = None
    ) -> Callable[[], dict[str, Any]]:
        think = original(table, seat) if level is None else original(table, seat, level)
        if not table.seats[seat].stand_in:
            return think

        def slowly() -> dict[str, Any]:
            thinking.set()
            release.wait(30)
            return think()

        return slowly

    monkeypatch.setattr(Table, "bot_move", slow_stand_in)
    table, server = seated_against_a_house_bot("via-gladiola", HostSettings(grace=0.05))
    port = await server.start()
    hosts = KnownHosts(tmp_path / "hosts")
    rng = random.Random(7)
    ann = TableClient(f"127.0.0.1:{port}", "Ann", hosts)
    runner = asyncio.create_task(ann.run())
    again: asyncio.Task[None] | None = None
    try:
        await asyncio.wait_for(play(ann, rng, stop=lambda c: c.seq >= 3), 60)
        await dropped(runner)
        await until("the stand-in to think", thinking.is_set)
        waiting_at = len(table.actions)
        back = TableClient(f"127.0.0.1:{port}", "Ann", hosts, token=ann.token, deal=ann.deal)
        again = asyncio.create_task(back.run())
        await asyncio.wait_for(play(back, rng, stop=lambda c: True), 30)
        release.set()
        await asyncio.sleep(0.3)  # the stand-in's answer is in
        assert len(table.actions) == waiting_at, "the stand-in's late answer was not played"
        await back.act(rng.choice(back.legal_actions()))
        await asyncio.wait_for(play(back, rng), 120)
        await asyncio.wait_for(server.finished.wait(), 10)
    finally:
        release.set()
        await dropped(runner)
        if again is not None:
            await dropped(again)
        await server.close()
    assert table.actions[waiting_at][0] == 0
    assert back.verdict is not None and back.verdict.ok, back.verdict
