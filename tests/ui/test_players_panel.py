"""The players panel at 80 columns: a name on one line (cut with an ellipsis if it must be,
never wrapped), '(you)' always shown, notes wrapped between words, never cut inside one."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from tests.ui.pilots import screen_text
from ui.widgets.players import PlayerRow, PlayersPanel

ROWS = [
    PlayerRow(0, "Alexandra-Marguerite Dupont", 12, "120 +30", True, True, False, "key 1, jersey, out #1"),
    PlayerRow(1, "Heuristic bot 2", 3, "45", False, False, True, "a bot plays, 12s left"),
    PlayerRow(2, "root", 9, "0", False, False, False, "run 3, chosen"),
]  # fmt: skip


class Panel(App[None]):
    def __init__(self, ascii_mode: bool) -> None:
        super().__init__()
        self.ascii_mode = ascii_mode

    def compose(self) -> ComposeResult:
        yield PlayersPanel(ascii_mode=self.ascii_mode, id="players")


@pytest.mark.parametrize("ascii_mode", [False, True], ids=["unicode", "ascii"])
async def test_names_stay_on_one_line_and_notes_break_between_words(ascii_mode: bool) -> None:
    app = Panel(ascii_mode)
    async with app.run_test(size=(48, 10)) as pilot:
        app.query_one(PlayersPanel).show(ROWS, "points")
        await pilot.pause()
        lines = screen_text(app).splitlines()
        first = next(line for line in lines if "Alexandra" in line)
        assert "(you)" in first and "12" in first
        assert not any("Dupont" in line for line in lines if line is not first)
        words = " ".join(lines).split()
        for row in ROWS:
            for word in row.note.replace(",", "").split():
                assert word in words or f"{word}," in words, (word, lines)
        assert "root" in " ".join(lines)
        if ascii_mode:
            assert all(line.isascii() for line in lines), lines
