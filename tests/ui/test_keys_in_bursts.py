"""Keys typed faster than the screens change still land where the player meant them."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input

from tests.ui.bursts import burst
from tests.ui.pilots import wait_until
from ui.app import make_app
from ui.user_settings import UserSettings


def app() -> Any:
    return make_app(settings=UserSettings(name="Ann"), ascii_mode=False)


async def test_an_address_typed_right_after_j_lands_in_the_address_field() -> None:
    async with app().run_test(size=(80, 24)) as pilot:
        await burst(pilot, "j", "192.0.2.7:5000")
        await wait_until(pilot, lambda: type(pilot.app.screen).__name__ == "JoinScreen")
        await pilot.pause(0.3)
        assert pilot.app.screen.query_one("#address", Input).value == "192.0.2.7:5000"


async def test_escape_then_a_letter_in_one_read_is_escape_then_that_letter() -> None:
    async with app().run_test(size=(80, 24)) as pilot:
        await burst(pilot, "r")
        await wait_until(pilot, lambda: type(pilot.app.screen).__name__ == "RulesPicker")
        await burst(pilot, "escape", "j")
        await wait_until(pilot, lambda: type(pilot.app.screen).__name__ == "JoinScreen")


async def test_a_whole_form_typed_in_one_burst_fills_every_field() -> None:
    async with app().run_test(size=(80, 24)) as pilot:
        await burst(pilot, "j", "192.0.2.7", "tab", *["backspace"] * 3, "Zoe", "tab", "secret")
        await wait_until(pilot, lambda: type(pilot.app.screen).__name__ == "JoinScreen")
        await pilot.pause(0.3)
        screen = pilot.app.screen
        assert screen.query_one("#address", Input).value == "192.0.2.7"
        assert screen.query_one("#name", Input).value == "Zoe"
        assert screen.query_one("#password", Input).value == "secret"
