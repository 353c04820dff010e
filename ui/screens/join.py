"""Joining a table by its address (or from the list of tables found on the LAN)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Static

from protocol.address import AddressError, parse_address
from ui.i18n import N_, _
from ui.widgets.form_error import FormError
from ui.widgets.keybar import KeyBar
from ui.widgets.text_checkbox import TextCheckbox


class SpectatorBox(TextCheckbox, inherit_bindings=False):
    """The form's one box: space ticks it, and enter joins, as it does from every field of
    the form (a checkbox's enter would untick what space just ticked)."""

    BINDINGS = [Binding("space", "toggle_button", show=False)]


class JoinScreen(Screen[None]):
    """Join by address.

    | Key | Action |
    | :- | :- |
    | tab / shift+tab | Next / previous field |
    | space | (on the spectator box) Tick it, or untick it |
    | enter, ctrl+o | Join |
    | escape | Back |
    """

    BINDINGS = [
        Binding("ctrl+o", "join", N_("Join")),
        Binding("enter", "join", show=False),  # (the fields' own enter goes first: the same)
        Binding("escape", "app.pop_screen", N_("Back")),
    ]

    def __init__(
        self,
        address: str = "",
        name: str = "",
        fingerprint: str = "",
        *,
        password: str | None = None,
        spectator: bool = False,
        error: str = "",
        focus: str = "",
    ) -> None:
        """`error` and `focus` bring the player back after a failed join, with what they typed
        and the field to fix focused."""
        super().__init__()
        self.address = address
        self.player = name
        self.fingerprint = fingerprint
        self.password = password or ""
        self.spectator = spectator
        self.error = error
        self.focus_field = focus

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="form"):
            yield Static(_("Join a table"), classes="form-title")
            yield Label(_("Address (host or host:port, e.g. 192.0.2.7 or [::1]:47474)"))
            yield Input(value=self.address, id="address")
            if self.fingerprint:
                yield Static(
                    _("The table says its fingerprint is {fp}").format(fp=self.fingerprint),
                    classes="dim",
                )
            yield Label(_("Your name"))
            yield Input(value=self.player, id="name")
            yield Label(_("Password (if the table has one)"))
            yield Input(value=self.password, password=True, id="password")
            yield SpectatorBox(
                _("Watch as a spectator"), self.spectator, id="spectator",
                ascii_mode=bool(getattr(self.app, "ascii_mode", False)),
            )  # fmt: skip
            yield FormError(self.error, id="form-error")
            with Horizontal(id="form-buttons"):
                yield Button(_("Join"), id="join", variant="primary")
                yield Button(_("Back"), id="back")
        yield KeyBar()

    def on_mount(self) -> None:
        field = self.focus_field or "address"  # typing there replaces a remembered address
        self.query_one(f"#{field}").focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_one(FormError).edited(event.input)

    def on_input_submitted(self) -> None:
        self.join()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "join":
            self.join()
        else:
            self.app.pop_screen()

    def action_join(self) -> None:
        self.join()

    def join(self) -> None:
        address = self.query_one("#address", Input).value.strip()
        name = self.query_one("#name", Input).value.strip()
        error = self.query_one(FormError)
        try:
            parse_address(address)
        except AddressError as exc:
            error.say(str(exc))
            self.query_one("#address", Input).focus()
            return
        if not name:
            error.say(_("a name is needed"))
            self.query_one("#name", Input).focus()
            return
        error.say(_("Joining {address}...").format(address=address))
        password = self.query_one("#password", Input).value or None
        spectator = self.query_one("#spectator", TextCheckbox).value
        self.app.join_table(address, name, password, spectator)  # type: ignore[attr-defined]
