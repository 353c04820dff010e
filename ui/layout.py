"""How much a window holds: the full layout from 80x24, a compact one from 40x20.

Many guests of the SSH door are on a phone: portrait windows of about 40-55 columns by 20-40
rows, landscape ones of about 90 by 20. The layout is picked by both sides of the window, each
on its own, and the app carries the answer as classes that the styles (`netcards.tcss`) and the
screens react to, so that one mechanism serves every screen instead of a case for each:

- `-narrow`: fewer than 80 columns. No column beside the table for the log and the chat (a
  key shows them in its place), forms and dialogs as wide as the window.
- `-short`: fewer than 24 rows. The hand is a row of card words instead of boxes, and lines
  that only frame things go.
- `-tall`: 36 rows or more. Narrow and tall (a phone held upright), the log and the chat go
  under the table instead of behind a key.

Below 40x20 a game screen says how big the window must be instead of a table cut to pieces.
"""

from __future__ import annotations

from textual.geometry import Size

FULL = Size(80, 24)
"""The smallest window that shows the whole table: the log and the chat beside it."""
SMALLEST = Size(40, 20)
"""The smallest window in which a game can be played (the compact layout)."""
TALL_ROWS = 36
"""From this many rows a narrow window has the log and the chat under the table."""
NARROW = "-narrow"
SHORT = "-short"
TALL = "-tall"


def size_classes(size: Size) -> dict[str, bool]:
    """Each class of the layout, and whether a window of `size` has it."""
    return {
        NARROW: size.width < FULL.width,
        SHORT: size.height < FULL.height,
        TALL: size.height >= TALL_ROWS,
    }


def too_small(size: Size) -> bool:
    return size.width < SMALLEST.width or size.height < SMALLEST.height
