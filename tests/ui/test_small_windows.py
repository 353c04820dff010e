"""A phone's window (40x20): the menu and every form, question, the lobby and the results are
usable there. Nothing runs off the right edge; what does not fit the rows scrolls, and the
keys that scroll it are there; the key bar takes a second row rather than hide a key."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from textual.widget import Widget

from tests.ui.bursts import burst
from tests.ui.pilots import screen_text, wait_until
from tests.ui.test_results_screen import finished_session
from ui import i18n
from ui.app import make_app
from ui.screens.confirm import Confirm
from ui.screens.results import ResultsScreen
from ui.session import TablePlan
from ui.user_settings import UserSettings

SMALL = (40, 20)


@pytest.fixture(autouse=True)
def _english_again() -> Iterator[None]:
    yield
    i18n.use("en")


def app_in(language: str = "en", **kwargs: Any) -> Any:
    i18n.use(language)
    return make_app(settings=UserSettings(name="Ann", language=language), **kwargs)


def on(app: Any, name: str) -> bool:
    return type(app.screen).__name__ == name


def flat(app: Any) -> str:
    """The screen's words as one line (a wrapped sentence joined again)."""
    return " ".join(screen_text(app).split())


def within_the_window(app: Any) -> list[str]:
    """The widgets shown on the screen on top that reach past the window's right edge."""
    width = app.size.width
    return [
        f"{type(widget).__name__}#{widget.id}: {widget.region}"
        for widget in app.screen.query(Widget)
        if widget.display and widget.region.width and widget.region.right > width
    ]


@pytest.mark.parametrize("language", ["en", "fr", "nl"])
async def test_the_menu_is_whole_at_40_by_20(language: str) -> None:
    from ui.screens.menu import ENTRIES

    app = app_in(language, ascii_mode=False)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause(0.2)
        text = screen_text(app)
        lines = text.splitlines()
        assert not within_the_window(app), within_the_window(app)
        box = [line for line in lines if line.startswith(("╭", "│", "╰"))]
        assert len(box) >= 9 and all(len(line) == 40 for line in box), text
        assert all(line.endswith(("╮", "│", "╯")) for line in box), "the right edge is there"
        inside = " ".join(" ".join(line.strip("│").split()) for line in box)
        for _key, _letter, label in ENTRIES:
            assert i18n._(label) in inside, label


@pytest.mark.parametrize("key", ["h", "p", "j", "s"])
async def test_each_form_s_fields_come_into_sight_by_tab_at_40_by_20(key: str) -> None:
    """Every field, reached with tab, is on the screen whole (the form scrolls to it)."""
    app = app_in("fr", ascii_mode=False)
    async with app.run_test(size=SMALL) as pilot:
        await burst(pilot, key)
        await wait_until(pilot, lambda: not on(app, "MenuScreen"))
        await pilot.pause(0.3)
        screen = app.screen
        seen = set()
        for _ in range(30):
            focused = screen.focused
            assert focused is not None
            if focused in seen:
                break
            seen.add(focused)
            await pilot.pause(0.05)
            region = focused.region
            assert region.x >= 0 and region.right <= 40, (focused, region)
            assert region.y >= 0 and region.bottom <= 20, (focused, region)
            assert not within_the_window(app), within_the_window(app)
            await pilot.press("tab")
        assert len(seen) >= 4


async def test_a_box_s_words_wrap_rather_than_run_off_at_40_columns() -> None:
    app = app_in("fr", ascii_mode=False)
    async with app.run_test(size=SMALL) as pilot:
        await burst(pilot, "s")
        await wait_until(pilot, lambda: on(app, "SettingsScreen"))
        await pilot.pause(0.3)
        assert "Mode ASCII (pour les terminaux sans bon Unicode)" in flat(app).replace(
            " ▎ ▊ ", " "
        ), screen_text(app)


