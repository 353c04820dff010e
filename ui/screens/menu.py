"""The first screen: what do you want to do?"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ui.i18n import N_, _
from ui.widgets.keybar import KeyBar

ENTRIES = (
    ("host", N_("Host a table")),
    ("join", N_("Join by address")),
    ("find", N_("Find tables on the LAN")),
    ("practise", N_("Practise against bots")),
    ("rules", N_("Rules")),
    ("settings", N_("Settings")),
    ("quit", N_("Quit")),
)

BANNER = "netcards"


class MenuScreen(Screen[None]):
    """The main menu.

    | Key | Action |
    | :- | :- |
    | up / down, enter | Choose |
    | h j f p r s q | Jump straight to an entry |
    """

    BINDINGS = [
        Binding("h", "pick('host')", N_("Host"), show=False),
        Binding("j", "pick('join')", N_("Join"), show=False),
        Binding("f", "pick('find')", N_("Find"), show=False),
        Binding("p", "pick('practise')", N_("Practise"), show=False),
        Binding("r", "pick('rules')", N_("Rules"), show=False),
        Binding("s", "pick('settings')", N_("Settings"), show=False),
        Binding("q", "pick('quit')", N_("Quit")),
    ]

    def compose(self) -> ComposeResult:
        with Center(), Vertical(id="menu-box"):
            yield Static(BANNER, id="menu-title")
            yield Static(_("Card games with friends, over a LAN or SSH."), id="menu-subtitle")
            yield OptionList(*[Option(_(label), id=key) for key, label in ENTRIES], id="menu")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.action_pick(event.option.id)

    def action_pick(self, key: str) -> None:
        self.app.menu_choice(key)  # type: ignore[attr-defined]
