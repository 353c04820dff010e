"""Whole games in a real terminal, against bots, with keys only and in bursts, as a person
plays them: the app is the `netcards` program itself in a pseudo-terminal, and each decision
is read from the screen the terminal shows (never from the app's insides).

Each title once, each in another terminal: Via Gladiola with --ascii and NO_COLOR=1,
Velonimo with TERM=xterm (16 colours: its seven colours must still be seven), Auf Achse at
160x48. Every move is one burst (the arrows to the card and the key that plays it); the
summaries between deals are closed with enter as they come; the results must be read
before a new game can start (a burst of enters leaves them on screen).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from tests.terminal.harness import Terminal

GO_ON = "Press enter to go on now."
RESULTS = "deal verified"
GAME_OVER = "Game over"


def open_table(
    home: Path,
    game: str,
    players: int,
    *extra: str,
    options: tuple[str, ...] = (),
    **kwargs: object,
) -> Terminal:
    """`netcards host` for a practice table: this player and bots that play at once; `extra`
    are the program's own arguments (`--ascii`), `options` the game's (`difficulties=1,2`)."""
    config = home / "config"
    config.mkdir(parents=True, exist_ok=True)
    (config / "settings.json").write_text(json.dumps({"name": "ann", "bot_delay": 0}))
    args = [*extra, "host", "--game", game, "--players", str(players)]
    args += ["--bots", str(players - 1), "--port", "0", "--discovery-port", "0"]
    for option in options:
        args += ["--option", option]
    return Terminal(home, *args, **kwargs)  # type: ignore[arg-type]


def status_line(screen: str, prompts: tuple[str, ...]) -> str:
    """The status line: the last line that starts with a prompt (the table above it may
    say the same words)."""
    lines = [line for line in screen.splitlines() if line.startswith(prompts)]
    return lines[-1] if lines else ""


def hand(screen: str, pattern: re.Pattern[str]) -> list[str]:
    """The labels of the hand's cards, left to right and row after row (the hand is below
    the status line); none while a dialog (a summary between stages) covers the status line."""
    lines = screen.splitlines()
    start = max(
        (i for i, line in enumerate(lines) if line.startswith((" Your", " ! ", " Beat", " You"))),
        default=len(lines),
    )
    return [m.group(1) for line in lines[start + 1 :] for m in pattern.finditer(line)]


def play(
    term: Terminal,
    prompts: tuple[str, ...],
    decide: Callable[[str], list[str]],
    *,
    moves: int = 2000,
    whole: Callable[[str], bool] = bool,
) -> int:
    """Decide and send one burst per decision, until the results; returns the moves made.
    A screen that is not `whole` yet (a summary half erased over the table) is read again."""
    made = 0
    waiting = (*prompts, GO_ON, RESULTS, GAME_OVER)
    for _ in range(moves):
        screen = term.wait_for(*waiting, seconds=60)
        if RESULTS in screen or GAME_OVER in screen:
            # The results may be half drawn over the table's last prompt: no more decisions.
            return made
        if GO_ON in screen:
            term.keys("enter")
            term.wait_until(lambda s: GO_ON not in s, seconds=10)
            continue
        if not whole(screen):
            term.pump(0.1)
            continue
        keys = decide(screen)
        term.keys(*keys)
        made += 1
        term.wait_until(lambda s, before=screen: s != before, seconds=10)
    raise AssertionError(f"no results after {moves} decisions:\n{term.text}")


def finish(term: Terminal) -> str:
    """The results stay through a burst of enters and spaces; m goes to the menu, ctrl+q
    quits."""
    results = term.wait_for(RESULTS)
    assert "Game over" in results
    term.keys("enter", "enter", "space", "enter")
    term.pump(0.5)
    assert "Game over" in term.text, term.text
    term.keys("m")
    term.wait_for("Practise")
    term.keys("ctrl+q")
    assert term.wait_exit() == 0
    return results


# -- Via Gladiola ------------------------------------------------------------------------------------

# A card's sides: a solid frame, or the dotted one of a card that cannot be played (ASCII and
# no colour); each card's index in the hand is the cursor's.
VG_CARD = re.compile(r"[│|┆:] *([0-9]{1,2}|FIN|GLA|S)[│|┆:]")
VG_PROMPTS = (" Your turn", " ! ")


def via_gladiola(screen: str) -> list[str]:
    """The lowest card that walks (from the 'From N:' line, within +15), a Gladiola on day
    4, else a rest."""
    cards = hand(screen, VG_CARD)
    top_line = re.search(r"From (\d+):", screen)
    top = int(top_line.group(1)) if top_line else 50
    day = int(re.search(r"Day (\d) of 4", screen).group(1))  # type: ignore[union-attr]

    def value(label: str) -> int:
        return 50 if label == "FIN" else int(label) if label.isdigit() else -1

    if " ! " in status_line(screen, VG_PROMPTS):
        return ["r"]  # the card was refused: rest
    walks = [i for i, c in enumerate(cards) if 0 < value(c) - top <= 15]
    if walks:
        index = min(walks, key=lambda i: value(cards[i]))
    elif day == 4 and "GLA" in cards:
        index = cards.index("GLA")
    else:
        return ["r"]
    return ["home", *["right"] * index, "enter"]


def test_via_gladiola_in_ascii_without_colour(tmp_path: Path) -> None:
    with open_table(tmp_path, "via-gladiola", 3, "--ascii", env={"NO_COLOR": "1"}) as term:
        screen = term.wait_for("Your turn", "Waiting for")
        assert screen.isascii(), screen
        moves = play(term, VG_PROMPTS, via_gladiola, whole=lambda s: "Day " in s)
        assert moves > 5
        assert term.text.isascii(), term.text
        for row in range(term.screen.lines):
            assert all(colour_is_grey(c) for c in term.colours(row)), row
        finish(term)


def colour_is_grey(colour: str) -> bool:
    """Without colour, the app draws in shades of grey only."""
    if colour in ("default", "black", "white", "brightblack", "brightwhite"):
        return True
    return bool(re.fullmatch(r"([0-9a-f]{2})\1\1", colour))


# -- Velonimo ------------------------------------------------------------------------------------------

VN_CARD = re.compile(r"[│|┆:] *(H?\d{1,2})[│|┆:]")
VN_FACE = re.compile(r"[│|┆:](R|O|Y|G|Bl|P|Br) *[│|┆:]")
VN_PROMPTS = (
    " You lead",
    " Beat ",
    " Your turtle",
    " Who leads",
    " Enter gives",
    " You won",
    " ! ",
)
SIXTEEN = {"default", *["black", "red", "green", "brown", "blue", "magenta", "cyan", "white"]}
SIXTEEN |= {"bright" + c for c in list(SIXTEEN)}


def velonimo(screen: str) -> list[str]:
    """Lead with the middle card of the hand, pass when there is an attack to beat, answer a
    seat question with its first digit, give back the card under the cursor."""
    line = status_line(screen, VN_PROMPTS)
    if "You lead" in line:
        cards = hand(screen, VN_CARD)
        return ["home", *["right"] * (len(cards) // 2), "enter"]
    if "Enter gives" in line:
        return ["enter"]
    digit = re.search(r"(?:from:|next attack\?|hand\?) .*?(\d) ", line) or re.search(
        r"Press (\d)", line
    )
    if digit is not None:
        return [digit.group(1)]
    return ["p"]


def faces(term: Terminal) -> dict[str, set[str]]:
    """Each colour letter on the hand's cards, with the colours the terminal was told."""
    seen: dict[str, set[str]] = {}
    for row, line in enumerate(term.text.splitlines()):
        for match in VN_FACE.finditer(line):
            colours = term.colours(row)[match.start(1) : match.end(1)]
            seen.setdefault(match.group(1), set()).update(colours)
    return seen


