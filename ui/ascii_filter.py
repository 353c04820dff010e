# ruff: noqa: RUF001  (the look-alike characters are this module's subject)
"""ASCII mode's last word: every line the app draws passes through one filter that leaves
nothing but ASCII on the screen, whatever a widget (ours or Textual's) or a translation chose.

Each character becomes ASCII of the same width in cells, so no layout moves: box drawing
becomes `-`, `|` and `+`, letters lose their accents (é -> e), arrows and marks their nearest
plain sign, anything else `?`. Screens still choose good ASCII glyphs themselves where it
matters (cards, keys); this is what makes the promise hold everywhere else.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from rich.cells import cell_len
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

SIGNS = {
    **dict.fromkeys("─━═╌╍┄┅┈┉╴╶╸╺▔▁▀▄", "-"),
    **dict.fromkeys("│┃║╎╏┆┇┊┋╵╷╹╻▏▕▎▍▌▋▊▉▐", "|"),
    **dict.fromkeys("┌┐└┘├┤┬┴┼╭╮╯╰┏┓┗┛┣┫┳┻╋╔╗╚╝╠╣╦╩╬┍┑┕┙┝┥┯┷┿", "+"),
    **dict.fromkeys("█▇▆▅▃▂░▒▓", "#"),
    **dict.fromkeys("–—−‐‑", "-"),
    **dict.fromkeys("«»“”„", '"'),
    **dict.fromkeys("‘’‚", "'"),
    **dict.fromkeys("•·∙◦▪‣⭑", "*"),
    **dict.fromkeys("→▶►⏵⇥", ">"),
    **dict.fromkeys("←◀◄⏴", "<"),
    **dict.fromkeys("↑▲△", "^"),
    **dict.fromkeys("↓▼▽", "v"),
    "…": ".",
    "×": "x",
    "✓": "v",
    "✔": "v",
    "✗": "x",
    "✘": "x",
    "⏎": "~",
    "\u00a0": " ",
    "œ": "o",
    "Œ": "O",
    "æ": "a",
    "Æ": "A",
    "ß": "s",
}


@lru_cache(maxsize=4096)
def ascii_char(char: str) -> str:
    """`char` as ASCII text of the same width in cells."""
    if char.isascii():
        return char
    width = cell_len(char)
    plain = SIGNS.get(char)
    if plain is None:
        decomposed = unicodedata.normalize("NFKD", char)
        plain = "".join(c for c in decomposed if c.isascii() and c.isprintable())
    if width == 0:
        return ""
    return (plain or "?")[:width].ljust(width)


@lru_cache(maxsize=4096)
def ascii_text(text: str) -> str:
    return text if text.isascii() else "".join(ascii_char(c) for c in text)


class AsciiFilter(LineFilter):
    """Replaces every character outside ASCII, keeping each segment's width and style."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            segment
            if segment.text.isascii()
            else Segment(ascii_text(segment.text), segment.style, segment.control)
            for segment in segments
        ]
