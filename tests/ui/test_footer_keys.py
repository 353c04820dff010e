"""The footer offers only keys that do something for whoever looks at it: a watcher has no
player's keys, a replay only its own, and every key offered fits at 80 columns."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from netcards.table import Table
from tests.ui.pilots import screen_text, wait_until
from tests.ui.test_replay_screen import finished_replay
from tests.ui.test_spectator_and_clock import start_host
from ui.app import JoinPlan, make_app
from ui.i18n import _
from ui.replay import load_replay
from ui.user_settings import UserSettings

PLAYERS_KEYS = ("Hint", "Rest", "Walk", "Play", "Pass")


def footer(app: Any) -> str:
    return screen_text(app).splitlines()[-1]


def shown_keys(app: Any) -> list[str]:
    """The descriptions of the keys the footer is asked to show."""
    return [
        _(b.binding.description)
        for b in app.screen.active_bindings.values()
        if b.binding.show and b.binding.description
    ]


async def test_a_watcher_sees_no_players_keys() -> None:
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
            screen = app.screen
            await wait_until(pilot, lambda: len(screen.client.log) > 3)
            await pilot.pause(0.2)
            assert app.screen is screen
            line = footer(app)
            assert "Rules" in line and "Leave" in line
            for word in PLAYERS_KEYS:
                assert word not in line, line
    finally:
        await host.close()


async def test_a_replay_shows_its_own_keys_only_and_all_of_them_fit(tmp_path: Path) -> None:
    replay = load_replay(finished_replay(tmp_path))
    app = make_app(settings=UserSettings(name="Ann"), replay=replay)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        line = footer(app)
        for word in (*PLAYERS_KEYS, "Chat"):
            assert word not in line, line
        for description in shown_keys(app):
            assert description in line, (description, line)
