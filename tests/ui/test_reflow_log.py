"""The game log and the chat wrap their lines again when the terminal is resized."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult

from tests.ui.pilots import seeded, start_practice, wait_until
from ui.app import make_app
from ui.user_settings import UserSettings
from ui.widgets.chat import ChatBox
from ui.widgets.reflow_log import ReflowLog

LINE = "the rider in the polka-dot jersey attacks on the last climb of the day " * 2


class OneLog(App[None]):
    def compose(self) -> ComposeResult:
        yield ReflowLog(wrap=True, markup=True, min_width=10, id="log")


def widths(log: ReflowLog) -> list[int]:
    return [len(strip.text.rstrip()) for strip in log.lines]


async def test_lines_wrap_again_narrower_and_wider() -> None:
    app = OneLog()
    async with app.run_test(size=(40, 12)) as pilot:
        log = app.query_one(ReflowLog)
        log.write(LINE)
        log.write("short")
        await pilot.pause()
        narrow = len(log.lines)
        assert narrow >= 5 and max(widths(log)) <= 40
        await pilot.resize_terminal(160, 12)
        await wait_until(pilot, lambda: len(log.lines) == 3)  # 142 characters fold once at 160
        assert " ".join(s.text.strip() for s in log.lines) == f"{LINE.strip()} short"
        await pilot.resize_terminal(30, 12)
        await wait_until(pilot, lambda: len(log.lines) > narrow)
        assert max(widths(log)) <= 30
        assert log.lines[-1].text.strip() == "short"


async def test_a_cleared_log_stays_empty_after_a_resize() -> None:
    app = OneLog()
    async with app.run_test(size=(40, 12)) as pilot:
        log = app.query_one(ReflowLog)
        log.write(LINE)
        await pilot.pause()
        log.clear()
        log.write("after")
        await pilot.resize_terminal(100, 12)
        await pilot.pause()
        assert [s.text.strip() for s in log.lines] == ["after"]


async def test_the_game_log_and_chat_fit_a_wider_and_a_narrower_terminal() -> None:
    app: Any = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(3), bot_delay=0)
    async with app.run_test(size=(160, 48)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        screen = app.screen
        game_log = screen.query_one("#log", ReflowLog)
        chat = screen.query_one(ChatBox).query_one(ReflowLog)
        chat.write(LINE)
        await wait_until(pilot, lambda: len(game_log.lines) > 0)
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.2)
        for log in (game_log, chat):
            assert max(widths(log)) <= log.scrollable_content_region.width
        assert len(chat.lines) > 2  # the long line folds in the narrow column


class HiddenLog(App[None]):
    def compose(self) -> ComposeResult:
        log = ReflowLog(wrap=True, markup=True, min_width=10, id="log")
        log.display = False  # as the game's, in a window too small for the table
        yield log


async def test_lines_written_before_the_log_had_a_width_are_shown_once() -> None:
    """A game begun in a window too small for its table: the log, hidden, has no width yet, so
    RichLog keeps its lines back and writes them once it has one. Each line once, however
    often the log is wrapped again after."""
    app = HiddenLog()
    async with app.run_test(size=(40, 12)) as pilot:
        log = app.query_one(ReflowLog)
        for n in range(3):
            log.write(f"line {n}")
        await pilot.pause()
        log.display = True
        await pilot.pause()
        log.reflow()
        await pilot.resize_terminal(60, 12)
        await pilot.pause()
        log.write("line 3")
        await pilot.pause()
        assert [s.text.strip() for s in log.lines] == [f"line {n}" for n in range(4)]
