"""Between two deals (a day, a round, a stage): who scored what, before the next one starts.

The table goes on underneath (the host does not wait, and bots may already play the next
deal); this screen holds the player's keys until they have read it: a key closes it, or it
closes by itself when its countdown runs out. The keys of the first moment are not taken, so
that the last keys of a burst that ended the deal do not close it unread; and a key typed
while it was showing never acts on the table under it, however late it is handled (a double
enter to skip it, one typed as the countdown closed it): see `keeps_its_keys`.
"""

from __future__ import annotations

import time

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ui.i18n import N_, _
from ui.widgets.keybar import KeyBar

SECONDS = 15
"""How long the summary stays at most."""
READING = 0.7
"""The first moment, when keys are not taken (longer than a double press or an SSH burst)."""


class BetweenDeals(ModalScreen[None]):
    """The end of a deal, summed up.

    | Key | Action |
    | :- | :- |
    | enter / space / escape | Go on to the next deal |
    | up / down, page up / page down | Scroll the summary (in a window too short for it) |
    """

    BINDINGS = [Binding("enter,space,escape", "go_on", N_("Go on"), priority=True)]
    AUTO_FOCUS = ""  # none: the lines take their scroll keys after the first moment (`take_keys`)
    keeps_its_keys = True
    """The keys typed while it shows are for it alone: once it has closed, those still on
    their way are dropped (`ui.keys`), not played on the table, which the player has not
    seen yet; the keys typed once the table shows act on it at once."""

    def __init__(
        self,
        title: str,
        lines: list[str],
        *,
        seconds: float | None = None,
        countdown: str | None = None,
    ) -> None:
        super().__init__()
        self.countdown = countdown or _("Next deal in {n}s.")
        self.title_text = title
        self.lines = lines
        self.seconds = SECONDS if seconds is None else seconds
        self.opened = time.monotonic()

    def taking_keys(self) -> bool:
        """Past `READING`: a key now answers the summary, it is not left from a burst."""
        return time.monotonic() - self.opened >= READING

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter is shown dimmed while the summary cannot be left yet (`READING`)."""
        return True if action != "go_on" or self.taking_keys() else None

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.title_text, classes="form-title")
            # Five players' runs and totals are more lines than a phone's window has rows:
            # they scroll (up / down), between the title and the countdown, which stay.
            with VerticalScroll(id="between-scroll"):
                yield Static("\n".join(self.lines), id="between-lines")
            yield Static("", id="between-countdown")
        yield KeyBar()  # the bottom line always names the keys, over a summary too

    def on_resize(self, event: events.Resize) -> None:
        """The lines take the rows the title, the countdown, the frame and the key bar leave."""
        for lines in self.query("#between-scroll"):  # (none once the screen is on its way out)
            lines.styles.max_height = max(3, event.size.height - 8)

    def on_mount(self) -> None:
        self.opened = time.monotonic()
        self.tick()
        self.set_interval(0.25, self.tick)
        self.set_timer(READING, self.take_keys)

    def take_keys(self) -> None:
        """The key bar shows enter taken; the arrows scroll the lines (not before: the arrows
        of a burst that ended the deal would)."""
        self.refresh_bindings()
        for lines in self.query("#between-scroll"):  # (none once the screen is on its way out)
            lines.focus()

    def tick(self) -> None:
        """The countdown, once a quarter second; at its end the summary goes. A tick that comes
        as the screen is on its way out (the table closed under it: the results replace it)
        or while another screen is over it (a question) does nothing."""
        shown = self.query("#between-countdown").results(Static)
        countdown = next(shown, None)
        if countdown is None or not self.is_current:
            return
        elapsed = time.monotonic() - self.opened
        left = max(0, round(self.seconds - elapsed))
        if elapsed >= self.seconds:
            self.dismiss()
            return
        line = self.countdown.format(n=left)
        if elapsed >= READING:
            line += " " + _("Press enter to go on now.")
        countdown.update(line)

    def action_go_on(self) -> None:
        if self.taking_keys():
            self.dismiss()
