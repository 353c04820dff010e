"""Watching a table as a spectator, and the turn clock, through the app."""

from __future__ import annotations

import os
import re
from typing import Any

from netcards.table import Table
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from tests.ui.pilots import screen_text, wait_until
from ui.app import JoinPlan, make_app
from ui.user_settings import UserSettings


async def start_host(table: Table, **settings: Any) -> TableHost:
    host = TableHost(table, IdentityKey(bytes(range(32))), settings=HostSettings(**settings))
    await host.start()
    return host


async def test_a_spectator_sees_the_table_but_never_a_hand() -> None:
    table = Table.create("via-gladiola", 3, {}, name="Club", host_part=os.urandom(32))
    for seat in range(3):
        table.add_bot("heuristic", seat)
    host = await start_host(table, bot_delay=0.05)
    app = make_app(
        settings=UserSettings(name="Watcher"),
        join=JoinPlan(f"127.0.0.1:{host.port}", spectator=True),
    )
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: type(app.screen).__name__ == "Confirm")
            await pilot.press("y")
            await wait_until(pilot, lambda: type(app.screen).__name__ == "ViaGladiolaScreen")
            client = app.screen.client
            await wait_until(pilot, lambda: len(client.log) > 10)
            assert client.seat is None
            assert "hand" not in client.view
            assert all("cards" not in e for e in client.log if e["kind"] == "draw")
            assert app.screen.query_one("#hand").cards == []
            text = screen_text(app)
            assert "Watching" in text
            assert "(you)" not in text
            # and no player's key in the footer, where the watcher could not use it
            assert app.screen.check_action("hint", ()) is False
            footer = text.splitlines()[-1]
            assert "Rules" in footer and "Leave" in footer
            for word in ("Hint", "Rest", "Walk"):
                assert word not in footer, footer
    finally:
        await host.close()


async def test_the_turn_clock_counts_down_and_a_bot_plays_when_it_runs_out() -> None:
    table = Table.create(
        "via-gladiola", 2, {"first_player": 0}, name="Club", host_part=os.urandom(32)
    )
    table.add_bot("heuristic", 1)
    host = await start_host(table, turn_clock=4.0)
    app = make_app(settings=UserSettings(name="Ann"), join=JoinPlan(f"127.0.0.1:{host.port}"))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: type(app.screen).__name__ == "Confirm")
            await pilot.press("y")
            await wait_until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
            await wait_until(pilot, lambda: "Turn clock: 4 s" in screen_text(app))
            await pilot.press("r")
            await wait_until(pilot, lambda: type(app.screen).__name__ == "ViaGladiolaScreen")
            await wait_until(pilot, lambda: "s left" in screen_text(app))
            # The first turn's clock counts down too (its message came before the table was
            # on the screen).
            first = int(re.findall(r"(\d+)s left", screen_text(app))[0])
            await wait_until(
                pilot,
                lambda: any(int(n) < first for n in re.findall(r"(\d+)s left", screen_text(app))),
                3.5,
            )
            await wait_until(
                pilot,
                lambda: "* Your time ran out" in screen_text(app),
                10,
            )
            assert table.actions[0][0] == 0, "a bot played Ann's first turn"
            # and Ann's log says it was the bot's move, not hers
            await wait_until(pilot, lambda: "Your stand-in" in screen_text(app), 5)
            assert not re.search(r"You (walked|rested|laid)", screen_text(app))
    finally:
        await host.close()
