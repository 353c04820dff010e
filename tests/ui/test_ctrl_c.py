"""ctrl+c, a terminal user's first reflex, quits as ctrl+q does: at once from the menus, after
asking at a table (in the chat box too, where a field would take it for "copy"); `?` says so."""

from __future__ import annotations

from typing import Any

from tests.ui.bursts import burst
from tests.ui.pilots import screen_text, seeded, start_practice, wait_until
from ui.app import make_app
from ui.user_settings import UserSettings


def on(app: Any, name: str) -> bool:
    return type(app.screen).__name__ == name


async def test_ctrl_c_on_the_menu_quits() -> None:
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        await burst(pilot, "ctrl+c")
        await wait_until(pilot, lambda: app._exit)
    assert app.return_code == 0


async def test_ctrl_c_on_a_form_quits_too() -> None:
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "j")
        await wait_until(pilot, lambda: on(app, "JoinScreen"))
        await burst(pilot, "192.0.2.7", "ctrl+c")  # in a field, where Textual copies
        await wait_until(pilot, lambda: app._exit)


async def test_ctrl_c_at_a_table_asks_first_from_the_hand_and_from_the_chat() -> None:
    app: Any = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(1), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        table = app.screen
        await burst(pilot, "ctrl+c")
        await wait_until(pilot, lambda: on(app, "Confirm"))
        assert "Leave the table and quit?" in screen_text(app)
        await burst(pilot, "n")
        await wait_until(pilot, lambda: app.screen is table)
        await burst(pilot, "c", *"hi", "ctrl+c")
        await wait_until(pilot, lambda: on(app, "Confirm"))
        assert not app._exit, "asked, not quit"
        await burst(pilot, "ctrl+c")  # the same key again: yes, quit
        await wait_until(pilot, lambda: app._exit)


async def test_the_help_names_ctrl_c_beside_ctrl_q() -> None:
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        await burst(pilot, "?")
        await wait_until(pilot, lambda: on(app, "HelpScreen"))
        lines = [line for line in screen_text(app).splitlines() if "Quit" in line]
        assert any("^q" in line and "^c" in line for line in lines), lines
