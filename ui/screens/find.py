"""Tables on the LAN, found by discovery and refreshed every few seconds.

Enter joins the table under the cursor at once, with the name from the settings, which the
status line names (the settings change it); `s` watches it; a table that has a password asks
for it first, here. The cursor stays on the table it was on when the list is refreshed, even
if tables came or went above it, so that keys pressed just after a refresh act on the table
the player chose. The chosen table's fingerprint is a line of its own under the list: as a
column it pushed the list past 80 columns in longer languages. In a narrow window (a phone's)
the list keeps the table, its game and its free seats, so that no column runs off the edge, and
the chosen table's every column is said under it (its name and game whole, its address, whether
it has a password).
"""

from __future__ import annotations

import os

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from netcards.errors import UnknownGame
from netcards.registry import get_game
from protocol.discovery import FoundTable, discover
from protocol.settings import discovery_target
from ui.i18n import N_, _, ngettext
from ui.layout import NARROW
from ui.screens.password import PasswordPrompt
from ui.widgets.keybar import KeyBar

REFRESH = 3.0


class TableList(DataTable[str]):
    """The tables found; enter joins the one under the cursor (DataTable's own enter selects
    a row, and it is the focused widget, so the key is named here, where the footer sees it)."""

    BINDINGS = [Binding("enter", "select_cursor", N_("Join"))]


class FindScreen(Screen[None]):
    """Tables found on the LAN.

    | Key | Action |
    | :- | :- |
    | up / down | Choose a table |
    | enter | Join it |
    | s | Watch it as a spectator |
    | escape | Back |
    """

    BINDINGS = [
        Binding("s", "watch", N_("Watch")),
        Binding("escape", "app.pop_screen", N_("Back")),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.found: list[FoundTable] = []
        self.narrow: bool | None = None

    def compose(self) -> ComposeResult:
        yield Static(
            _("Looking for tables (asking {target})...").format(target=discovery_target()),
            id="find-status",
        )
        yield TableList(id="tables", cursor_type="row")
        yield Static(id="find-detail")
        yield KeyBar()

    def on_mount(self) -> None:
        self.set_columns(self.app.has_class(NARROW))
        self.query_one(DataTable).focus()
        self.run_worker(self.look(), exclusive=True)
        self.set_interval(REFRESH, lambda: self.run_worker(self.look(), exclusive=True))

    async def look(self) -> None:
        try:
            found = await discover(timeout=1.0, nonce=os.urandom(8))
        except OSError as exc:
            self.query_one("#find-status", Static).update(
                _("Discovery failed: {reason}").format(reason=exc.strerror or exc)
            )
            return
        was = self.chosen()
        self.found = found
        self.fill(was)
        status = (
            ngettext(
                "{n} table found; enter joins as {name}, s watches.",
                "{n} tables found; enter joins as {name}, s watches.",
                len(found),
            ).format(n=len(found), name=self.app.settings.name)  # type: ignore[attr-defined]
            if found
            else _("No table found yet (asking {target}); still looking...").format(
                target=discovery_target()
            )
        )
        self.query_one("#find-status", Static).update(status)

    def set_columns(self, narrow: bool) -> None:
        """The list's columns for the window's width, filled again when they change."""
        if narrow == self.narrow:
            return
        self.narrow = narrow
        table = self.query_one(DataTable)
        was = self.chosen()
        table.clear(columns=True)
        table.add_columns(_("table"), _("game"), _("free seats"))
        if not narrow:
            table.add_columns(_("password"), _("address"))
        self.fill(was)

    def on_resize(self, event: events.Resize) -> None:
        """The app's layout classes already fit the new size (`NetcardsApp.on_resize`)."""
        self.set_columns(self.app.has_class(NARROW))

    def fill(self, was: FoundTable | None) -> None:
        """The tables found, the cursor on the one chosen before (if still there)."""
        table = self.query_one(DataTable)
        table.clear()
        for t in self.found:
            table.add_row(*(self.cells(t)[:3] if self.narrow else self.cells(t)))
        keys = [t.address for t in self.found]
        if was is not None and was.address in keys:
            table.move_cursor(row=keys.index(was.address), animate=False)
        self.show_chosen()

    def chosen(self) -> FoundTable | None:
        row = self.query_one(DataTable).cursor_row
        return self.found[row] if self.found and row is not None and row < len(self.found) else None

    def show_chosen(self) -> None:
        table = self.chosen()
        if table is None:
            self.query_one("#find-detail", Static).update("")
            return
        lines = []
        if self.narrow:  # the columns the list has no room for, and its own cut short
            name, game, seats, _password, address = self.cells(table)
            lines += [f"{_('table')}: {name}", f"{_('game')}: {game}"]
            lines += [f"{_('free seats')}: {seats}", f"{_('address')}: {address}"]
            if table.info.password:
                lines.append(_("This table has a password."))
        lines.append(_("The table says its fingerprint is {fp}").format(fp=table.info.fingerprint))
        self.query_one("#find-detail", Static).update("\n".join(lines))

    @staticmethod
    def cells(table: FoundTable) -> list[str]:
        """A table's row in the list: its name, game, free seats, password and address."""
        try:
            game = get_game(table.info.game).name
        except UnknownGame:
            game = table.info.game + " (?)"
        if table.info.sealed:
            game = _("{game}, sealed").format(game=game)
        return [
            table.info.name,
            game,
            f"{table.info.free}/{table.info.players}",
            _("yes") if table.info.password else "-",
            table.address,
        ]

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self.show_chosen()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_join()

    def action_join(self) -> None:
        self.take_seat(spectator=False)

    def action_watch(self) -> None:
        self.take_seat(spectator=True)

    def take_seat(self, *, spectator: bool) -> None:
        """Join (or watch) the chosen table, asking for its password first if it has one."""
        table = self.chosen()
        if table is None:
            return
        app = self.app

        def join(password: str | None) -> None:
            app.join_table(table.address, app.settings.name, password, spectator)  # type: ignore[attr-defined]

        if table.info.password:
            self.app.push_screen(
                PasswordPrompt(table.info.name), lambda pw: join(pw) if pw else None
            )
        else:
            join(None)
