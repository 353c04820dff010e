"""Tables on the LAN, found by discovery and refreshed every few seconds."""

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
from ui.widgets.keybar import KeyBar

REFRESH = 3.0


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
        Binding("enter", "join", N_("Join")),
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
        yield DataTable(id="tables", cursor_type="row")
        yield KeyBar()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(_("table"), _("game"), _("free seats"), _("address"), _("fingerprint"))
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
                t.info.name, game, f"{t.info.free}/{t.info.players}", t.address, t.info.fingerprint
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

    def action_join(self) -> None:
        table = self.chosen()
        if table is not None:
            self.app.show_join(table.address, table.info.fingerprint)  # type: ignore[attr-defined]

    def action_watch(self) -> None:
        table = self.chosen()
        if table is not None:
            self.app.join_table(table.address, self.app.settings.name, None, True)  # type: ignore[attr-defined]
