"""A form's error line: red, in sight, and gone once the player changes what it was about."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Input, Static


def _styled(text: str) -> Text:
    return Text("! " + text, style="bold red") if text else Text("")


class FormError(Static):
    """Says what was wrong with what was typed. An error left on screen while the player fixes
    the field reads as if the fix were wrong too, so any change to a field clears it (`edited`,
    which the form calls from its `on_input_changed`)."""

    def __init__(self, text: str = "", **kwargs: Any) -> None:
        super().__init__(_styled(text), **kwargs)
        self._shown = text
        self._typed: dict[str, str] | None = None
        """What the fields held when the error was said (None: nothing said)."""

    def on_mount(self) -> None:
        if self._shown:
            self._typed = self._fields()
            self.call_after_refresh(self.bring_into_sight)

    def say(self, text: str) -> None:
        self._shown = text
        self.update(_styled(text))
        self._typed = self._fields() if text else None
        if text:
            self.call_after_refresh(self.bring_into_sight)

    def bring_into_sight(self) -> None:
        """In a form that scrolls (a phone's 20 rows) the error may be below the fold, the
        field it points at in sight above it: the form scrolls to the error, then back to the
        focused field if it went out of sight (both are seen where both fit)."""
        self.scroll_visible(animate=False)
        focused = self.screen.focused
        if focused is not None:
            focused.scroll_visible(animate=False)

    def clear(self) -> None:
        self.say("")

    @property
    def shown(self) -> str:
        return self._shown

    def edited(self, field: Input) -> None:
        """`field` changed: the error goes if the field no longer holds what it held then (an
        input reports its first value when it appears, which changes nothing)."""
        if self._typed is not None and self._typed.get(field.id or "") != field.value:
            self.clear()

    def _fields(self) -> dict[str, str]:
        return {field.id or "": field.value for field in self.screen.query(Input)}
