"""Chat beside the table: the lines so far and a box to type in."""

from __future__ import annotations

from rich.markup import escape
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, RichLog

from ui.i18n import _


class ChatBox(Vertical):
    DEFAULT_CSS = """
    ChatBox {
        height: 1fr;
    }
    ChatBox RichLog {
        height: 1fr;
        scrollbar-size-vertical: 1;
    }
    ChatBox Input.-textual-compact {
        padding: 0 1;
    }
    """

    class Said(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def compose(self) -> ComposeResult:
        yield RichLog(wrap=True, markup=True, min_width=10, id="chat-lines")
        # Compact: one row and no border, focused or not. (A plain Input takes a border when
        # it has the focus, which left a one-row box no row for the text being typed.)
        yield Input(placeholder=_("chat: press c, type, enter"), id="chat-input", compact=True)

    def add(self, name: str, text: str, *, notice: bool = False) -> None:
        lines = self.query_one("#chat-lines", RichLog)
        if notice:
            lines.write(f"[i]* {escape(text)}[/i]")
        else:
            lines.write(f"[b]{escape(name)}[/b]: {escape(text)}")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        event.input.value = ""
        if text:
            self.post_message(self.Said(text))
