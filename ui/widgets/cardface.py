"""How a card looks in a terminal: a small box with a label, a mark and a colour; or, where
rows are few (a phone's window), a word on one line.

Nothing depends on colour alone: every card's label and mark say what it is, and the selected
and the focused card carry symbols, so a monochrome terminal or a colour-blind player reads
the same table. ASCII mode swaps the box-drawing characters for + - |.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text

INNER = 3
CARD_WIDTH = INNER + 3
"""A card's columns with the space after it."""
CARD_HEIGHT = 5
"""A row of cards: four lines of box and the marker line under it."""


@dataclass(frozen=True)
class Look:
    label: str
    mark: str
    colour: str = ""
    name: str = ""
    short: str = ""
    """The card in one word, where its label and mark together would say more than is needed
    (Auf Achse's pips repeat its km); empty: the label and the mark, run together."""

    @property
    def word(self) -> str:
        return self.short or self.label.strip() + self.mark.strip()


@dataclass(frozen=True)
class Glyphs:
    tl: str
    tr: str
    bl: str
    br: str
    h: str
    v: str
    cursor: str
    selected: str


WORD_GAP = 1
"""The column before each card word: a space, or the cursor's bracket."""
WORD_MARK = 1
"""The column before the word itself: the selection's tick, or a dot for a card that cannot be
played."""

UNICODE = Glyphs("┌", "┐", "└", "┘", "─", "│", "▲", "✓")
ASCII = Glyphs("+", "+", "+", "+", "-", "|", "^", "*")
UNICODE_DOTTED = Glyphs("┌", "┐", "└", "┘", "┄", "┆", "▲", "✓")
ASCII_DOTTED = Glyphs(".", ".", "'", "'", ".", ":", "^", "*")
"""The frame of a card that cannot be played, where a faint frame cannot be seen."""


def glyphs(ascii_mode: bool, *, dotted: bool = False) -> Glyphs:
    if dotted:
        return ASCII_DOTTED if ascii_mode else UNICODE_DOTTED
    return ASCII if ascii_mode else UNICODE


def boxes(
    looks: Sequence[Look],
    *,
    ascii_mode: bool,
    cursor: int | None = None,
    selected: frozenset[int] = frozenset(),
    dimmed: frozenset[int] = frozenset(),
    per_row: int = 11,
    numbers: Mapping[int, int] | None = None,
    faint: bool = True,
) -> Text:
    """Cards side by side (wrapping after `per_row`), with a marker line under each row.

    A selected card shows a tick in its top edge, or its number from `numbers` (index: 1, 2...)
    where the order of the selection matters. A card that cannot be played (`dimmed`) has a
    faint frame; without `faint` (no colour, or a plain terminal, where a faint frame is
    drawn black on black) a dotted one.
    """
    plain, dotted = glyphs(ascii_mode), glyphs(ascii_mode, dotted=True)
    out = Text()
    rows = [range(i, min(i + per_row, len(looks))) for i in range(0, len(looks), per_row)] or [
        range(0)
    ]
    for r, row in enumerate(rows):
        lines = [Text(), Text(), Text(), Text(), Text()]
        for i in row:
            look = looks[i]
            face = Style.parse(look.colour) if look.colour else Style()
            if i == cursor:
                face += Style(reverse=True)
            # A card that cannot be played has a faint frame; its face keeps its colour (a
            # faint colour is a blend that a 16-colour terminal may show as another colour).
            frame = face + Style(dim=True) if i in dimmed and faint else face
            g = dotted if i in dimmed and not faint else plain
            top = g.h * INNER
            if i in selected:
                mark = (str(numbers[i]) if numbers and i in numbers else g.selected)[: INNER - 1]
                top = g.h + mark + g.h * (INNER - 1 - len(mark))
            lines[0].append(g.tl + top + g.tr, frame)
            for n, text in (
                (1, look.label[:INNER].rjust(INNER)),
                (2, look.mark[:INNER].ljust(INNER)),
            ):
                lines[n].append(g.v, frame)
                lines[n].append(text, face)
                lines[n].append(g.v, frame)
            lines[3].append(g.bl + g.h * INNER + g.br, frame)
            lines[4].append(("  " + plain.cursor + "  ") if i == cursor else "     ")
            for line in lines:
                line.append(" ")
        for n, line in enumerate(lines):
            out.append_text(line)
            if n < len(lines) - 1 or r < len(rows) - 1:
                out.append("\n")
    return out


def word_width(looks: Sequence[Look]) -> int:
    """The columns of each card in `words` (all the same, so cards line up row under row)."""
    return WORD_GAP + WORD_MARK + max((len(look.word) for look in looks), default=1)


def words(
    looks: Sequence[Look],
    *,
    ascii_mode: bool,
    cursor: int | None = None,
    selected: frozenset[int] = frozenset(),
    dimmed: frozenset[int] = frozenset(),
    per_row: int = 11,
) -> Text:
    """Cards as words side by side, one line per row of cards: `[ 12•2] ·40•1  ✓FIN•3`.

    The card under the cursor is bracketed (and reversed); before each word, a selected card
    shows a tick, and a card that cannot be played a dot (a faint word would be a colour
    blend, which some terminals show as another colour). The order of a selection is not
    shown: a number before a number ("1120") would read as one (the prompt says the order)."""
    g = glyphs(ascii_mode)
    wide = word_width(looks) - WORD_GAP - WORD_MARK
    dot = "." if ascii_mode else "·"
    out = Text()
    rows = [range(i, min(i + per_row, len(looks))) for i in range(0, len(looks), per_row)]
    for r, row in enumerate(rows):
        line = Text()
        for i in row:
            look = looks[i]
            face = Style.parse(look.colour) if look.colour else Style()
            if i == cursor:
                face += Style(reverse=True)
            line.append("[" if i == cursor else "]" if i - 1 == cursor and i != row[0] else " ")
            mark = g.selected if i in selected else dot if i in dimmed else ""
            # The mark right before its word, the room of a shorter word before both.
            pad = " " * (wide - len(look.word) + WORD_MARK - len(mark[:WORD_MARK]))
            line.append(pad + mark[:WORD_MARK], face if i == cursor else Style())
            line.append(look.word, face)
        line.append("]" if cursor == row[-1] else " ")
        out.append_text(line)
        if r < len(rows) - 1:
            out.append("\n")
    return out
