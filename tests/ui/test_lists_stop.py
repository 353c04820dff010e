"""A burst of arrows in a list stops at its last (or first) entry: it never wraps around to
pick the entry at the other end (the first game, where the last was meant)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Select

from tests.ui.bursts import burst
from tests.ui.pilots import GAME_ORDER, wait_until
from ui.app import make_app
from ui.user_settings import UserSettings


def on(app: Any, name: str) -> bool:
    return type(app.screen).__name__ == name


async def test_one_down_too_many_in_the_game_list_stays_on_the_last_game() -> None:
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "h")
        await wait_until(pilot, lambda: on(app, "HostSetupScreen"))
        screen = app.screen
        await pilot.pause(0.2)
        assert screen.query_one("#game", Select).value == GAME_ORDER[0]
        # enter opens the list on the first game; one down more than there are games after it
        await burst(pilot, "enter", *["down"] * len(GAME_ORDER), "enter")
        await wait_until(pilot, lambda: screen.shown_game == GAME_ORDER[-1])
        assert screen.query_one("#game", Select).value == GAME_ORDER[-1]
        # and back up past the first: the first game, not the last
        await burst(pilot, "enter", *["up"] * (len(GAME_ORDER) + 2), "enter")
        await wait_until(pilot, lambda: screen.shown_game == GAME_ORDER[0])


async def test_the_players_list_stops_at_the_most_players() -> None:
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "p")
        await wait_until(pilot, lambda: on(app, "HostSetupScreen"))
        screen = app.screen
        await pilot.pause(0.2)
        players = screen.query_one("#players", Select)
        await burst(pilot, "tab", "enter", *["down"] * 8, "enter")
        await wait_until(pilot, lambda: players.value == 5)
        await pilot.pause(0.2)
        assert players.value == 5, "the most players, not the fewest after a wrap"


async def test_up_on_the_menu_s_first_entry_stays_there() -> None:
    """Wrapping, up on Host went to Quit, and enter quit the program."""
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        await burst(pilot, "up", "up", "enter")
        await wait_until(pilot, lambda: on(app, "HostSetupScreen"))
        assert app.is_running
