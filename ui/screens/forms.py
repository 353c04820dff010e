"""Form widgets as the app draws them, ASCII mode included."""

from __future__ import annotations

from textual.widgets import Checkbox


def checkbox(label: str, value: bool = False, *, id: str, ascii_mode: bool = False) -> Checkbox:
    """A checkbox; in ASCII mode drawn `[X]` instead of with half blocks."""
    box = Checkbox(label, value, id=id)
    if ascii_mode:
        box.BUTTON_LEFT, box.BUTTON_RIGHT = "[", "]"
    return box
