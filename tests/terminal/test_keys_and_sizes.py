"""In a real terminal, keys in bursts and windows of several sizes: the arrows then enter
lay the card the arrows reached, a chat line typed in the same burst as c reaches the chat
(and shows while it is typed), a window too small says so until it is made bigger."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.terminal.harness import Terminal
from tests.terminal.test_whole_games import AA_CARD, hand, open_table


def test_arrows_then_enter_in_one_burst_lay_the_card_reached(tmp_path: Path) -> None:
    with open_table(tmp_path, "auf-achse", 3) as term:
        # The prompt can be drawn a moment before the hand's cards: wait for both.
        screen = term.wait_until(
            lambda text: " Your run:" in text and len(hand(text, AA_CARD)) >= 3, what="the hand"
        )
        cards = hand(screen, AA_CARD)
        meant = cards[2]
        term.keys("home", "right", "right", "enter")
        name = f"{meant} km" if meant.isdigit() else None
        log = term.wait_for("You chose ")
        line = next(line for line in log.splitlines() if "You chose " in line)
        if name is not None:
            assert f"You chose {name} for your run" in line, line
        assert hand(term.text, AA_CARD).count(meant) == cards.count(meant) - 1


def test_c_and_a_line_in_one_burst_reach_the_chat(tmp_path: Path) -> None:
    with open_table(tmp_path, "via-gladiola", 3) as term:
        term.wait_for(" Your turn", "Waiting for")
        term.keys("c", *"hello there")
        typing = term.wait_for("hello there", seconds=5)
        assert "Thinking" not in typing, "h went to the table, not to the chat"
        term.keys("enter")
        term.wait_for("ann: hello there")


def test_a_bracketed_paste_and_a_tab_in_the_chat_are_text_typed_once(tmp_path: Path) -> None:
    """A paste as a terminal brackets it, in the same burst as c: its line break becomes a
    space and it is typed once (not "one twoone"); the tab after it is a space too, so the h
    after the tab is text, not a hint."""
    with open_table(tmp_path, "via-gladiola", 3) as term:
        term.wait_for(" Your turn", "Waiting for")
        term.keys("c", "\x1b[200~one\ntwo\x1b[201~", "tab", "h")
        typing = term.wait_for("one two h", seconds=5)
        assert "twoone" not in typing
        term.keys("enter")
        screen = term.wait_for("ann: one two h")
        assert "Thinking" not in screen and "Hint:" not in screen, "h went to the table"


@pytest.mark.parametrize("exported", [False, True], ids=["plain", "columns-exported"])
def test_a_window_too_small_says_so_until_it_is_made_bigger(tmp_path: Path, exported: bool) -> None:
    """Exported COLUMNS and LINES (a shell's, a test runner's) do not hide the window's real
    size: the app would lay out 80x24 in a 36x20 window, cut to pieces."""
    env = {"COLUMNS": "80", "LINES": "24"} if exported else {}
    with open_table(tmp_path, "via-gladiola", 3, size=(36, 20), env=env) as term:
        notice = "This window is 36\u00d720: make it at least 40\u00d720"
        screen = term.wait_until(lambda text: notice in " ".join(text.split()), what=notice)
        assert "Day 1 of 4" not in screen
        term.resize(80, 24)
        screen = term.wait_for("Day 1 of 4")
        assert "at least" not in screen


def test_ctrl_c_quits_from_the_menu_and_asks_first_at_a_table(tmp_path: Path) -> None:
    """In a real terminal ctrl+c reaches the app as a key (raw mode), not as SIGINT: the
    menu quits at once, with status 0; a table asks first, and ctrl+c again quits."""
    with Terminal(tmp_path / "menu") as term:
        term.wait_for("Practise against bots")
        term.keys("ctrl+c")
        assert term.wait_exit() == 0
    with open_table(tmp_path / "table", "via-gladiola", 3) as term:
        term.wait_for(" Your turn", "Waiting for")
        term.keys("ctrl+c")
        term.wait_for("Leave the table and quit?")
        term.keys("ctrl+c")
        assert term.wait_exit() == 0
