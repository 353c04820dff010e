"""The app as a guest of the host's SSH door runs it: this one table, and nothing else.

The process runs on the host's machine, as the host's user, for someone who only has `ssh`. So
it must not become a way into that machine: no menu (hosting would open ports there, joining
elsewhere would reach other machines from it, a deck file would read its files), no command
palette (it saves screenshots), no links opened, no replays or settings saved. Leaving the
table, or the end of the game, ends the app, and with it the guest's SSH session.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import threading
from typing import IO, Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from protocol.client import Failed, TableClosed
from ui.app import JoinPlan, NetcardsApp
from ui.i18n import N_, _
from ui.screens.confirm import Notice
from ui.terminal import unicode_ok
from ui.user_settings import UserSettings

CRASHED = N_(
    "netcards stopped on an unexpected error; the table goes on without this app. "
    "Tell the host, and come back through the door to take your seat again."
)


class DoorScreen(Screen[None]):
    """What lies under the table for a guest: nothing to choose."""

    def compose(self) -> ComposeResult:
        yield Static(_("netcards, through the host's SSH door"), id="menu-subtitle")


class GuestApp(NetcardsApp):
    """netcards for a guest of the SSH door.

    | Key | Action |
    | :- | :- |
    | ctrl+q, ctrl+c | Quit (ends the SSH session) |
    """

    ENABLE_COMMAND_PALETTE = False
    writes_files = False
    through_the_door = True
    """The guest's program runs on the host's machine: a sealed table's lobby must not tell
    them the host cannot see their cards."""

    def on_mount(self, event: events.Mount | None = None) -> None:
        if event is not None:
            event.prevent_default()  # not the menu underneath, as the app's own on_mount does
        self.apply_settings(language=False)
        self.push_screen(DoorScreen())
        plan = self.start_join
        assert plan is not None
        self.join_table(plan.address, self.settings.name, plan.password, plan.spectator)

    def menu_choice(self, key: str) -> None:
        self.exit()

    def back_to_menu(self) -> None:
        self.exit()

    def play_again(self, lobby: Any = None) -> None:
        self.exit()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The palette is off: its key is not offered (nor listed by `?`)."""
        return action != "command_palette"

    def table_closed(self, notice: TableClosed) -> None:
        """The results so far, as any player's; in the lobby, the end of the app, with the
        reason printed on the guest's terminal once the app has left it."""
        if notice.standings is None:
            self.exit(message=_("The host closed the table."))
            return
        super().table_closed(notice)

    def handle_session_end(self, notice: Any) -> None:
        session = self.session
        if isinstance(notice, Failed) and (session is None or session.client.outcome is None):
            self.push_screen(
                Notice(notice.reason, loud=True), lambda _answer: self.exit(return_code=1)
            )
            return
        super().handle_session_end(notice)

    def _handle_exception(self, error: Exception) -> None:
        """An unexpected error still ends the app, but with one line, not Textual's traceback:
        that shows the host's source paths and the local variables of every frame (the seat
        token, the table password the door hands the app), on a terminal the host does not
        own. (The app's environment never has Textual's TEXTUAL debug features: the door
        builds it from scratch.)"""
        super()._handle_exception(error)
        self._exit_renderables[:] = [Text(_(CRASHED))]

    def open_url(self, url: str, *, new_tab: bool = True) -> None:
        self.notify(_("Links do not open through the SSH door."), severity="warning")

    def deliver_screenshot(
        self, filename: str | None = None, path: str | None = None, time_format: str | None = None
    ) -> str | None:
        return None


def make_guest_app(settings: UserSettings, join: JoinPlan, ascii_mode: bool | None) -> GuestApp:
    if ascii_mode is None and not unicode_ok():
        ascii_mode = True
    return GuestApp(settings, join=join, ascii_mode=ascii_mode)


def quiet_tracebacks(err: IO[str]) -> None:
    """Outside Textual too, no traceback reaches a guest's terminal (the app's stderr): an error
    that ends the program is said in the one line of `CRASHED`; one in another thread or in a
    finalizer, which ends nothing, and asyncio's log of a task that failed unwatched, are not
    printed at all."""

    def ended(*_args: object) -> None:
        with contextlib.suppress(Exception):  # a terminal already gone is nothing to report
            err.write(_(CRASHED) + "\n")
            err.flush()

    def unsaid(*_args: object) -> None:
        return None

    sys.excepthook = ended
    threading.excepthook = unsaid
    sys.unraisablehook = unsaid
    asyncio_log = logging.getLogger("asyncio")
    asyncio_log.addHandler(logging.NullHandler())
    asyncio_log.propagate = False
