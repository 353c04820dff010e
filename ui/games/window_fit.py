"""A game screen in windows of every size: which of its parts a window shows (`ui.layout`).

From 80x24 the table, the log and the chat side by side; narrower, the log and the chat behind
`l` in the table's place; shorter, the hand as card words; below 40x20 a word on the size the
window needs. Switching shows and hides parts of one screen and never rebuilds them: the card
under the cursor, the selection, the chat line being typed and the log are there after it.
The table's lines that are made of parts (`parts_line`) break between two parts, never inside
one, at the width the table has.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import Static

from ui.i18n import _
from ui.layout import FULL, SMALLEST, TALL_ROWS, too_small
from ui.widgets.hand import Hand
from ui.widgets.reflow_log import ReflowLog


class WindowFit(Screen[None]):
    """What a game screen (`ui.games.base.GameScreen`) shows of itself in a window: the
    parts it composes are `#too-small`, `#top` (`#left`: the players and `#table`; `#right`:
    the log and the chat), `#status` and the `Hand`."""

    ascii_mode: bool

    def __init__(self) -> None:
        super().__init__()
        self.too_small = False
        """The window cannot show the table: only the keys that do not need to see it work."""
        self.short = False
        """The window has fewer rows than the full layout's (`ui.layout`)."""
        self.narrow = False
        """The window is too narrow for the log and the chat beside the table (`ui.layout`):
        they are behind a key (`log_open`)."""
        self.log_behind_key = False
        """Narrow but not tall: the log and the chat are behind `l`, in the table's place."""
        self.log_open = False
        """The log and the chat are shown in the table's place (`log_behind_key`)."""
        self.log_for_chat = False
        """The log was opened by the chat key: closing the chat closes it too."""
        self.shows = (False, False, False)
        """What the window shows: too small, the log behind its key, the log in the table's
        place."""
        self.drawn_for = (0, False)
        """The table's width and whether the window was narrow when the table was drawn."""

    @property
    def chatting(self) -> bool:
        return self.focused is not None and self.focused.id == "chat-input"

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size)

    def fit(self, size: Size) -> None:
        """The layout for a window of `size`, switched as it is resized, mid-game, with
        nothing lost (the widgets stay; only what is shown changes):

        - from 80x24, the full table, the log and the chat beside it;
        - narrower, the table alone, the log and the chat in its place behind a key (`l`, and
          `c` for the chat, which goes back with escape as it came); narrow but tall (36 rows
          or more, a phone held upright), the log and the chat under the table;
        - shorter, or narrow, the hand as words when its boxes would take the table's rows;
        - below 40x20, a word on how big the window must be instead of a table cut to pieces.
        """
        if len(self.query("#left, #right")) < 2:
            return  # taken down before it was ever shown (the game failed at once)
        small = too_small(size)
        narrow = not small and size.width < FULL.width
        stacked = narrow and size.height >= TALL_ROWS  # the log under the table
        behind_key = narrow and not stacked
        if behind_key and self.chatting and not self.log_open:
            self.log_open = self.log_for_chat = True  # the line being typed stays in sight
        elif not behind_key:
            self.log_open = self.log_for_chat = False
        self.too_small, self.narrow, self.short = small, narrow, size.height < FULL.height
        self.log_behind_key = behind_key
        notice = self.query_one("#too-small", Static)
        notice.display = small
        for part in ("#top", "#status", "#hand"):
            self.query_one(part).display = not small
        log_view = behind_key and self.log_open
        self.query_one("#left").display = not log_view
        self.query_one("#right").display = not behind_key or log_view
        compact = narrow or self.short
        # The compact layout's rows are taken (a tall one's for the log): any beyond them may
        # hold the cards' boxes.
        taken = TALL_ROWS if stacked else SMALLEST.height
        self.query_one(Hand).fit_lines(max(0, size.height - taken) if compact else None)
        shown, self.shows = self.shows, (small, behind_key, log_view)
        if shown != self.shows:
            self.refresh_bindings()  # the table's keys go with the table, and come back with it
            # Hidden, the hand lost the focus (its cursor is drawn only with it), and the logs
            # wrapped what came meanwhile at no width: both as they were, once laid out again.
            if not small and not self.chatting:
                self.set_focus(self.query_one(Hand))  # at once: `c` puts it in the chat next
            self.call_after_refresh(self.reflow_logs)
        self.call_after_refresh(self.redraw_if_resized)
        if small:
            times = "x" if self.ascii_mode else "\u00d7"  # the multiplication sign
            notice.update(
                _("This window is {size}: make it at least {minimum} to see the table.").format(
                    size=f"{size.width}{times}{size.height}",
                    minimum=f"{SMALLEST.width}{times}{SMALLEST.height}",
                )
            )

    def reflow_logs(self) -> None:
        for log in self.query(ReflowLog):
            log.reflow()

    def redraw_if_resized(self) -> None:
        """Laid out at a new size: the players' names and the table's lines are cut again to
        the width they have now (not when it is the one they were drawn for)."""
        if self.drawn_for != (self.table_width(), self.narrow):
            self.refresh_all()

    def table_width(self) -> int:
        """The table's columns (its padding aside); before the first layout, the ones the
        styles will give it (a wide window's log column takes 40%, 32 columns at least)."""
        width = self.query_one("#table", Static).content_size.width
        if width:
            return width
        total = self.app.size.width
        return total - 2 if total < FULL.width else total - max(32, total * 2 // 5) - 2

    def parts_line(self, parts: list[Text], sep: str) -> Text:
        """Parts of one line of the table joined by `sep`, broken between two parts (never
        inside one: "next out +4" stays whole) where the table is too narrow for them all."""
        width, used = self.table_width(), 0
        texts: list[str] = []
        styles: list[str | Style] = []
        for part in parts:
            text, style = part.plain, part.style
            if used and used + len(sep) + len(text) > width:
                text, used = "\n" + text, 0
            elif used:
                text = sep + text
                used += len(sep)
            if styles and style == styles[-1]:  # one run of a style (bold parts, bold sep)
                texts[-1] += text
            else:
                texts.append(text)
                styles.append(style)
            used += len(part.plain)
        return Text.assemble(*zip(texts, styles, strict=True))

    def status_width(self) -> int:
        """The status line's columns (its padding aside)."""
        line = self.query_one("#status", Static)
        return line.content_size.width or max(1, self.app.size.width - 2)

    def status_room(self) -> int:
        """The room for a prompt: a row of the status line (two in a narrow window), and two
        columns for the message mark of a word said before it."""
        return (self.status_width() - 2) * (2 if self.narrow else 1)

    def action_log_view(self, show: int) -> None:
        self.log_for_chat = False
        self.show_log(bool(show))

    def show_log(self, show: bool) -> None:
        """The log and the chat in the table's place (or the table back), where they are
        behind a key (`log_behind_key`)."""
        self.log_open = show
        self.fit(self.size)

    def refresh_all(self) -> None:
        """Draw everything again (the game screen's)."""
        raise NotImplementedError
