"""Who sits where: names, cards in hand, score, whose turn, who is away."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from ui.i18n import _

NAME_ROOM = 16
"""A name's columns in the panel; a longer one is cut with an ellipsis (names never wrap)."""
LEAST_NAME_ROOM = 4
"""In a narrow panel names give their room to the notes, down to this many columns (if that is
not enough, the notes wrap)."""


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
    brief: str | None = None
    """The score without its detail ("430" for "430 (+160)"), for a panel too narrow for both
    beside the names and the notes."""


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

    def show(self, rows: list[PlayerRow], score_title: str, width: int | None = None) -> None:
        self.update(self.table(rows, score_title, width))

    def table(self, rows: list[PlayerRow], score_title: str, width: int | None = None) -> Table:
        """`width`: the panel is that narrow (a phone's window), and the names are cut so
        that each seat's notes (whose turn clock runs, who passed...) stay on its line; where
        even the shortest names leave too little room, the scores lose their detail first,
        and only then do the notes wrap."""
        you = _(" (you)")
        room = NAME_ROOM
        if width is not None:
            fits = self.name_room(rows, score_title, width, you)
            if fits is None and any(r.brief is not None for r in rows):
                rows = [dataclasses.replace(r, score=r.brief or r.score) for r in rows]
                fits = self.name_room(rows, score_title, width, you)
            room = NAME_ROOM // 2 if fits is None else fits  # (None: the notes wrap)
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
            name = Text(cut(row.name, room, ellipsis) + (you if row.you else ""))
            if row.you:
                name.stylize("bold")
            table.add_row(
                Text(arrow if row.to_act else " ", style="bold yellow"),
                name,
                Text("" if row.cards is None else str(row.cards)),
                Text(row.score),
                Text(self.marks(row), style="italic"),
            )
        return table

    @staticmethod
    def marks(row: PlayerRow) -> str:
        return ", ".join(([_("away")] if row.away else []) + ([row.note] if row.note else []))

    def name_room(
        self, rows: list[PlayerRow], score_title: str, width: int, you: str
    ) -> int | None:
        """The most columns a name may take in a panel `width` wide, the notes kept whole
        (None: not even `LEAST_NAME_ROOM`)."""
        cards = max([len(_("cards"))] + [len(str(r.cards)) for r in rows if r.cards is not None])
        score = max([len(score_title)] + [len(r.score) for r in rows])
        notes = max([0] + [len(self.marks(r)) for r in rows])
        # The arrow, the cards, the score, the notes, and a space between each two columns.
        left = width - (1 + cards + score + notes + 4)
        header = len(_("player"))
        for room in range(NAME_ROOM, LEAST_NAME_ROOM - 1, -1):
            names = [len(cut(r.name, room, "...")) + (len(you) if r.you else 0) for r in rows]
            if max([header, *names]) <= left:
                return room
        return None
