"""The game screen in a phone's window (see `ui.layout`): five players, the hand with its
cursor, the table, whose turn and the keys of the moment all in sight at 40x20; the log and
the chat behind `l` under 80 columns and beside the table from 80 (90x20, a landscape phone);
card words, the key bar on several lines, and names cut so that notes keep to their line."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Input

from tests.ui.pilots import screen_text, seeded, start_practice, wait_for_turn, wait_until
from ui.app import make_app
from ui.user_settings import UserSettings
from ui.widgets.cardface import Look, words
from ui.widgets.hand import Hand
from ui.widgets.keybar import KeyBar
from ui.widgets.players import NAME_ROOM, PlayerRow, PlayersPanel

TABLE_LINE = {"via-gladiola": "Day 1 of 4", "velonimo": "Round 1 of 5", "auf-achse": "Your run:"}
"""A line of each title's table that must be in sight (Auf Achse's: the player's own run)."""


def new_app() -> Any:
    return make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(3), bot_delay=0)


@pytest.mark.parametrize("game", ["via-gladiola", "velonimo", "auf-achse"])
async def test_five_players_the_table_the_hand_and_the_keys_fit_40_by_20(game: str) -> None:
    app = new_app()
    async with app.run_test(size=(40, 20)) as pilot:
        await start_practice(pilot, game, 5)
        screen = app.screen
        await wait_for_turn(pilot, screen.client)
        # The key bar is drawn again whenever the keys of the moment change: once it is.
        await wait_until(pilot, lambda: "esc Leave" in screen_text(app))
        text = screen_text(app)
        for name in ("Ann (you)", "Bot 2", "Bot 3", "Bot 4", "Bot 5"):
            assert name in text, text
        assert TABLE_LINE[game] in text, text
        assert re.search(r"\[[ ·✓]*\S+\]", text), "the card under the cursor, in brackets"
        assert screen.query_one(Hand).has_class("-words")
        assert not screen.query_one("#right").display, "the log is behind its key"
        assert "l Log" in text and "esc Leave" in text and "? Rules" in text, text
        prompt = " ".join(screen.prompt().split()[:3])
        assert prompt in " ".join(text.split()), (prompt, text)


