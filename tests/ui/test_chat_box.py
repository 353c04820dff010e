"""The chat beside the table: what you type shows while you type it, at every size."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult

from tests.ui.pilots import burst, screen_text, seeded, start_practice, wait_until
from ui.app import make_app
from ui.user_settings import UserSettings
from ui.widgets.chat import ChatBox


class OneChat(App[None]):
    """The chat box alone, as the lobby and the game screens hold it."""

    def compose(self) -> ComposeResult:
        yield ChatBox(id="chat")


@pytest.mark.parametrize("size", [(80, 24), (60, 20), (160, 48)])
async def test_the_text_being_typed_is_on_screen(size: tuple[int, int]) -> None:
    app = OneChat()
    async with app.run_test(size=size) as pilot:
        app.query_one("#chat-input").focus()
        await burst(pilot, *"hello there")
        assert "hello there" in screen_text(app)


async def test_the_text_being_typed_is_on_the_game_screen() -> None:
    app: Any = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(1), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        await pilot.press("c")
        await burst(pilot, *"gg all")
        assert "gg all" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert "Ann: gg all" in screen_text(app)


async def test_c_and_a_line_in_one_burst_all_go_to_the_chat() -> None:
    """c, the words and enter in one burst: every letter is the chat's (h is not a hint, r
    not a rest), and an arrow right after enter is the hand's again."""
    app: Any = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(1), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        screen = app.screen
        hand = screen.query_one("#hand")
        await pilot.press("home")
        await burst(pilot, "c", *"hi there", "enter", "right")
        await wait_until(pilot, lambda: "Ann: hi there" in screen_text(app), seconds=5)
        assert hand.cursor == 1
        assert not screen.message


async def test_a_spectator_s_line_names_them_and_cannot_pass_for_the_table_s_notice() -> None:
    """A spectator's chat (seat nil) is said by someone, like any chat; written in the notice
    style it let a watcher forge "* Ann is away..." in every player's chat."""
    from protocol.client import ChatLine, TableSays
    from ui.session import SessionNotice

    app: Any = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(1), bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        forged = "Bot 2 is back"
        app.screen.post_message(SessionNotice(ChatLine(None, "Cor", forged)))
        app.screen.post_message(SessionNotice(TableSays("away", {"seat": 2, "name": "Bot 3"})))
        await pilot.pause(0.2)
        text = screen_text(app)
    assert f"Cor (watching): {forged}" in text
    assert f"* {forged}" not in text
    assert "* Bot 3 has lost the connection" in text, "the table's own notice keeps its style"
