"""Chat beside the table: the lines so far and a box to type in."""

from __future__ import annotations

from rich.markup import escape
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, RichLog

from ui.i18n import _


class ChatInput(Input):
    """The line being typed: one row, no border, focused or not (a plain Input takes a
    border with the focus, which left a one-row box no row for the text).

    | Key | Action |
    | :- | :- |
    | enter | Send the line and give the keys back to the screen |
    | escape | Give the keys back to the screen |

    Keys come in bursts: the keys typed after enter or escape may already be waiting in this
    box's queue when it gives the focus up. They were not meant for the chat, so they go back
    to the app as if they had just been typed, and reach the screen's keys instead.
    """

    def __init__(self, placeholder: str, id: str) -> None:
        super().__init__(placeholder=placeholder, id=id, compact=True)

    async def _on_key(self, event: events.Key) -> None:
        """Enter and escape are handled here, in turn with the letters before them (not as
        bindings, which act once the key has bubbled up: by then the keys after it were
        already handled here)."""
        if self.screen.focused is not self:  # (has_focus waits for the Blur event to arrive)
            event.stop()
            event.prevent_default()
            self.app.post_message(events.Key(event.key, event.character))
            return
        if event.key in ("enter", "escape"):
            event.stop()
            event.prevent_default()
            if event.key == "enter":
                await self.action_submit()
            self.screen.set_focus(None)  # at once, so the next key is not typed here
            self.post_message(ChatBox.Closed())
            return
        await super()._on_key(event)


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

    class Closed(Message):
        """Enter or escape gave the keys back: the screen puts its focus where it wants."""

    def compose(self) -> ComposeResult:
        yield RichLog(wrap=True, markup=True, min_width=10, id="chat-lines")
        yield ChatInput(_("chat: press c, type, enter"), "chat-input")

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
