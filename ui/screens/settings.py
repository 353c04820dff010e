"""Your settings: name, language, ASCII mode, colour theme, and the hosts you trust."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, DataTable, Input, Label, Select, Static

from ui.i18n import LANGUAGES, N_, _, current, from_locale
from ui.session import known_hosts
from ui.user_settings import UserSettings
from ui.widgets.keybar import KeyBar
from ui.widgets.lists import FormSelect
from ui.widgets.text_checkbox import TextCheckbox

THEMES = ("textual-dark", "textual-light", "nord", "gruvbox", "monokai")


def shown_language(saved: str) -> str:
    """The language the list shows: the one in use. A language given on the command line
    (`--lang`) wins over the saved one, so it is the one shown, and saving keeps it."""
    in_use = current()
    if in_use != (saved or from_locale()):
        return in_use
    return saved or "auto"


class SettingsScreen(Screen[None]):
    """Settings.

    | Key | Action |
    | :- | :- |
    | tab | Next field |
    | ctrl+s | Save |
    | f | Forget the selected known host |
    | escape | Back |
    """

    BINDINGS = [
        Binding("ctrl+s", "save", N_("Save")),
        Binding("f", "forget", N_("Forget host")),
        Binding("escape", "app.pop_screen", N_("Back")),
    ]

    def __init__(self, settings: UserSettings) -> None:
        super().__init__()
        self.settings = settings

    def compose(self) -> ComposeResult:
        s = self.settings
        with VerticalScroll(id="form"):
            yield Static(_("Settings"), classes="form-title")
            yield Label(_("Your name"))
            yield Input(value=s.name, id="name")
            yield Label(_("Language"))
            yield FormSelect(
                [(_("Automatic (from the system)"), "auto")]
                + [(label, code) for code, label in LANGUAGES.items()],
                value=shown_language(s.language),
                allow_blank=False,
                id="language",
            )
            yield TextCheckbox(
                _("ASCII mode (for terminals without good Unicode)"), s.ascii, id="ascii",
                ascii_mode=bool(getattr(self.app, "ascii_mode", False)),
            )  # fmt: skip
            yield Label(_("Colour theme"))
            yield FormSelect(
                [(t, t) for t in THEMES],
                value=s.theme if s.theme in THEMES else THEMES[0],
                allow_blank=False,
                id="theme",
            )
            yield Label(_("Known hosts (f forgets the selected one)"))
            yield DataTable(id="hosts", cursor_type="row")
            with Horizontal(id="form-buttons"):
                yield Button(_("Save (ctrl+s)"), id="save", variant="primary")
                yield Button(_("Back"), id="back")
        yield KeyBar()

    def on_mount(self) -> None:
        table = self.query_one("#hosts", DataTable)
        table.add_columns(_("address"), _("fingerprint"))
        self.fill_hosts()
        self.query_one("#name", Input).focus()

    def fill_hosts(self) -> None:
        table = self.query_one("#hosts", DataTable)
        table.clear()
        for entry in known_hosts().entries():
            table.add_row(entry.address, entry.fingerprint)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        else:
            self.app.pop_screen()

    def action_save(self) -> None:
        s = self.settings
        s.name = self.query_one("#name", Input).value.strip()[:24] or s.name
        s.ascii = self.query_one("#ascii", TextCheckbox).value
        s.theme = str(self.query_one("#theme", Select).value)
        language = str(self.query_one("#language", Select).value)
        s.language = "" if language == "auto" else language
        s.save()
        # Done with this form: back to the menu, where the keys typed next are meant for.
        self.app.pop_screen()
        self.app.apply_settings()  # type: ignore[attr-defined]
        self.app.notify(_("Settings saved"))

    def action_forget(self) -> None:
        table = self.query_one("#hosts", DataTable)
        entries = known_hosts().entries()
        row = table.cursor_row
        if row is None or not 0 <= row < len(entries):
            return
        known_hosts().forget(entries[row].address)
        self.notify(_("Forgot {address}").format(address=entries[row].address))
        self.fill_hosts()
