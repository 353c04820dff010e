"""`?` outside a game: the keys of the screen you are on, in your language."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ui.i18n import N_, _
from ui.layout import SHORT
from ui.widgets.keybar import KeyBar


class HelpScreen(ModalScreen[None]):
    """The keys of the screen below.

    | Key | Action |
    | :- | :- |
    | escape / enter / ? | Close |
    """

    BINDINGS = [Binding("escape,enter,question_mark", "close", N_("Close"))]

    def __init__(self, title: str, keys: list[tuple[str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.keys = keys

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for key, description in self.keys:
            table.add_row(Text(key), Text(description))
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text, style="bold"), id="question")
            with VerticalScroll(id="help-keys"):
                yield Static(table)
            yield Static(Text(_("escape closes this help"), style="dim"))
        yield KeyBar()  # the bottom line always names the keys, over the help too

    def on_resize(self, event: events.Resize) -> None:
        """The list takes at most the rows the window leaves it (it scrolls): its title and
        the line that says how to close it stay in sight on a phone's 20 rows too."""
        rows = event.size.height - (6 if self.app.has_class(SHORT) else 8)
        self.query_one("#help-keys").styles.max_height = max(3, min(16, rows))

    def action_close(self) -> None:
        self.dismiss(None)