async def test_a_question_s_answers_are_on_the_screen_at_40_by_20() -> None:
    app = app_in("fr", ascii_mode=False)
    async with app.run_test(size=SMALL) as pilot:
        question = i18n._(
            "You host this table: leaving closes it for the {n} others at it, "
            "and ends the game for them too. Close the table?"
        ).format(n=2)
        app.push_screen(Confirm(question, i18n._("Close the table"), i18n._("Stay"), loud=True))
        await pilot.pause(0.3)
        text = flat(app)
        assert f"{i18n._('Close the table')} (y)" in text and f"{i18n._('Stay')} (n)" in text
        assert not within_the_window(app), within_the_window(app)


async def test_a_long_notice_scrolls_and_its_button_stays_in_sight() -> None:
    from ui.screens.confirm import Notice

    app = app_in("en", ascii_mode=False)
    async with app.run_test(size=SMALL) as pilot:
        words = " ".join(f"word{n}" for n in range(120))
        app.push_screen(Notice(words, loud=True))
        await pilot.pause(0.3)
        assert "OK (enter)" in screen_text(app)
        assert "word0 " in screen_text(app) and "word119" not in screen_text(app)
        await pilot.press(*["pagedown"] * 10)
        await pilot.pause(0.2)
        assert "word119" in screen_text(app) and "OK (enter)" in screen_text(app)


async def test_the_lobby_at_40_by_20_shows_the_seats_first_and_every_key() -> None:
    """The seats and what the table waits for come first; page down brings the table's
    details (its fingerprint); the key bar takes two rows rather than hide the owner's keys."""
    plan = TablePlan("via-gladiola", 3, {}, bind="127.0.0.1", port=0, discovery=False, bots=1)
    app = app_in("en", ascii_mode=False, host=plan)
    async with app.run_test(size=SMALL) as pilot:
        await wait_until(pilot, lambda: on(app, "LobbyScreen"))
        await wait_until(pilot, lambda: "Bot 3" in screen_text(app), 10)
        await pilot.pause(0.3)
        lines = screen_text(app).splitlines()
        assert "seat" in lines[0] and "Ann (you)" in lines[1], lines
        assert "1 seat still open" in flat(app)
        bar = " ".join(lines[-2:])
        for key in ("Ready", "Add bot", "Bot level", "Remove bot", "Chat", "Leave"):
            assert key in bar, bar
        assert not within_the_window(app), within_the_window(app)
        assert "Host fingerprint" not in flat(app)
        await burst(pilot, "\x1b[6~", "\x1b[6~")  # page down, twice
        await wait_until(pilot, lambda: "Host fingerprint" in flat(app), 5)


async def test_the_results_at_40_by_20_scroll_to_the_deal_check() -> None:
    app = app_in("en", ascii_mode=False)
    async with app.run_test(size=SMALL) as pilot:
        await app.push_screen(ResultsScreen(finished_session("auf-achse", 5)))
        await pilot.pause(0.3)
        assert "Game over" in screen_text(app) and "winner" in screen_text(app)
        assert "deal verified" not in screen_text(app)
        assert not within_the_window(app), within_the_window(app)
        await pilot.press("pagedown", "pagedown", "pagedown")
        await pilot.pause(0.2)
        assert "deal verified" in flat(app) and "Game over" in screen_text(app)


@pytest.mark.parametrize("game", ["via-gladiola", "velonimo", "auf-achse"])
async def test_the_results_at_40_by_20_keep_every_column_whole(game: str) -> None:
    """Five players: each column's title, each name with "(you)" and the winner's word read
    whole (a frame around the columns cut "winner" and "blisters" short)."""
    from ui.games import screen_class

    app = app_in("en", ascii_mode=False)
    async with app.run_test(size=SMALL) as pilot:
        session = finished_session(game, 5)
        await app.push_screen(ResultsScreen(session))
        await pilot.pause(0.3)
        text = screen_text(app)
        score = i18n._(screen_class(game).score_title)
        header = next(line for line in text.splitlines() if "place" in line)
        assert header.split() == ["place", "player", score], text
        assert "Ann (you)" in text and "winner" in text and "…" not in text, text
        assert not within_the_window(app), within_the_window(app)
