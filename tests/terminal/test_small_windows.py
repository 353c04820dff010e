"""Whole games in a phone's window, in a real terminal: every title practised against bots
from start to results at 40x20 (a portrait phone), 50x30 and 60x20 (a landscape one), with
keys only and in bursts, each decision read from the screen as the player reads it (the
compact layout: the hand as card words, the status over two or three rows).

Nothing may be cut off: the key bar names every key of the moment, on a second row rather
than past the window's edge, and the results and the summaries between deals are read and
closed with the keys they name.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.network.processes import host, wait_for
from tests.terminal.harness import Terminal
from tests.terminal.small_screens import (
    AA_BOX,
    AA_WORD,
    GAME_OVER,
    MARKS,
    RESULTS,
    VG_BOX,
    VG_WORD,
    VN_BOX,
    VN_WORD,
    hand,
    play,
    status,
)
from tests.terminal.test_whole_games import colour_is_grey, open_table

VG_PROMPTS = (" Your turn", " ! ")


def moved_on(screen: str) -> bool:
    """The table has gone on to a summary between deals or to the results meanwhile."""
    return "Go on" in screen or GAME_OVER in screen


VN_PROMPTS = (" You lead", " Beat ", " Your turtle", " Who leads", " Enter gives", " You won",
              " ! ")  # fmt: skip
AA_PROMPTS = (" Your run:", " Odometer:", " Free road", " Completely", " 1st:", " ! ")


def via_gladiola(screen: str) -> list[str]:
    """The lowest card that walks (from the 'From N:' line, within +15), a Gladiola on day 4,
    else a rest."""
    cards = [re.sub(r"[•b]\d$", "", c) for c in hand(screen, VG_WORD, VG_BOX)]
    top_line = re.search(r"From (\d+):", screen)
    top = int(top_line.group(1)) if top_line else 50
    day_line = re.search(r"Day (\d) of 4", screen)
    if day_line is None:  # a day's summary being drawn over the table: no key, read it again
        return []
    day = int(day_line.group(1))

    def value(label: str) -> int:
        return 50 if label == "FIN" else int(label) if label.isdigit() else -1

    if status(screen, VG_PROMPTS, VG_WORD).startswith("! "):
        return ["r"]  # the card was refused: rest
    walks = [i for i, c in enumerate(cards) if 0 < value(c) - top <= 15]
    if walks:
        index = min(walks, key=lambda i: value(cards[i]))
    elif day == 4 and "GLA" in cards:
        index = cards.index("GLA")
    else:
        return ["r"]
    return ["home", *["right"] * index, "enter"]


def velonimo(screen: str) -> list[str]:
    """Lead with the middle card, pass when there is an attack to beat, answer a seat question
    with its first digit, give back the card under the cursor."""
    line = status(screen, VN_PROMPTS, VN_WORD)
    if "You lead" in line:
        cards = hand(screen, VN_WORD, VN_BOX)
        return ["home", *["right"] * (len(cards) // 2), "enter"]
    if "Enter gives" in line:
        return ["enter"]
    digit = re.search(r"(?:from:|next attack\?|hand\?) .*?(\d) ", line) or re.search(
        r"Press (\d)", line
    )
    if digit is not None:
        return [digit.group(1)]
    return ["p"]


def auf_achse(screen: str) -> list[str]:
    """The third card to the run, the last to the odometer; a Completely free road the first
    two cards, a Free road the card under the cursor."""
    line = status(screen, AA_PROMPTS, AA_WORD)
    cards = hand(screen, AA_WORD, AA_BOX)
    if line.startswith("Your run:"):
        return ["home", *["right"] * min(2, len(cards) - 1), "enter"]
    if line.startswith("Odometer:"):
        return ["end", "enter"]
    if "space selects 2 cards" in line:
        return ["home", "space", "right", "space", "enter"]
    return ["enter"]


GAMES = {
    "via-gladiola": (VG_PROMPTS, via_gladiola, VG_WORD, VG_BOX, "Day "),
    "velonimo": (VN_PROMPTS, velonimo, VN_WORD, VN_BOX, "Round "),
    "auf-achse": (AA_PROMPTS, auf_achse, AA_WORD, AA_BOX, "Stage "),
}
LOOKS = {
    ("via-gladiola", (40, 20)): ("--ascii", "NO_COLOR"),
    ("velonimo", (40, 20)): ("--ascii",),
    ("auf-achse", (40, 20)): ("NO_COLOR",),
}
"""At 40x20 each title in ASCII, without colour, or both; the others in Unicode and colour."""


@pytest.mark.parametrize("size", [(40, 20), (50, 30), (60, 20)], ids=["40x20", "50x30", "60x20"])
@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_in_a_phone_s_window(tmp_path: Path, game: str, size: tuple[int, int]) -> None:
    """The fewest players each title takes (Velonimo's duel is a game of its own: three), and
    Velonimo's rounds two (its `difficulties` option), so that the nine games stay short."""
    prompts, decide, word, box, table = GAMES[game]
    looks = LOOKS.get((game, size), ())
    players = 3 if game == "velonimo" else 2
    options = ("difficulties=1,2",) if game == "velonimo" else ()
    env = {"NO_COLOR": "1"} if "NO_COLOR" in looks else {}
    flags = [f for f in looks if f.startswith("--")]
    columns, _rows = size

    def fits(screen: str) -> None:
        """The hand is in sight, and every key of the table on the key bar (the last one
        too), and under 80 columns the key to the log (the key bar is drawn again as the
        keys of the moment change: read once it is)."""
        assert hand(screen, word, box), screen
        if "--ascii" in looks:
            assert screen.isascii(), screen
        term.wait_until(lambda s: moved_on(s) or keys_shown(s), 5, "the table's keys")

    def keys_shown(screen: str) -> bool:
        return "esc Leave" in screen and ("l Log" in screen) == (columns < 80)

    with open_table(tmp_path, game, players, *flags, options=options, size=size, env=env) as term:
        moves = play(
            term,
            prompts,
            decide,
            seen=fits,
            whole=lambda s: table in s and bool(hand(s, word, box)),
        )
        assert moves > 3
        term.wait_for(GAME_OVER)
        # The deal's check comes under the scores: in a short window, a page down away.
        term.keys("pagedown", "pagedown")
        term.wait_until(lambda s: bool(RESULTS.search(s)) and "m Menu" in s, what="the check")
        if "NO_COLOR" in looks:
            for row in range(term.screen.lines):
                assert all(colour_is_grey(c) for c in term.colours(row)), row
        term.keys("m")
        term.wait_for("Practise")
        term.keys("ctrl+q")
        assert term.wait_exit() == 0


# -- a window resized mid-game ------------------------------------------------------------------

SELECTED = re.compile(r"┌─✓─┐")


def box_card(lines: list[str], row: int, start: int, end: int) -> str:
    """The card whose box's label row is `row`, between those columns: its label and its
    face's letters, as one word ('4R')."""
    label = re.findall(r"│ *(\S+)│", lines[row][start:end])[0]
    return label + re.findall(r"│(\S*) *│", lines[row + 1][start:end])[0]


def cursor_card(screen: str) -> str:
    """The card under the cursor: its word in brackets, or the box above the ▲."""
    words = re.search(rf"\[[{MARKS} ]*({VN_WORD})\]", screen)
    if words is not None:
        return words.group(1)
    lines = screen.splitlines()
    row = max(i for i, line in enumerate(lines) if "▲" in line)
    column = lines[row].index("▲")
    return box_card(lines, row - 3, column - 2, column + 3)


def selected_cards(screen: str) -> list[str]:
    """The cards ticked: in words, a tick before the word; in boxes, in the top edge."""
    found = re.findall(rf"✓({VN_WORD})", screen)
    lines = screen.splitlines()
    for row, line in enumerate(lines):
        for match in SELECTED.finditer(line):
            found.append(box_card(lines, row + 1, match.start(), match.end()))
    return found


def settled(term: Terminal) -> str:
    """The screen once nothing has changed on it for a moment."""
    before = term.text
    while True:
        term.pump(0.3)
        if term.text == before:
            return before
        before = term.text


def log_side(screen: str) -> list[str]:
    """The log's lines beside the table (right of its edge)."""
    return [line.split("▏", 1)[1].strip() for line in screen.splitlines() if "▏" in line]


def test_a_window_resized_mid_game_loses_nothing(tmp_path: Path) -> None:
    """80x24, then a phone's 40x20 in portrait, then 90x20 in landscape, while it is our turn
    (nothing moves until we play): the card under the cursor, the selection, the line being
    typed in the chat and the log are the same in each layout; keys go on working."""
    options = ("difficulties=1", "first_player=1")
    with open_table(tmp_path, "velonimo", 3, options=options, size=(80, 24)) as term:
        term.wait_until(lambda s: status(s, VN_PROMPTS, VN_WORD).startswith(("Beat", "You lead")))
        term.keys("home", "right", "space", "right", "right")
        term.wait_until(lambda s: len(selected_cards(s)) == 1 and "▲" in s)
        wide = settled(term)  # the burst's last key drawn
        cursor, selected = cursor_card(wide), selected_cards(wide)
        newest = [line for line in log_side(wide) if line and "chat:" not in line][-1]
        term.keys("c", *"see you")  # (the hand shows no cursor while the chat has the keys)
        term.wait_for("see you")

        term.resize(40, 20)  # the chat stays open: the log and the chat in the table's place
        narrow = term.wait_until(lambda s: "see you" in s and "esc Close chat" in s)
        assert newest[:20] in narrow, narrow
        term.keys(*" soon", "escape")  # typed on, then back to the table
        narrow = term.wait_until(lambda s: "Round 1 of 1" in s and "l Log" in s)
        assert "see you" not in narrow
        assert cursor_card(narrow) == cursor and selected_cards(narrow) == selected, narrow
        term.keys("l")  # the log again, behind its key
        logged = term.wait_until(lambda s: "Log: pgup/pgdn" in s and "Round 1 of 1" not in s)
        assert newest[:20] in logged and "see you soon" in logged, logged
        term.keys("l")
        term.wait_for("Round 1 of 1")

        term.resize(90, 20)  # landscape: the log and the chat beside the table again
        landscape = term.wait_until(lambda s: "Round 1 of 1" in s and "see you soon" in s)
        assert newest[:20] in " ".join(log_side(landscape)), landscape
        assert cursor_card(landscape) == cursor and selected_cards(landscape) == selected
        term.keys("right")
        moved = term.wait_until(lambda s: cursor_card(s) != cursor)
        term.keys("c", "enter")  # the line typed at 80 columns and at 40 is sent whole
        term.wait_for("ann: see you soon")
        assert selected_cards(moved) == selected


# -- through the SSH door --------------------------------------------------------------------------

SSH_LINE = re.compile(r"^ssh (\S+):(\d+) fingerprint (SHA256:\S+)$", re.M)


@pytest.mark.skipif(shutil.which("ssh") is None, reason="the OpenSSH client is needed")
def test_a_whole_game_through_the_ssh_door_in_a_phone_s_window(tmp_path: Path) -> None:
    """A friend with nothing but `ssh` on a phone (40x20): the door's app takes their window's
    size from ssh, and the game is played to its results in the compact layout."""
    server, _port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "2", "--bots", "1", "--port", "0",
        "--ssh", "0",
    )  # fmt: skip
    try:
        wait_for(lambda: SSH_LINE.search(server.stdout()), 20, "the door's line")
        found = SSH_LINE.search(server.stdout())
        assert found is not None
        ssh = [
            "ssh", "-F", "/dev/null", "-o", f"UserKnownHostsFile={tmp_path / 'known_hosts'}",
            "-o", "GlobalKnownHostsFile=/dev/null", "-o", "StrictHostKeyChecking=accept-new",
            "-o", "PubkeyAuthentication=no", "-o", "LogLevel=ERROR", "-tt",
            "-p", found.group(2), "ann@127.0.0.1",
        ]  # fmt: skip
        with Terminal(tmp_path, size=(40, 20), command=ssh) as term:
            # A whole app starts behind the door; its key bar, whole, once its keys are known.
            term.wait_until(lambda s: "ann (you)" in s and "r Ready" in s and "esc Leave" in s, 60)
            term.keys("r")

            def compact(screen: str) -> None:
                term.wait_until(lambda s: moved_on(s) or ("l Log" in s and "esc Leave" in s), 5)

            moves = play(
                term, VG_PROMPTS, via_gladiola, seen=compact,
                whole=lambda s: "Day " in s and bool(hand(s, VG_WORD, VG_BOX)),
            )  # fmt: skip
            assert moves > 3
            term.wait_for(GAME_OVER)
            term.keys("pagedown", "pagedown")
            term.wait_until(lambda s: bool(RESULTS.search(s)), what="the deal's check")
            term.keys("m")  # a guest's menu is the end of their session: ssh ends
            assert term.wait_exit(20) == 0
        assert server.wait(30) == 0, "the table's one game is over"
    finally:
        server.kill()