async def test_l_shows_the_log_in_the_table_s_place_and_brings_the_table_back() -> None:
    app = new_app()
    async with app.run_test(size=(40, 20)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        screen = app.screen
        await wait_for_turn(pilot, screen.client)
        await pilot.press("l")
        await pilot.pause(0.2)
        text = screen_text(app)
        assert "Log: pgup/pgdn" in text and "Day 1 of 4" not in text
        assert re.search(r"Day 1 begins|walked|rested", text), text
        assert "l Table" in text and "l Log" not in text, "the key bar says how to go back"
        assert screen.query_one(Hand).has_focus, "the hand keeps the keys"
        await pilot.press("escape")  # back to the table, not the question to leave
        await pilot.pause(0.2)
        assert "Day 1 of 4" in screen_text(app) and app.screen is screen


async def test_c_opens_the_chat_in_a_narrow_window_and_escape_goes_back_to_the_table() -> None:
    app = new_app()
    async with app.run_test(size=(40, 20)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        screen = app.screen
        await pilot.press("c", *"hi all")
        await pilot.pause(0.2)
        assert screen.query_one("#chat-input", Input).value == "hi all"
        assert "hi all" in screen_text(app), "the line being typed is in sight"
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Ann: hi all" in screen_text(app))
        await pilot.press("escape")
        await pilot.pause(0.3)
        text = screen_text(app)
        assert "Day 1 of 4" in text and screen.query_one(Hand).has_focus
        assert "l Log" in text and "esc Leave" in text and "l Table" not in text, text


async def test_a_landscape_phone_keeps_the_log_beside_the_table() -> None:
    """90x20: wide enough for the log and the chat beside the table, too short for boxes."""
    app = new_app()
    async with app.run_test(size=(90, 20)) as pilot:
        await start_practice(pilot, "auf-achse", 5)
        screen = app.screen
        await wait_for_turn(pilot, screen.client)
        await pilot.pause(0.3)
        text = screen_text(app)
        assert screen.query_one("#right").display and "Log: pgup/pgdn" in text
        assert "Your run:" in text and "Bot 5" in text
        assert screen.query_one(Hand).has_class("-words") and "l Log" not in text


async def test_a_phone_held_upright_has_the_log_and_the_chat_under_the_table() -> None:
    """45x40: narrow, but with the rows for the log and the chat under the table: no key to
    them, and the chat box opens where it is."""
    app = new_app()
    async with app.run_test(size=(45, 40)) as pilot:
        await start_practice(pilot, "velonimo", 5)
        screen = app.screen
        await wait_for_turn(pilot, screen.client)
        await wait_until(pilot, lambda: "esc Leave" in screen_text(app))
        text = screen_text(app)
        lines = text.splitlines()
        table = next(i for i, line in enumerate(lines) if "Round 1 of 5" in line)
        log = next(i for i, line in enumerate(lines) if "Log: pgup/pgdn" in line)
        assert table < log, text
        assert "Bot 5" in text and "l Log" not in text, text
        await pilot.press("c", *"hey")
        await pilot.pause(0.2)
        text = screen_text(app)
        assert "hey" in text and "Round 1 of 5" in text, "the table stays in sight"


async def test_a_tall_narrow_window_has_the_rows_for_the_boxes() -> None:
    """50x30 (a portrait phone held tall): the hand's boxes fit in the rows the compact layout
    leaves, so they stay."""
    app = new_app()
    async with app.run_test(size=(50, 30)) as pilot:
        await start_practice(pilot, "via-gladiola", 2)
        await pilot.pause(0.3)
        assert not app.screen.query_one(Hand).has_class("-words")
        assert "┌───┐" in screen_text(app)


def test_card_words_bracket_the_cursor_and_mark_what_cannot_be_played_or_is_selected() -> None:
    looks = [Look("5", "R"), Look("12", "•2"), Look("H30", ""), Look("70", "••", short="70")]
    drawn = words(
        looks, ascii_mode=False, cursor=1, selected=frozenset({2}), dimmed=frozenset({3}),
        per_row=3,
    ).plain  # fmt: skip
    first, second = drawn.split("\n")
    assert first == "    5R[ 12•2] ✓H30 "
    assert second == "   ·70 "
    # ASCII: a star for the tick, a full stop for the dot.
    drawn = words(looks[:2], ascii_mode=True, selected=frozenset({1}), dimmed=frozenset({0}))
    assert drawn.plain == "   .5R *12•2 "


def test_a_narrow_panel_cuts_names_for_the_notes_and_keeps_you_whole() -> None:
    rows = [
        PlayerRow(0, "Alexandra-Marguerite", 12, "30", True, True, False, "run 3"),
        PlayerRow(1, "Heuristic bot 2", 3, "45", False, False, True, "a bot plays"),
    ]
    panel = PlayersPanel()
    room = panel.name_room(rows, "km", 44, " (you)")
    # arrow, name and "(you)", cards, score, notes ("away, a bot plays"), a space between
    assert 1 + room + len(" (you)") + len("cards") + len("km") + len("away, a bot plays") + 4 == 44
    assert panel.name_room(rows, "km", 80, " (you)") == NAME_ROOM
    # No room would do (the notes wrap then, the names keeping half of theirs).
    assert panel.name_room(rows, "km", 30, " (you)") is None


def test_a_panel_too_narrow_for_the_shortest_names_drops_the_scores_detail_not_a_line() -> None:
    """Auf Achse's "640 (+190)" beside "root (you)" and a clock's note took more than a phone's
    38 columns: every seat's notes wrapped to a second line (ten lines for five players). The
    scores lose their detail first; each seat keeps one line."""
    from rich.console import Console

    rows = [
        PlayerRow(0, "root", 8, "120 (+50)", True, True, False, "run 2, 15s left", "120"),
        PlayerRow(1, "Bob", 6, "130 (+70)", False, False, False, "run 2", "130"),
        PlayerRow(2, "Bot 3", 6, "640 (+190)", False, False, False, "run 2", "640"),
    ]
    panel = PlayersPanel()

    def drawn(width: int, shown: list[PlayerRow]) -> list[str]:
        console = Console(width=width, color_system=None, legacy_windows=False)
        with console.capture() as capture:
            console.print(panel.table(shown, "km", width))
        return [line.rstrip() for line in capture.get().splitlines()]

    lines = drawn(38, rows)
    assert len(lines) == 4, lines  # the header and a line a seat
    assert "(+190)" not in "\n".join(lines) and "640" in lines[3], lines
    assert lines[1].split()[-3:] == ["2,", "15s", "left"] and "root (you)" in lines[1], lines
    # Wide enough, the detail stays.
    assert "640 (+190)" in "\n".join(drawn(60, rows))
    # A title without a brief score wraps its notes as before.
    plain = [dataclasses.replace(r, brief=None) for r in rows]
    assert len(drawn(38, plain)) > 4


class Keys(App[None]):
    BINDINGS = [(k, f"press('{k}')", f"Key number {k}") for k in "abcdefgh"]

    def action_press(self, key: str) -> None:
        self.bell()

    def compose(self) -> ComposeResult:
        yield KeyBar()


async def test_the_key_bar_goes_on_another_line_rather_than_past_the_edge() -> None:
    app = Keys()
    async with app.run_test(size=(40, 10)) as pilot:

        def bar() -> str:
            return " ".join(screen_text(app).splitlines()[-4:])  # two keys a line

        await wait_until(pilot, lambda: "h Key number h" in bar(), 10)  # drawn, under load too
        for key in "abcdefgh":
            assert f"{key} Key number {key}" in bar(), bar()
        await pilot.resize_terminal(160, 10)

        def one_line() -> bool:
            last = screen_text(app).splitlines()[-1]
            return all(f"{k} Key number {k}" in last for k in "abcdefgh")

        await wait_until(pilot, one_line, 10)


@pytest.mark.parametrize("size", [(40, 20), (50, 30)])
async def test_a_long_summary_scrolls_under_its_countdown_once_it_takes_keys(
    size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """More lines than the window has rows: the title and the countdown stay in sight, the
    lines scroll under them, but not with the arrows of the burst that ended the deal (the
    first moment's). The first moment is made long here and then ended by the test, as its
    timer would end it: a busy machine must not let it pass before the burst is handled."""
    from ui.screens import between_deals
    from ui.screens.between_deals import BetweenDeals

    monkeypatch.setattr(between_deals, "READING", 600.0)
    lines = [f"Seat {n}: {n} km" for n in range(1, 41)]
    app = new_app()
    async with app.run_test(size=size) as pilot:
        summary = BetweenDeals("Stage 1 is over", lines, seconds=900)
        await app.push_screen(summary)
        await pilot.press("down", "pagedown", "end")  # typed with the deal's last move
        await pilot.pause(0.1)
        text = screen_text(app)
        assert "Stage 1 is over" in text and "Next deal in" in text, text
        assert "Seat 1: 1 km" in text and "Seat 40: 40 km" not in text, text
        summary.opened -= 600.0  # the first moment is over: its timer's work, now
        summary.take_keys()
        await pilot.pause(0.1)
        await pilot.press("pagedown", "pagedown", "pagedown", "pagedown", "pagedown")
        await pilot.pause(0.2)
        text = screen_text(app)
        assert "Seat 40: 40 km" in text and "Seat 1: 1 km" not in text, text
        assert "Stage 1 is over" in text and "Next deal in" in text, text
        assert "Go on" in text.splitlines()[-1], "the key bar"
