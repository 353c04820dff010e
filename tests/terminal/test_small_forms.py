"""A phone's window (40x20) in a real terminal: the menu whole, a form, a question and the
help reached by keys in bursts, in ASCII, in French and without colour too."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.terminal.harness import Terminal


@pytest.mark.parametrize(
    ("args", "env", "words"),
    [
        ((), {}, ("Practise against bots", "Join a table", "Keys of this screen")),
        (("--ascii",), {"NO_COLOR": "1"}, ("Practise against bots", "Join a table", "Keys")),
        (("--lang", "fr"), {}, ("contre des bots", "Rejoindre une table", "Touches de cet")),
    ],
    ids=["unicode", "ascii-no-colour", "french"],
)
def test_the_menu_a_form_and_the_help_at_40_by_20(
    tmp_path: Path, args: tuple[str, ...], env: dict[str, str], words: tuple[str, str, str]
) -> None:
    menu, form, help_title = words
    with Terminal(tmp_path, *args, size=(40, 20), env=env) as term:
        screen = term.wait_for(menu)
        box = [line for line in screen.splitlines() if line.startswith(("|", "│", "+", "╭", "╰"))]
        assert len(box) >= 9, screen
        assert all(len(line) == 40 for line in box), "the menu's right edge is in the window"
        term.keys("j")
        term.wait_for(form)
        # the key bar, on the last row, names the key that joins (drawn a moment after)
        term.wait_until(lambda text: "^o" in text.splitlines()[-1], 10, "the key bar")
        term.keys("escape")
        term.wait_for(menu)
        term.keys("?")  # (apart: in one write, escape then ? reads as ? alone)
        screen = term.wait_for(help_title)
        edges = ("█", "▀", "▄", "|", "+")
        framed = [line for line in screen.splitlines() if line.startswith(edges)]
        assert len(framed) > 5 and all(line.endswith(edges) for line in framed), screen
        term.keys("escape", "ctrl+c")
        assert term.wait_exit() == 0
