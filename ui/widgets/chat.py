"""Chat beside the table: the lines so far and a box to type in."""

from __future__ import annotations

from rich.markup import escape
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, RichLog

from ui.i18n import N_, _
from ui.widgets.reflow_log import ReflowLog


class ChatInput(Input):
    """The line being typed: one row, no border, focused or not (a plain Input takes a
    border with the focus, which left a one-row box no row for the text).

    | Key | Action |
    | :- | :- |
    | enter | Send the line and give the keys back to the screen |
    | escape | Give the keys back to the screen |
    """

    BINDINGS = [
        Binding("enter", "send", N_("Send")),
        Binding("escape", "close", N_("Close chat")),
    ]
    OWNS_KEYS = True
    """While typing here every letter is text: the key bar shows only these keys (`KeyBar`)."""

    def __init__(self, placeholder: str, id: str) -> None:
        super().__init__(placeholder=placeholder, id=id, compact=True)

    async def _on_key(self, event: events.Key) -> None:
        """Enter and escape give the focus back at once (`Screen.set_focus`), so the key
        after them in a burst goes to the screen, not into the box. The bindings above name
        the same two keys for the key bar, and do the same if they are ever what runs."""
        if event.key in ("enter", "escape"):
            event.stop()
            event.prevent_default()
            await self.give_back(send=event.key == "enter")
            return
        await super()._on_key(event)

    async def give_back(self, *, send: bool) -> None:
        if send:
            await self.action_submit()
        self.screen.set_focus(None)  # at once, so the next key is not typed here
        self.post_message(ChatBox.Closed())

    async def action_send(self) -> None:
        await self.give_back(send=True)

    async def action_close(self) -> None:
        await self.give_back(send=False)


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
        yield ReflowLog(wrap=True, markup=True, min_width=10, id="chat-lines")
        yield ChatInput(_("chat: press c, type, enter"), "chat-input")

    def add(self, name: str, text: str, *, notice: bool = False, watching: bool = False) -> None:
        """A line someone said, or (`notice`) one the table itself says. A spectator's line
        carries its name and that it watches: written like a notice, it could pass for one."""
        lines = self.query_one("#chat-lines", RichLog)
        if notice:
            lines.write(f"[i]* {escape(text)}[/i]")
            return
        who = _("{name} (watching)").format(name=name) if watching else name
        lines.write(f"[b]{escape(who)}[/b]: {escape(text)}")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        event.input.value = ""
        if text:
            self.post_message(self.Said(text))
