"""Who sits where: names, cards in hand, score, whose turn, who is away."""

from __future__ import annotations

from dataclasses import dataclass

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from ui.i18n import _

NAME_ROOM = 16
"""A name's columns in the panel; a longer one is cut with an ellipsis (names never wrap)."""


def cut(name: str, room: int, ellipsis: str) -> str:
    return name if len(name) <= room else name[: room - len(ellipsis)] + ellipsis


@dataclass(frozen=True)
class PlayerRow:
    seat: int
    name: str
    cards: int | None
    score: str
    to_act: bool
    you: bool
    away: bool = False
    note: str = ""


class PlayersPanel(Static):
    """One line per seat; the seats asked to act are marked with an arrow, not only a colour."""

    DEFAULT_CSS = """
    PlayersPanel {
        height: auto;
    }
    """

    def __init__(self, *, ascii_mode: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ascii_mode = ascii_mode

    def show(self, rows: list[PlayerRow], score_title: str) -> None:
        table = Table.grid(padding=(0, 1))
        table.add_column(no_wrap=True)
        table.add_column(no_wrap=True)  # the name, with "(you)" kept whole after it
        table.add_column(no_wrap=True)
        table.add_column(no_wrap=True)
        table.add_column(overflow="fold")  # notes wrap between words
        ellipsis = "..." if self.ascii_mode else "…"
        arrow = ">" if self.ascii_mode else "▶"
        table.add_row(
            Text(" "), Text(_("player"), style="bold"), Text(_("cards"), style="bold"),
            Text(score_title, style="bold"), Text(""),
        )  # fmt: skip
        for row in rows:
            name = Text(cut(row.name, NAME_ROOM, ellipsis) + (_(" (you)") if row.you else ""))
            if row.you:
                name.stylize("bold")
            marks = []
            if row.away:
                marks.append(_("away"))
            if row.note:
                marks.append(row.note)
            table.add_row(
                Text(arrow if row.to_act else " ", style="bold yellow"),
                name,
                Text("" if row.cards is None else str(row.cards)),
                Text(row.score),
                Text(", ".join(marks), style="italic"),
            )
        self.update(table)
