"""Asking for a table's password where the player chose the table (the list of LAN tables)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ui.i18n import N_, _
from ui.widgets.keybar import KeyBar


class PasswordPrompt(ModalScreen[str | None]):
    """The password of one table.

    | Key | Action |
    | :- | :- |
    | enter / ctrl+o | Join with this password |
    | escape | Back to the list |
    """

    BINDINGS = [
        Binding("ctrl+o", "join", N_("Join")),
        Binding("escape", "cancel", N_("Back")),
    ]

    def __init__(self, table: str) -> None:
        super().__init__()
        self.table = table

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(
                _("{table} has a password. Type it, then enter:").format(table=self.table),
                id="question",
            )
            yield Input(password=True, id="password")
        yield KeyBar()  # the bottom line always names the keys, over a question too

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_join()

    def action_join(self) -> None:
        value = self.query_one(Input).value
        if value:
            self.dismiss(value)

    def action_cancel(self) -> None:
        self.dismiss(None)
