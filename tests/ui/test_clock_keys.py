"""The turn clock as a player meets it: the countdown in whole seconds, and a key typed for a
turn the clock's bot then played, handled late, is too late, never played on the next turn."""

from __future__ import annotations

import asyncio
import itertools
import math
import os
import re
from typing import Any

import pytest

import ui.keys
from netcards.table import Table
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from tests.ui.pilots import screen_text, wait_until
from ui.app import JoinPlan, make_app
from ui.user_settings import UserSettings
from ui.widgets.players import PlayersPanel


async def join_a_clocked_duel(pilot: Any, app: Any) -> Any:
    """Ann joins a two-seat Via Gladiola against a bot, takes her seat and is ready; her
    game screen once her first turn is on it."""
    await wait_until(pilot, lambda: type(app.screen).__name__ == "Confirm")
    await pilot.press("y")
    await wait_until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
    await wait_until(pilot, lambda: "Turn clock:" in screen_text(app))
    await pilot.press("r")
    await wait_until(pilot, lambda: type(app.screen).__name__ == "ViaGladiolaScreen")
    screen = app.screen
    await wait_until(pilot, lambda: screen.client.my_turn)
    await pilot.pause(0.1)  # drawn
    return screen


async def clocked_host(turn_clock: float) -> TableHost:
    table = Table.create(
        "via-gladiola", 2, {"first_player": 0}, name="Club", host_part=os.urandom(32)
    )
    table.add_bot("heuristic", 1)
    settings = HostSettings(turn_clock=turn_clock, bot_delay=0.05)
    host = TableHost(table, IdentityKey(bytes(range(32))), settings=settings)
    await host.start()
    return host


async def test_a_key_typed_for_a_turn_the_clock_then_played_is_too_late(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`r` is typed while Ann's turn is on the screen, but handled only after her clock ran out,
    its bot walked for her and the other bot played: her next turn is on the screen by then.
    The `r` was for the turn that is gone: nothing is sent, the status says too late; an `r`
    typed at the new turn rests at once."""
    monkeypatch.setattr(ui.keys, "STUCK_AFTER", 30.0)  # the key in flight holds the rest
    host = await clocked_host(1.5)
    app = make_app(settings=UserSettings(name="Ann"), join=JoinPlan(f"127.0.0.1:{host.port}"))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await join_a_clocked_duel(pilot, app)
            client = screen.client
            sent: list[tuple[int, Any]] = []
            act = client.act

            async def spy(action: Any) -> None:
                sent.append((client.seq, action))
                await act(action)

            client.act = spy
            typed_at = client.seq
            # A key still being handled (as a hint being thought out is) holds those behind it.
            held: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            screen.holds_keys = held
            await pilot.press("left")
            await pilot.press("r")
            assert app.keys.waiting, "the r waits behind the key in flight"
            await wait_until(
                pilot,
                lambda: client.seq >= typed_at + 2 and client.my_turn,
                seconds=15,
            )
            await pilot.pause(0.1)  # the next turn drawn
            assert client.moves.by_stand_in(typed_at + 1), "the clock's bot played Ann's turn"
            next_turn = client.seq
            held.set_result(None)
            await wait_until(pilot, lambda: not app.keys.waiting and not app.keys.busy)
            assert sent == [], "the r typed for the turn that is gone was sent for the next one"
            assert client.seq == next_turn and client.my_turn
            assert "too late" in screen_text(app)
            # A key typed at the turn now on the screen plays it.
            await pilot.press("r")
            await wait_until(pilot, lambda: bool(sent))
            assert [seq for seq, _ in sent] == [next_turn]
    finally:
        await host.close()


async def test_the_countdown_counts_whole_seconds_from_the_deadline() -> None:
    """Each drawing of the countdown says the whole seconds left, rounded up (1 for the last
    one, 0 only once it has run out), and the next drawing comes as that number changes."""
    host = await clocked_host(4.0)
    app = make_app(settings=UserSettings(name="Ann"), join=JoinPlan(f"127.0.0.1:{host.port}"))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await join_a_clocked_duel(pilot, app)
            client = screen.client
            loop = asyncio.get_running_loop()
            deadline = client.clock[client.seat]
            panel = screen.query_one(PlayersPanel)
            drawn: list[tuple[float, int]] = []
            show = panel.show

            def spy(rows: Any, title: str, width: int | None = None) -> None:
                mine = next(row for row in rows if row.seat == client.seat)
                found = re.search(r"(\d+)s left", mine.note)
                if found and client.clock.get(client.seat) == deadline:
                    drawn.append((loop.time(), int(found.group(1))))
                show(rows, title, width)

            panel.show = spy  # type: ignore[method-assign]
            # Something else draws the table half-way through a second: a hint asked for.
            await pilot.pause((deadline - loop.time() + 0.5) % 1.0)
            await pilot.press("h")
            await wait_until(pilot, lambda: client.seq > 0 or loop.time() > deadline, 10)
            counts = [n for _, n in drawn]
            for at, shown in drawn:
                assert shown == max(0, math.ceil(deadline - at)), (shown, deadline - at, drawn)
            # Each number stays until the next whole second of the deadline, no longer (a
            # quarter of a second allowed for a busy machine).
            for (_, shown), (then, _) in itertools.pairwise(drawn):
                changes_at = deadline - (shown - 1)
                assert then <= changes_at + 0.25, (shown, then - changes_at, drawn)
            assert 0 not in counts[:-1] and all(n >= 1 for at, n in drawn if at < deadline)
            assert {3, 2, 1} <= set(counts), counts
    finally:
        await host.close()
