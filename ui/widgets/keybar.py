"""The footer, in the player's language: Textual's footer, with each key's description
translated when it is drawn (bindings are declared once, in English, with `N_`)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from ui.i18n import N_, _

TEXTUAL_KEYS = (N_("Dismiss menu"),)
"""Descriptions of Textual's own bindings that reach this footer (an open list's `esc`): they
are in the catalogues too, so that no English is left in a translated footer."""


class KeyBar(Footer):
    """The command palette is still on ctrl+p; its footer entry gives room to the game's keys."""

    def __init__(self, *, compact: bool = False) -> None:
        super().__init__(show_command_palette=False, compact=compact)

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
        for widget in super().compose():
            if owned is not None and isinstance(widget, FooterKey) and widget.key not in owned:
                continue
            if isinstance(widget, FooterKey) and widget.description:
                widget.description = _(widget.description)
            yield widget
