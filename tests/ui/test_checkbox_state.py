"""A checkbox says whether it is on in its text: with NO_COLOR or in ASCII mode its colour
says nothing, and an "X" drawn either way left the player guessing."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Checkbox, Select

from tests.ui.pilots import screen_text, wait_until
from ui.app import make_app
from ui.user_settings import UserSettings

BOXES = {True: ("[ ]", "[X]"), False: ("▐ ▌", "▐X▌")}
"""(off, on) as drawn with and without ASCII mode."""


def drawn(app: Any, label: str) -> str:
    """The three cells before `label` on the screen."""
    line = next(line for line in screen_text(app).splitlines() if label in line)
    start = line.index(label)
    return line[start - 4 : start - 1]


async def toggled_with_space(pilot: Any, box_id: str, label: str) -> tuple[str, str]:
    app = pilot.app
    assert app.screen.focused is not None and app.screen.focused.id == box_id
    before = drawn(app, label)
    await pilot.press("space")
    await pilot.pause(0.1)
    box = app.screen.query_one(f"#{box_id}", Checkbox)
    assert box.value is True
    return before, drawn(app, label)


@pytest.mark.parametrize("ascii_mode", [True, False])
async def test_the_join_form_s_spectator_box_is_empty_until_ticked(ascii_mode: bool) -> None:
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=ascii_mode)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("j")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "JoinScreen")
        for _ in range(6):
            if app.screen.focused is not None and app.screen.focused.id == "spectator":
                break
            await pilot.press("tab")
        label = "Watch as a spectator"
        assert await toggled_with_space(pilot, "spectator", label) == BOXES[ascii_mode]


@pytest.mark.parametrize("ascii_mode", [True, False])
async def test_the_host_form_s_variant_box_is_empty_until_ticked(ascii_mode: bool) -> None:
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=ascii_mode)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "HostSetupScreen")
        app.screen.query_one("#game", Select).value = "via-gladiola"
        await pilot.pause(0.3)
        app.screen.query_one("#opt-variant_last_card").focus()
        label = "Variant: the game ends"
        # The form scrolls the focused box into view: under load, not at once.
        await wait_until(pilot, lambda: label in screen_text(app))
        assert await toggled_with_space(pilot, "opt-variant_last_card", label) == BOXES[ascii_mode]
