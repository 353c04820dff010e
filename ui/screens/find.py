"""Tables on the LAN, found by discovery and refreshed every few seconds.

Enter joins the table under the cursor at once (with the name from the settings), `s` watches
it; a table that has a password asks for it first, here.
"""

from __future__ import annotations

import os

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from netcards.errors import UnknownGame
from netcards.registry import get_game
from protocol.discovery import FoundTable, discover
from protocol.settings import discovery_target
from ui.i18n import N_, _, ngettext
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

    def compose(self) -> ComposeResult:
        yield Static(
            _("Looking for tables (asking {target})...").format(target=discovery_target()),
            id="find-status",
        )
        yield TableList(id="tables", cursor_type="row")
        yield KeyBar()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(
            _("table"), _("game"), _("free seats"), _("password"), _("address"), _("fingerprint")
        )
        table.focus()
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
        self.found = found
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear()
        for t in found:
            try:
                game = get_game(t.info.game).name
            except UnknownGame:
                game = t.info.game + " (?)"
            table.add_row(
                t.info.name,
                game,
                f"{t.info.free}/{t.info.players}",
                _("yes") if t.info.password else "-",
                t.address,
                t.info.fingerprint,
            )
        if row is not None and 0 <= row < len(found):
            table.move_cursor(row=row)
        status = (
            ngettext(
                "{n} table found; enter joins, s watches.",
                "{n} tables found; enter joins, s watches.",
                len(found),
            ).format(n=len(found))
            if found
            else _("No table found yet (asking {target}); still looking...").format(
                target=discovery_target()
            )
        )
        self.query_one("#find-status", Static).update(status)

    def chosen(self) -> FoundTable | None:
        row = self.query_one(DataTable).cursor_row
        return self.found[row] if self.found and row is not None and row < len(self.found) else None

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
