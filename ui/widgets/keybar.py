"""The footer, in the player's language: Textual's footer, with each key's description
translated when it is drawn (bindings are declared once, in English, with `N_`).

Where one line cannot hold every key of the moment (a phone's window), the keys go on as many
lines as they need, never cut off at the right edge: a key the bar does not show is a key the
player does not know of."""

from __future__ import annotations

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


class KeyBar(Footer):
    """The command palette is still on ctrl+p; its footer entry gives room to the game's keys.

    `compact`: one space between keys at every width (a game has the most keys); without it,
    the keys are spaced out from 80 columns and compact below."""

    DEFAULT_CSS = """
    KeyBar.-rows {
        layout: vertical;
    }
    KeyBar.-rows > HorizontalGroup {
        height: 1;
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
        width = self.app.size.width
        if width != self.laid_out_at:
            self.set_compact(width)
            self.call_after_refresh(self.recompose)

    def compose(self) -> ComposeResult:
        focused = self.screen.focused
        # A widget that takes every key while it has the focus (`OWNS_KEYS`, the chat box)
        # leaves the screen's letter keys nothing to do: showing them would promise keys that
        # type text instead. Only its own keys are shown then.
        owned = (
            {b.key for b in type(focused).BINDINGS if isinstance(b, Binding)}
            if focused is not None and getattr(focused, "OWNS_KEYS", False)
            else None
        )
        keys: list[Widget] = []
        for widget in super().compose():
            if owned is not None and isinstance(widget, FooterKey) and widget.key not in owned:
                continue
            if isinstance(widget, FooterKey) and widget.description:
                widget.description = _(widget.description)
            keys.append(widget)
        self.laid_out_at = width = self.app.size.width
        rows = self.in_rows(keys, width)
        self.set_class(len(rows) > 1, "-rows")
        if self.styles.height != Scalar.from_number(max(1, len(rows))):
            self.styles.height = max(1, len(rows))
        if len(rows) <= 1:
            yield from keys
            return
        for row in rows:
            yield HorizontalGroup(*row)

    def in_rows(self, keys: list[Widget], width: int) -> list[list[Widget]]:
        """The keys in order, as many on each line as it holds."""
        rows: list[list[Widget]] = []
        used = width + 1
        for key in keys:
            wide = self.width_of(key)
            if used + wide > width:
                rows.append([])
                used = 0
            rows[-1].append(key)
            used += wide
        return rows

    def width_of(self, key: Widget) -> int:
        """A key's columns as `FooterKey` draws it: the key, a space and its description; in
        the compact style with one space after it, else with a space on each side."""
        if not isinstance(key, FooterKey):
            return 0
        text = len(key.key_display) + (1 + len(key.description) if key.description else 0)
        return text + (1 if self.compact else 2)
