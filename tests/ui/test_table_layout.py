"""The game screen at the sizes people use: too small says so, wide uses the width, the log
scrolls with page keys and says so, and the mouse picks and plays cards."""

from __future__ import annotations

import re
from typing import Any

import pytest
from textual.widgets import RichLog

from tests.ui.pilots import screen_text, seeded, start_practice, wait_for_turn, wait_until
from ui import i18n
from ui.app import make_app
from ui.i18n import _
from ui.user_settings import UserSettings
from ui.widgets.hand import Hand


def new_app() -> Any:
    return make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(1), bot_delay=0)


async def test_a_window_too_small_says_how_big_it_must_be_and_the_table_comes_back() -> None:
    app = new_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        await pilot.pause(0.2)
        assert "Day 1 of 4" in screen_text(app), "60x20 is a phone's landscape: the table shows"
        await pilot.resize_terminal(39, 24)
        await pilot.pause(0.3)
        text = " ".join(screen_text(app).split())  # (the notice wraps in 39 columns)
        assert "This window is 39\u00d724: make it at least 40\u00d720" in text
        assert "Day 1 of 4" not in text
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.3)
        text = screen_text(app)
        assert "at least" not in text
        assert "Day 1 of 4" in text


async def test_a_table_too_small_to_see_takes_no_move_and_comes_back_whole() -> None:
    """While the window hides the table, its keys neither act nor show (a move made blind);
    back at size, the hand has its cursor and the log lines written meanwhile their width."""
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 2)
        client = app.screen.session.client
        await wait_for_turn(pilot, client)
        await pilot.resize_terminal(70, 19)
        await pilot.pause(0.3)
        # A move on its way when the window shrank: the bot's answer is logged while hidden.
        rest = next(a for a in client.legal_actions() if "rest" in repr(a).lower())
        before = client.seq
        await client.act(rest)
        await wait_until(pilot, lambda: client.seq >= before + 2 and client.my_turn)
        await pilot.pause(0.3)
        seq = client.seq
        footer = screen_text(app).splitlines()[-1]
        assert "Rest" not in footer and "Walk" not in footer and "Hint" not in footer, footer
        await pilot.press("r", "enter", "h")
        await pilot.pause(0.5)
        assert client.seq == seq and client.my_turn, "a key played on a table nobody saw"
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.5)
        text = screen_text(app)
        assert "▲" in text.splitlines()[-2], "the hand's cursor is drawn"
        assert "Rest" in text.splitlines()[-1]
        assert re.search(r"Bot 2 (walked|rested|laid)", text), text
        await pilot.press("r")
        await wait_until(pilot, lambda: client.seq > seq)


async def test_a_wide_window_gives_the_log_and_chat_the_room() -> None:
    app = new_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        await pilot.pause(0.2)
        assert app.screen.query_one("#right").size.width >= 60
        assert app.screen.query_one("#left").size.width >= 90


async def test_page_keys_scroll_the_log_and_the_screen_says_so() -> None:
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        client = app.screen.client
        log = app.screen.query_one("#log", RichLog)
        assert "pgup/pgdn" in screen_text(app)
        for _turn in range(12):
            await wait_for_turn(pilot, client)
            seq = client.seq
            await pilot.press("r")
            await wait_until(pilot, lambda s=seq: client.seq > s)
            if log.max_scroll_y > 4:
                break
        await pilot.pause(0.2)
        assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y
        await pilot.press("pageup")
        await pilot.pause(0.1)
        assert log.scroll_y < log.max_scroll_y
        await pilot.press("pagedown")
        await pilot.pause(0.1)
        assert log.scroll_y == log.max_scroll_y


async def test_a_click_picks_a_card_and_a_second_click_plays_it() -> None:
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "auf-achse", 3)
        client = app.screen.client
        await wait_for_turn(pilot, client)
        hand = app.screen.query_one(Hand)
        await pilot.press("home")
        third = hand.cards[2]
        # the hand's padding is one column; each card is five columns and a space
        await pilot.click("#hand", offset=(1 + 2 * 6 + 2, 1))
        assert hand.cursor == 2 and client.seq == client.seq
        assert not [e for e in client.log if e["kind"] == "run_chosen" and "cards" in e]
        await pilot.click("#hand", offset=(1 + 2 * 6 + 2, 2))
        await wait_until(
            pilot, lambda: any(e["kind"] == "run_chosen" and "cards" in e for e in client.log)
        )
        chosen = next(e for e in client.log if e["kind"] == "run_chosen" and "cards" in e)
        assert chosen["cards"] == [third]


@pytest.mark.parametrize("language", ["fr", "nl"])
async def test_the_log_s_title_is_whole_at_80_columns_in_every_language(language: str) -> None:
    i18n.use(language)
    try:
        app = make_app(
            settings=UserSettings(name="Ann", language=language),
            random_bytes=seeded(1),
            bot_delay=0,
        )
        async with app.run_test(size=(80, 24)) as pilot:
            await start_practice(pilot, "via-gladiola", 3)
            await pilot.pause(0.2)
            title = _("Log: pgup/pgdn scroll")
            text = screen_text(app)
    finally:
        i18n.use("en")
    assert title in text, text


async def test_a_long_message_leaves_the_prompt_and_its_keys_in_sight() -> None:
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        await wait_for_turn(pilot, app.screen.client)
        app.screen.say("Hint: walk with 33 (about 35% to win), and that is a long way to say it")
        await pilot.pause(0.2)
        text = " ".join(screen_text(app).split())
    assert "Your turn: enter walks the card; r rests (draw one)" in text, text


async def test_the_log_keeps_its_newest_line_in_sight_when_its_pane_grows_shorter() -> None:
    """A second row of status (a message before the prompt) or a shorter window takes rows
    from the log's pane: its newest line stays in sight, as long as nobody scrolled up."""
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        screen, client = app.screen, app.screen.client
        log = screen.query_one("#log", RichLog)
        for _turn in range(12):
            await wait_for_turn(pilot, client)
            seq = client.seq
            await pilot.press("r")
            await wait_until(pilot, lambda s=seq: client.seq > s)
            if log.max_scroll_y > 4:
                break
        await wait_for_turn(pilot, client)
        await pilot.pause(0.2)
        assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y
        height = log.size.height
        screen.say("Hint: walk with 33 (about 35% to win), and that is a long way to say it")
        await pilot.pause(0.2)
        assert screen.query_one("#status").size.height == 2 and log.size.height == height - 1
        assert log.scroll_y == log.max_scroll_y
        await pilot.resize_terminal(100, 32)  # wider: wrapped again, at the end
        await pilot.pause(0.2)
        assert log.scroll_y == log.max_scroll_y
        height = log.size.height
        await pilot.resize_terminal(100, 28)  # only shorter
        await pilot.pause(0.2)
        assert log.size.height == height - 4 and log.scroll_y == log.max_scroll_y
        await pilot.press("pageup")  # scrolled up: the log stays where it was put
        await pilot.pause(0.1)
        where = log.scroll_y
        assert where < log.max_scroll_y
        await pilot.resize_terminal(100, 26)
        await pilot.pause(0.2)
        assert log.scroll_y == where
        await pilot.press("pagedown", "pagedown", "pagedown")  # back at the end: it follows
        await pilot.resize_terminal(100, 24)
        await pilot.pause(0.2)
        assert log.scroll_y == log.max_scroll_y
