"""Chat beside the table: the lines so far and a box to type in."""

from __future__ import annotations

from rich.markup import escape
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, RichLog, Static

from protocol.messages import CHAT_MAX
from protocol.schema import as_text
from ui.i18n import N_, _
from ui.widgets.reflow_log import ReflowLog


class ChatInput(Input):
    """The line being typed: one row, no border, focused or not (a plain Input takes a
    border with the focus, which left a one-row box no row for the text).

    What goes in is what the table takes (`Say`): at most `CHAT_MAX` characters, counted as
    the protocol counts them, and no control character (a tab or a pasted line break becomes
    a space). Typing or pasting past the limit stops at it and says so in the chat box itself,
    above the line (a notice in the corner of the screen covered the hand, and was gone before
    a paste's cut could be read), so a long line is never refused whole when enter sends it.

    | Key | Action |
    | :- | :- |
    | enter | Send the line; the box stays open for the next (on an empty line: close it) |
    | escape | Close the chat: the keys go back to the screen |

    Nothing else leaves the box: tab and shift+tab are typed as a space, not moved on (a
    paste that is not bracketed comes as typed keys, its tabs among them, and a tab that left
    the box made every key after it the screen's).
    """

    BINDINGS = [
        Binding("enter", "send", N_("Send")),
        Binding("escape", "close", N_("Close chat")),
    ]
    OWNS_KEYS = True
    """While typing here every letter is text: the key bar shows only these keys (`KeyBar`)."""

    def __init__(self, placeholder: str, id: str) -> None:
        super().__init__(placeholder=placeholder, id=id, compact=True, max_length=CHAT_MAX)
        self.said_full = False
        """The box says the line is full (until it is shorter, sent, or the box closed)."""

    async def _on_key(self, event: events.Key) -> None:
        """Enter and escape act at once, not through the bindings: the bindings run after the
        keys queued behind them, and a closing escape must give the focus back
        (`Screen.set_focus`) before the next key in a burst, so that key goes to the screen,
        not into the box. The bindings name the same two keys for the key bar, and do the
        same if they are ever what runs.

        Tab and shift+tab are text here, a space, and go no further: up at the screen they
        would move the focus (`Screen`'s bindings) and the keys after them would act there."""
        if event.key in ("tab", "shift+tab"):
            event.stop()
            event.prevent_default()
            start, end = self.selection
            self.replace("\t", start, end)  # `replace` makes it the space the table takes
            return
        if event.key in ("enter", "escape"):
            event.stop()
            event.prevent_default()
            if event.key == "enter":
                await self.action_send()
            else:
                await self.action_close()
            return
        await super()._on_key(event)

    def _on_paste(self, event: events.Paste) -> None:
        """A pasted text is one line: its line breaks become spaces (Textual's own paste
        keeps the first line only, and drops the rest unsaid). Textual's runs too unless the
        default is prevented, and typed the first line a second time after the whole."""
        event.stop()
        event.prevent_default()
        text = " ".join(event.text.splitlines())
        if text:
            start, end = self.selection
            self.replace(text, start, end)

    def replace(self, text: str, start: int, end: int) -> None:
        """Every edit comes through here (a key, a paste, a deletion): what the protocol would
        refuse is made a space, and what goes past the limit is cut there, and said."""
        text = as_text(text)
        start, end = sorted((max(0, start), min(len(self.value), end)))
        room = CHAT_MAX - (len(self.value) - (end - start))
        if len(text) > room:
            text = text[: max(0, room)]
            self.restricted()
        super().replace(text, start, end)
        if len(self.value) < CHAT_MAX and self.said_full:
            self.full(False)

    def restricted(self) -> None:
        """Something typed or pasted was cut at the limit: a bell, and the box says why for
        as long as the line is full."""
        self.app.bell()
        self.full(True)

    def full(self, said: bool) -> None:
        self.said_full = said
        self.post_message(ChatBox.Full(said))

    async def action_send(self) -> None:
        """Send the line and stay for the next: a chat is a conversation, and an escape
        typed right after enter must close the box, not reach the table's leave question."""
        if not self.value.strip():
            await self.action_close()
            return
        await self.action_submit()

    async def action_close(self) -> None:
        self.screen.set_focus(None)  # at once, so the next key is not typed here
        self.full(False)
        self.post_message(ChatBox.Closed())


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
    ChatBox #chat-full {
        height: auto;
        padding: 0 1;
        color: $text-warning;
        text-style: bold;
        display: none;
    }
    """

    class Said(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Closed(Message):
        """Escape (or enter on an empty line) gave the keys back: the screen puts its focus
        where it wants."""

    class Full(Message):
        """The line being typed was cut at the limit (`full`), or is shorter than it again."""

        def __init__(self, full: bool) -> None:
            super().__init__()
            self.full = full

    def compose(self) -> ComposeResult:
        yield ReflowLog(wrap=True, markup=True, min_width=10, id="chat-lines")
        yield Static(
            "! " + _("A chat line holds at most {n} characters.").format(n=CHAT_MAX),
            id="chat-full",
        )
        yield ChatInput(_("chat: press c, type, enter"), "chat-input")

    def on_chat_box_full(self, message: ChatBox.Full) -> None:
        message.stop()
        self.query_one("#chat-full").display = message.full

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
        text = as_text(event.value).strip()[:CHAT_MAX]  # (a value set in code skips `replace`)
        event.input.value = ""
        self.query_one(ChatInput).full(False)
        if text:
            self.post_message(self.Said(text))