def test_velonimo_in_16_colours(tmp_path: Path) -> None:
    """TERM=xterm: the seven colours as seven of the 16 (letters and colours agree)."""
    env = {"TERM": "xterm"}
    with open_table(tmp_path, "velonimo", 3, env=env) as term:
        colours: dict[str, set[str]] = {}

        def decide(screen: str) -> list[str]:
            for letter, shown in faces(term).items():
                colours.setdefault(letter, set()).update(shown)
            return velonimo(screen)

        moves = play(term, VN_PROMPTS, decide)
        assert moves > 5
        assert len(colours) >= 5, colours
        for letter, shown in colours.items():
            assert len(shown) == 1 and shown <= SIXTEEN, (letter, shown)
        by_colour = [next(iter(shown)) for shown in colours.values()]
        assert len(set(by_colour)) == len(by_colour), colours
        finish(term)


# -- Auf Achse -------------------------------------------------------------------------------------------

AA_CARD = re.compile(r"[│|┆:] *(\d{1,3}|P|LF|LC|FR1|FR2)[│|┆:]")
AA_PROMPTS = (" Your run:", " Odometer:", " Free road", " 1st:", " ! ")


def auf_achse(screen: str) -> list[str]:
    """The third card to the run, the last to the odometer; a Completely free road the first
    two cards, a Free road the card under the cursor."""
    line = status_line(screen, AA_PROMPTS)
    cards = hand(screen, AA_CARD)
    if "Your run:" in line:
        return ["home", *["right"] * min(2, len(cards) - 1), "enter"]
    if "Odometer:" in line:
        return ["end", "enter"]
    if "space selects 2 cards" in line:
        return ["home", "space", "right", "space", "enter"]
    return ["enter"]


def test_auf_achse_at_160_by_48(tmp_path: Path) -> None:
    with open_table(tmp_path, "auf-achse", 3, size=(160, 48)) as term:
        screen = term.wait_for("Your run:", "Waiting for")
        log_edge = max(line.find("▏") for line in screen.splitlines())
        assert log_edge < 110, "the log and chat column takes the room of a wide window"
        moves = play(term, AA_PROMPTS, auf_achse)
        assert moves > 10
        results = finish(term)
        assert "km per stage" in results
