"""The footer, in the player's language: Textual's footer, with each key's description
translated when it is drawn (bindings are declared once, in English, with `N_`).

Where one line cannot hold every key of the moment (a phone's window), the keys go on as many
lines as they need, on every screen, never cut off at the right edge: a key the bar does not
show is a key the player does not know of. Each line is a `KeyRow`; `key_rows` says which
keys go on which line."""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import HorizontalGroup
from textual.css.scalar import Scalar
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from ui.i18n import N_, _
from ui.layout import FULL

TEXTUAL_KEYS = (N_("Dismiss menu"),)
"""Descriptions of Textual's own bindings that reach this footer (an open list's `esc`): they
are in the catalogues too, so that no English is left in a translated footer."""


class KeyRow(HorizontalGroup):
    """One line of a key bar whose keys take more than one."""

    DEFAULT_CSS = """
    KeyRow {
        height: 1;
        width: 100%;
    }
    """


class KeyBar(Footer):
    """The command palette is still on ctrl+p; its footer entry gives room to the game's keys.

    `compact`: one space between keys at every width (a game and the lobby have the most
    keys); without it, the keys are spaced out from 80 columns and compact below."""

    DEFAULT_CSS = """
    KeyBar.-rows {
        layout: vertical;
    }
    """

    def __init__(self, *, compact: bool = False) -> None:
        super().__init__(show_command_palette=False, compact=compact)
        self.always_compact = compact
        self.laid_out_at = 0
        """The width the keys were last put in rows for."""

    def on_mount(self) -> None:
        # (Footer's own on_mount runs too, as Textual calls each class's handler.)
        self.set_compact(self.app.size.width)

    def set_compact(self, width: int) -> None:
        compact = self.always_compact or width < FULL.width
        if compact != self.compact:
            self.compact = compact

    def on_resize(self, event: events.Resize) -> None:
        """Laid out again for a window of another width (a phone turned, a window resized)."""
        width = self.app.size.width
        if width != self.laid_out_at:
            self.set_compact(width)
            self.call_after_refresh(self.recompose)

    def compose(self) -> ComposeResult:
        keys = list(self.keys())
        self.laid_out_at = width = self.app.size.width
        rows = key_rows(keys, width, compact=self.compact)
        self.set_class(len(rows) > 1, "-rows")
        if self.styles.height != Scalar.from_number(len(rows)):
            self.styles.height = len(rows)
        if len(rows) == 1:
            yield from keys
            return
        for row in rows:
            yield KeyRow(*row)

    def keys(self) -> ComposeResult:
        """The keys of the moment, their descriptions translated."""
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


def key_rows(keys: list[Widget], width: int, *, compact: bool) -> list[list[Widget]]:
    """The keys in as many rows as the width needs (one at least), each key whole, in their
    order."""
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
    """The cells a key takes in the bar, as Textual's footer styles lay it out: the key, a
    space and its description; in the compact style with one space after it, else with a
    space on each side."""
    if not isinstance(key, FooterKey):
        return 0
    shown, words = cell_len(key.key_display), cell_len(key.description)
    return shown + (1 + words if words else 0) + (1 if compact else 2)
