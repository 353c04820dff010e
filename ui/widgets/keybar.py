"""The footer, in the player's language: Textual's footer, with each key's description
translated when it is drawn (bindings are declared once, in English, with `N_`).

A key bar that may wrap (`wrap`) takes a second row when its keys do not fit the window's
width: on a phone's 40 columns a lobby's keys ran off the right edge, and a key nobody can see
is a key nobody knows of. The game screen's stays one row (its layout counts its rows).
"""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import HorizontalGroup
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from ui.i18n import N_, _

TEXTUAL_KEYS = (N_("Dismiss menu"),)
"""Descriptions of Textual's own bindings that reach this footer (an open list's `esc`): they
are in the catalogues too, so that no English is left in a translated footer."""


class KeyRow(HorizontalGroup):
    """One row of a key bar that wraps."""

    DEFAULT_CSS = """
    KeyRow {
        height: 1;
        width: 100%;
    }
    """


class KeyBar(Footer):
    """The command palette is still on ctrl+p; its footer entry gives room to the game's keys."""

    DEFAULT_CSS = """
    KeyBar.-rows {
        height: auto;
        layout: vertical;
    }
    """

    def __init__(self, *, compact: bool = False, wrap: bool = False) -> None:
        super().__init__(show_command_palette=False, compact=compact)
        self.wrap = wrap
        self.rows_for = 0
        """The width the rows were laid out for."""

    def compose(self) -> ComposeResult:
        keys = list(self.keys())
        width = self.app.size.width
        self.rows_for = width
        rows = key_rows(keys, width, compact=self.compact) if self.wrap else [keys]
        self.set_class(len(rows) > 1, "-rows")
        if len(rows) == 1:
            yield from keys
            return
        for row in rows:
            with KeyRow():
                yield from row

    def keys(self) -> ComposeResult:
        focused = self.screen.focused
        # A widget that takes every key while it has the focus (`OWNS_KEYS`, the chat box)
        # leaves the screen's letter keys nothing to do: showing them would promise keys that
        # type text instead. Only its own keys are shown then.
        owned = (
            {b.key for b in type(focused).BINDINGS if isinstance(b, Binding)}
            if focused is not None and getattr(focused, "OWNS_KEYS", False)
            else None
        )
        for widget in super().compose():
            if owned is not None and isinstance(widget, FooterKey) and widget.key not in owned:
                continue
            if isinstance(widget, FooterKey) and widget.description:
                widget.description = _(widget.description)
            yield widget

    def on_resize(self, event: events.Resize) -> None:
        """Laid out again for a window of another width (a phone turned, a window resized)."""
        if self.wrap and self.app.size.width != self.rows_for:
            self.call_after_refresh(self.recompose)


def key_rows(keys: list[Widget], width: int, *, compact: bool) -> list[list[Widget]]:
    """The keys in as many rows as the width needs, each key whole, in their order."""
    rows: list[list[Widget]] = [[]]
    used = 0
    for key in keys:
        need = key_width(key, compact=compact)
        if rows[-1] and used + need > width:
            rows.append([])
            used = 0
        rows[-1].append(key)
        used += need
    return rows


def key_width(key: Widget, *, compact: bool) -> int:
    """The cells a key takes in the bar, as Textual's footer styles lay it out."""
    if not isinstance(key, FooterKey):
        return 0
    shown, words = cell_len(key.key_display), cell_len(key.description)
    if compact:  # "k words" and a space after it
        return shown + (1 + words if words else 0) + 1
    return shown + 2 + (words + 1 if words else 0)  # " k words "
