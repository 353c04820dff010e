"""Reading the compact layout of a game screen (a window under 80x24) as a player reads it: the
status line's words (wrapped over two or three rows), the hand as a row of card words or of
boxes, the summary between two deals, the results.

A hand of words reads `[ 12•2] ·40•1  FIN•3`: brackets around the card under the cursor, a dot
before a card that cannot be played, a tick or a number before a selected one.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tests.terminal.harness import Terminal

VG_WORD = r"(?:\d{1,2}|FIN|GLA)[•b]\d|S"
VN_WORD = r"H\d{2}|\d(?:R|O|Y|G|Bl|P|Br)"
AA_WORD = r"\d{2,3}|P|LF|LC|FR1|FR2"
VG_BOX = r"\d{1,2}|FIN|GLA|S"
VN_BOX = r"H?\d{1,2}"
AA_BOX = r"\d{1,3}|P|LF|LC|FR1|FR2"
MARKS = "·.✓*12"
"""What may stand before a card word: not playable, selected, the order of a selection."""

NEXT_DEAL = re.compile(r"Next (?:day|round|stage) in \d+s\. +Press")
"""The summary between deals, once it takes enter (its words may wrap after "Press")."""
RESULTS = re.compile(r"deal\s+verified")
GAME_OVER = "Game over"


def words_of(line: str, word: str) -> list[str] | None:
    """The card words of a hand's line, or None when the line is not one (a status line's
    second row, the key bar)."""
    tokens = line.replace("[", " ").replace("]", " ").split()
    found = []
    for token in tokens:
        match = re.fullmatch(rf"[{MARKS}]?({word})", token)
        if match is None:
            return None
        found.append(match.group(1))
    return found or None


BOX_TOP = re.compile(r"┌[─┄✓0-9]{3}┐|\+[-*0-9]{3}\+|\.[.*0-9]{3}\.")


def hand(screen: str, word: str, box: str) -> list[str]:
    """The hand's cards, left to right and row after row: its word rows above the key bar, or
    (where the window has the rows for them) its boxes, the lowest lines of the screen."""
    lines = screen.splitlines()
    tops = [i for i, line in enumerate(lines) if BOX_TOP.search(line)]
    if tops:
        boxes = re.compile(rf"[│|┆:] *({box})[│|┆:]")
        return [m.group(1) for line in lines[tops[0] :] for m in boxes.finditer(line)]
    rows: list[list[str]] = []
    for line in reversed(lines):
        found = words_of(line, word)
        if found is None:
            if rows:
                break
            continue
        rows.insert(0, found)
    return [card for row in rows for card in row]


def status(screen: str, prompts: tuple[str, ...], word: str) -> str:
    """The status line from its first row (which starts with a prompt) to the hand, its rows
    joined."""
    lines = screen.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith(prompts)]
    if not starts:
        return ""
    block: list[str] = []
    for line in lines[starts[-1] :]:
        done = words_of(line, word) is not None or BOX_TOP.search(line) or line.startswith("? ")
        if block and done:
            break
        block.append(line.strip())
    return " ".join(block)


def play(
    term: Terminal,
    prompts: tuple[str, ...],
    decide: Callable[[str], list[str]],
    *,
    moves: int = 2000,
    seen: Callable[[str], None] = lambda screen: None,
    whole: Callable[[str], bool] = bool,
) -> int:
    """One burst of keys per decision, until the results; returns the decisions made. Each
    summary between deals is closed with enter as soon as it takes it; `seen` is shown every
    screen a decision is made on. A screen that is not `whole` yet (a summary half erased over
    the table) is read again."""
    made = 0
    for _ in range(moves):
        screen = term.wait_until(
            lambda s: (
                bool(NEXT_DEAL.search(s) or RESULTS.search(s) or GAME_OVER in s)
                or any(line.startswith(prompts) for line in s.splitlines())
            ),
            seconds=60,
            what="a decision, a summary or the results",
        )
        if RESULTS.search(screen) or GAME_OVER in screen:
            return made
        if NEXT_DEAL.search(screen):
            term.keys("enter")
            term.wait_until(lambda s: not NEXT_DEAL.search(s), seconds=10, what="the table")
            continue
        if not whole(screen):
            term.pump(0.05)
            continue
        seen(screen)
        term.keys(*decide(screen))
        made += 1
        term.wait_until(lambda s, before=screen: s != before, seconds=10)
    raise AssertionError(f"no results after {moves} decisions:\n{term.text}")
