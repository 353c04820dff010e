"""The first screen: what do you want to do?"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ui.i18n import N_, _
from ui.widgets.keybar import KeyBar
from ui.widgets.lists import StoppingOptionList

ENTRIES = (
    ("host", "h", N_("Host a table")),
    ("join", "j", N_("Join by address")),
    ("find", "f", N_("Find tables on the LAN")),
    ("practise", "p", N_("Practise against bots")),
    ("rules", "r", N_("Rules")),
    ("settings", "s", N_("Settings")),
    ("quit", "q", N_("Quit")),
)
"""Each entry: what it does, its letter (shown before it), its words."""

BANNER = "netcards"


def entry(letter: str, words: str) -> Table:
    """An entry: its letter, then its words, which wrap under themselves in a narrow window."""
    grid = Table.grid(padding=(0, 0, 0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column()
    grid.add_row(Text(letter, style="bold"), Text(words))
    return grid


class MenuScreen(Screen[None]):
    """The main menu.

    | Key | Action |
    | :- | :- |
    | up / down, enter | Choose |
    | h j f p r s q | Jump straight to an entry (each letter is shown before it) |
    """

    BINDINGS = [
        Binding(letter, f"pick('{key}')", label, show=key == "quit")
        for key, letter, label in ENTRIES
    ]

    def compose(self) -> ComposeResult:
        with Center(), Vertical(id="menu-box"):
            yield Static(BANNER, id="menu-title")
            yield Static(_("Card games with friends, over a LAN or SSH."), id="menu-subtitle")
            yield StoppingOptionList(
                *[Option(entry(letter, _(label)), id=key) for key, letter, label in ENTRIES],
                id="menu",
            )
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.action_pick(event.option.id)

    def action_pick(self, key: str) -> None:
        self.app.menu_choice(key)  # type: ignore[attr-defined]
