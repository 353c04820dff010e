"""What every game screen shares: the players, the table, your hand, the log, the chat.

A game screen only renders the seat's view and sends intents; the host decides. Each title
subclasses `GameScreen` with its card looks, its table, its words for events and its keys.

The same screen fits windows from 40x20 (a phone's) up: see `ui.layout` for the classes the
app gives a window by its size, and `ui.games.window_fit` for what the screen shows in each.
"""

from __future__ import annotations

import asyncio
import math
import os
from collections.abc import Callable
from typing import Any, ClassVar

from rich.console import RenderableType
from rich.markup import escape
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import RichLog, Static

from netcards.action import Action
from netcards.bots.search import Analysis, hint_bot
from protocol.client import (
    ChatLine,
    ClockChanged,
    Connected,
    DealChecked,
    Failed,
    GameOver,
    GameStarted,
    HostRefused,
    LinkDown,
    LobbyChanged,
    TableSays,
    ViewChanged,
)
from protocol.errors import ErrorCode
from ui import notices
from ui.awaited_words import waiting_line
from ui.failures import link_lost
from ui.games.absent_end import EndsAbsentGame
from ui.games.window_fit import WindowFit
from ui.i18n import N_, _, names_list, ngettext
from ui.keys import Typed
from ui.option_words import options_in_play
from ui.screen_keys import screen_keys
from ui.screens.between_deals import BetweenDeals
from ui.sending import LINE, MOVE, send
from ui.session import Session, SessionNotice
from ui.widgets.cardface import Look
from ui.widgets.chat import ChatBox
from ui.widgets.hand import Hand
from ui.widgets.keybar import KeyBar
from ui.widgets.players import PlayerRow, PlayersPanel
from ui.widgets.reflow_log import ReflowLog

CLOCK_MARGIN = 0.01
"""How long after a whole second of the turn clock its countdown is drawn again: timers do not
wake early, but a hair late is the next whole second for sure."""
HINT_SECONDS = 1.0  # long enough to search well, short enough not to keep a player waiting
HINT_WORDS = {  # how sure the search is of its move (`Analysis.sureness`)
    "only": N_("Hint: {move} (about {chance}% to win; the only move)"),
    "clear": N_("Hint: {move} (about {chance}% to win; clearly the best)"),
    "likely": N_("Hint: {move} (about {chance}% to win; probably the best)"),
    "close": N_("Hint: {move} (about {chance}% to win; a close call)"),
    "same": N_("Hint: {move} (about {chance}% to win, as with other moves)"),
}
"""`same`: a close call (another move may be as good) where the chance to win is far from even:
"about 80% to win; a close call" read as a doubt about the win itself."""
CLOSE_CALL = range(35, 66)
"""The chances to win (in %) at which a close call between moves is worded as one."""


def upper_first(text: str) -> str:
    """A sentence's first letter up, the rest untouched (names keep their own capitals)."""
    return text[:1].upper() + text[1:]


READ_KEYS = (
    (N_("page up / page down"), N_("Scroll the log")),
    (N_("ctrl+p"), N_("Every key of this screen, as a command to search")),
)
"""Keys a game screen has that are not its bindings (the log's, the app's palette)."""


class GameScreen(WindowFit, EndsAbsentGame):
    """The table of one game.

    | Key | Action |
    | :- | :- |
    | left / right, home / end | Move along your hand |
    | enter (and each game's keys) | Play the card or the selection |
    | page up / page down | Scroll the log |
    | ? | The rules of this game |
    | h | A hint: what the search bot would play in your seat, and its chance to win |
    | c | Chat (enter sends a line and the box stays open; escape goes back to the hand: see ChatInput) |
    | l | In a window under 80 columns: the log and the chat in the table's place, and back |
    | e | At a sealed table that waits for an absent player: end the game for everyone |
    | escape | Back to your hand (from the chat), back to the table (from the log), or leave |

    Keys typed in a burst reach this screen one at a time, each once the one before has been
    handled (`ui.keys`), so every key here acts on what the keys before it did: the hand's
    cursor, the chat box's focus, the move just sent (see `send_soon`). While the chat box has
    the focus the screen's keys step aside (see `check_action`): the box takes them.
    """

    BINDINGS: ClassVar[list[Any]] = [
        Binding("left", "hand_move(-1)", show=False),
        Binding("right", "hand_move(1)", show=False),
        Binding("home", "hand_jump(0)", show=False),
        Binding("end", "hand_jump(-1)", show=False),
        Binding("pageup", "scroll_log(-1)", show=False),
        Binding("pagedown", "scroll_log(1)", show=False),
        Binding("question_mark", "rules", N_("Rules")),
        Binding("h", "hint", N_("Hint")),
        Binding("c", "chat", N_("Chat")),
        Binding("e", "end_game", N_("End game")),
        Binding("l", "log_view(1)", N_("Log")),
        Binding("l", "log_view(0)", N_("Table")),
        Binding("escape", "log_view(0)", N_("Table"), show=False),  # (a replay's closes it)
        Binding("escape", "back", N_("Leave")),
    ]
    EVERYBODY: ClassVar[frozenset[str]] = frozenset(
        {"hand_move", "hand_jump", "scroll_log", "rules", "chat", "log_view", "back"}
    )
    """The keys of watchers too; the others are a player's."""
    BLIND: ClassVar[frozenset[str]] = frozenset({"rules", "back"})
    """The keys that work while the window is too small to show the table (no move is made
    on a table the player cannot see)."""
    game_id: ClassVar[str]
    deal_ends: ClassVar[frozenset[str]] = frozenset()
    """The kinds of event that end a deal (a day, a round, a stage): a summary follows."""
    part_start: ClassVar[str] = ""
    """The kind of event that starts a deal: where a replay's ] and [ go (not to a smaller
    unit inside it, such as an Auf Achse stage's rounds)."""
    next_part: ClassVar[str] = N_("Next day/round")
    previous_part: ClassVar[str] = N_("Previous day/round")
    """A replay's keys to the next and the previous deal, in this game's word."""
    multi_select: ClassVar[bool] = False
    score_title: ClassVar[str] = N_("score")
    next_deal: ClassVar[str] = N_("Next deal in {n}s.")
    """The summary's countdown, in the title's own word for what comes next (day, round...)."""
    move_kinds: ClassVar[frozenset[str]] = frozenset()
    """The kinds of event that say what a seat chose (not what followed from it): those of our
    seat's moves that a bot made for us name the bot (see `stand_in_move`)."""

    def __init__(self, session: Session, *, ascii_mode: bool = False) -> None:
        super().__init__()  # (and the window's layout: `WindowFit`)
        self.session = session
        self.ascii_mode = ascii_mode
        self.message = ""
        self.clock_timer: Any = None
        self.results_shown = False
        self.status_rows = 1
        self.said_for: list[Action] = []
        """The legal moves when the message was said (it stays while they are the same)."""
        self.holds_keys: asyncio.Future[None] | None = None
        """What the keys typed next wait for (see `ui.keys`): the hint being thought out, or
        the host's answer to our move."""
        self.move_answered: asyncio.Future[None] | None = None
        self.last_hint: tuple[tuple[int, tuple[Action, ...]], Analysis] | None = None
        """The hint of the decision being played, by its move number and legal moves: asked
        again, it says the same, instead of a second search that may weigh a close call the
        other way."""
        self.shown_seq: int | None = None
        """The update whose view is on the screen (the client may hold a newer one not drawn
        yet): a key typed now is for its decision (`refuses_key`)."""
        self.stand_in_move = False
        """The event being worded is our seat's move made by a bot (the host's stand-in while
        we were away, or the turn clock's): its subject is that bot, not 'You'."""
        self.deal_shown: bool | None = None
        """Whether the screen last showed the game (True) or that its deal is on its way."""

    # -- layout ------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static("", id="banner")
        yield Static("", id="too-small")
        with Horizontal(id="top"):
            with Vertical(id="left"):
                yield PlayersPanel(ascii_mode=self.ascii_mode, id="players")
                yield Static("", id="table")
            with Vertical(id="right"):
                yield Static(_("Log: pgup/pgdn scroll"), id="log-title")
                yield ReflowLog(wrap=True, markup=True, min_width=10, id="log")
                yield ChatBox(id="chat")
        yield Static("", id="status")
        yield Hand(multi=self.multi_select, ascii_mode=self.ascii_mode, id="hand")
        yield KeyBar(compact=True)  # a game has the most keys: one space between them

    def on_mount(self) -> None:
        if not self.query("#table"):
            return  # pruned before its mount came round: the app is closing, nothing to draw
        self.query_one("#banner").display = False
        self.fit(self.app.size)
        self.shown = 0
        # The table's notices of this game come from now on (earlier ones were the lobby's).
        self.notices_from = self.notices_shown = len(self.table_notices)
        self.log_new_events()
        for line in self.client.chat:
            self.show_chat(line)
        self.refresh_all()
        self.query_one(Hand).focus()
        self.watch_clock()

    def watch_clock(self) -> None:
        """Count the turn clock down in whole seconds while it runs, drawn again as each whole
        second of time left passes (counted from the deadline, not from when the countdown
        was first drawn): from the start too, when the first turn's clock came while the lobby
        was still on the screen. Each `clock` message sets the deadlines afresh."""
        if self.clock_timer is not None:
            self.clock_timer.stop()
            self.clock_timer = None
        changes = [left - (math.ceil(left) - 1) for left in self.clock_left().values() if left > 0]
        if changes:
            self.clock_timer = self.set_timer(min(changes) + CLOCK_MARGIN, self.tick_clock)

    def clock_left(self) -> dict[int, float]:
        """Seat -> seconds left, for each seat asked to act whose turn clock runs."""
        now, to_act = self.clock_now(), set(self.client.to_act)
        return {s: d - now for s, d in self.client.clock.items() if s in to_act}

    def on_screen_resume(self) -> None:
        """Back from the rules or a question: the notices that came meanwhile went to that
        screen, so catch up with the log and the view, and go to the results if it is over.
        (Leaving the results pops this screen on the way too: by then it is no longer on top.)"""
        if not hasattr(self, "shown") or self.app.screen is not self:
            return  # not mounted yet (on_mount shows everything), or passed on the way out
        self.log_new_events()
        self.refresh_all()
        if self.client.outcome is not None:
            self.show_results()

    def show_results(self) -> None:
        if not self.results_shown:
            self.results_shown = True
            self.app.show_results(self.session)  # type: ignore[attr-defined]

    @property
    def client(self) -> Any:
        return self.session.client

    @property
    def view(self) -> dict[str, Any]:
        return self.client.view or {}

    @property
    def seat(self) -> int | None:
        return self.client.seat  # type: ignore[no-any-return]

    def subject(self, seat: int | None, *, mover: bool = True) -> str:
        """A seat as the subject that starts a sentence: 'You', 'The table', or the name as
        its player typed it ('root' stays 'root'); our seat's move a bot made is the bot's
        (`mover`: the sentence says what the seat did, not what it holds)."""
        if seat is not None and seat == self.seat and self.stand_in_move and mover:
            return _("Your stand-in")
        if seat is None or seat == self.seat:
            return upper_first(self.name_of(seat))
        return self.name_of(seat)

    def you_drew(self, cards: list[int], name: Callable[[int], str]) -> str:
        """Cards this seat drew: counted first, as another seat's draw is, then named, so that
        a card named by its number (Via Gladiola's 1) is not read as a count. A draw that is part
        of a move a bot made for us is the bot's (the cards are still ours, so named)."""
        if self.stand_in_move:
            return ngettext(
                "Your stand-in drew {n} card: {cards}",
                "Your stand-in drew {n} cards: {cards}",
                len(cards),
            ).format(n=len(cards), cards=names_list([name(c) for c in cards]))
        return ngettext(
            "You drew {n} card: {cards}", "You drew {n} cards: {cards}", len(cards)
        ).format(n=len(cards), cards=names_list([name(c) for c in cards]))

    @property
    def my_turn(self) -> bool:
        """Asked to act, and no move of ours on its way (see `send_soon`)."""
        return bool(self.client.my_turn)

    def name_of(self, seat: int | None) -> str:
        if seat is None:
            return _("the table")
        if seat == self.seat:
            return _("you")
        names = self.client.names
        return names[seat] if 0 <= seat < len(names) else _("seat {n}").format(n=seat + 1)

    # -- what subclasses provide --------------------------------------------------------------------

    @classmethod
    def result_lines(cls, outcome: Any, names: list[str], config: Any) -> list[str]:
        """The game's breakdown of the final scores, one line per player (results screen)."""
        return []

    def look(self, card: int) -> Look:
        raise NotImplementedError

    def card_code(self, card: int) -> str:
        """A card in one word, as in a list of hands (its face's label, unless the game's
        label leaves out what tells cards apart)."""
        return self.look(card).label.strip()

    def table_text(self) -> RenderableType:
        raise NotImplementedError

    def describe(self, event: dict[str, Any]) -> str | None:
        """The event in words for the log (None: not worth a line)."""
        return None

    def score_of(self, seat: int) -> str:
        return ""

    def score_brief(self, seat: int) -> str | None:
        """`score_of` without its detail, for a players' panel too narrow for both (None: it
        has none)."""
        return None

    def deal_summary(self, event: dict[str, Any]) -> tuple[str, list[str]]:
        """The title and lines of the summary after an event of `deal_ends`."""
        return "", []

    def note_of(self, seat: int) -> str:
        """A few words after the seat's row in the players panel (public facts only)."""
        return ""

    def prompt(self) -> str:
        """What the player may do now, with the keys."""
        return ""

    def hand_cards(self) -> list[int]:
        return list(self.view.get("hand", []))

    def playable(self, legal: list[Action]) -> set[int]:
        cards: set[int] = set()
        for action in legal:
            card = getattr(action, "card", None)
            if isinstance(card, int):
                cards.add(card)
            for c in getattr(action, "cards", ()) or ():
                cards.add(c)
        return cards

    def on_hand_chosen(self, message: Hand.Chosen) -> None:
        """Enter on the hand: subclasses turn the card (or selection) into an action."""

    # -- refreshing ----------------------------------------------------------------------------------

    @property
    def dealing(self) -> bool:
        """The game has begun but this seat has no view of it yet: its deal is on its way. At a
        sealed table the seats' programs seal and shuffle the cards among themselves first,
        which takes a moment (about a second, over a network): no hand to show, nor a move to
        offer, until this seat's hand is known."""
        return not self.view and self.client.outcome is None

    def deal_words(self) -> str:
        if getattr(self.client, "sealed_table", False):
            return _(
                "Sealing the deal: the players' programs shuffle the cards among themselves..."
            )
        return _("Dealing...")

    def show_deal(self) -> None:
        """Say the deal is on its way, or show the game once it has come (the move keys with
        it): each time the one turns into the other."""
        dealt = not self.dealing
        if dealt == self.deal_shown:
            return
        self.deal_shown = dealt
        self.query_one(Hand).empty_words = "" if dealt else self.deal_words()
        self.query_one(Hand).refresh()
        self.refresh_bindings()

    def refresh_all(self) -> None:
        view = self.view
        self.show_deal()
        if not view:
            self.refresh_status()
            return
        to_act = set(self.client.to_act)
        rows = []
        sizes = view.get("hand_sizes", [])
        for seat in range(view.get("players", len(self.client.names))):
            away = False
            notes = [self.note_of(seat)]
            lobby = self.client.lobby
            if lobby is not None and seat < len(lobby.seats):
                info = lobby.seats[seat]
                away = info.kind == "human" and not info.connected
                if info.stand_in:
                    notes.append(_("a bot plays"))
            deadline = self.client.clock.get(seat)
            if deadline is not None and seat in to_act:
                # Whole seconds, up: "1s left" for the last one, 0 only once it has run out.
                left = max(0, math.ceil(deadline - self.clock_now()))
                notes.append(_("{n}s left").format(n=left))
            rows.append(
                PlayerRow(
                    seat,
                    self.client.names[seat] if seat < len(self.client.names) else str(seat),
                    sizes[seat] if seat < len(sizes) else None,
                    self.score_of(seat),
                    seat in to_act and not view.get("over"),
                    seat == self.seat,
                    away,
                    ", ".join(n for n in notes if n),
                    self.score_brief(seat),
                )
            )
        self.drawn_for = (self.table_width(), self.narrow)
        self.shown_seq = getattr(self.client, "seq", None)  # (a replay numbers no updates)
        # In a narrow window the panel is as wide as the window (its padding aside).
        width = self.app.size.width - 2 if self.narrow else None
        self.query_one(PlayersPanel).show(rows, _(self.score_title), width)
        self.query_one("#table", Static).update(self.table_text())
        legal = self.legal()
        cards = self.hand_cards()
        hand = self.query_one(Hand)
        hand.set_cards(cards, [self.look(c) for c in cards], self.playable(legal))
        self.refresh_status()

    def clock_now(self) -> float:
        return asyncio.get_running_loop().time()

    def tick_clock(self) -> None:
        """A whole second of a turn clock has passed: the players panel counts down."""
        self.clock_timer = None
        if self.client.clock and self.client.to_act:
            self.refresh_all()
        self.watch_clock()

    def refresh_status(self) -> None:
        """The status line alone: the message, then the prompt (cheap enough for every key)."""
        status = Text()
        if self.message:
            status.append("! " + self.message + "  ", style="bold red")
        if self.seat is None:
            status.append(_("Watching") + ": ", style="bold")
        status.append(self.waiting() or (self.deal_words() if self.dealing else self.prompt()))
        away = self.away_words()
        if away:
            status.append("  " + away, style="bold")
        line = self.query_one("#status", Static)
        width = self.status_width()
        # A message before the prompt may need a second row; a narrow window a third.
        rows = min(3 if self.narrow else 2, len(status.wrap(self.app.console, width)))
        if rows != self.status_rows:
            self.status_rows = rows
            line.styles.height = rows
        line.update(status, layout=False)

    def waiting(self) -> str:
        """Whom a sealed table waits for, and for what, while it waits on a step (no move is
        offered meanwhile): in place of the prompt, which would name whose turn it is."""
        found = getattr(self.client, "awaited", ())  # (a replay waits for nobody)
        if not found or self.view.get("over"):
            return ""
        return waiting_line(found, self.client.names, self.seat)

    def say(self, text: str) -> None:
        """A line in the status bar until the next move (errors, hints): the others' moves
        in the meantime (simultaneous choices) leave it, as long as this seat's choice is
        the same one."""
        self.message = text
        self.said_for = self.legal()
        self.refresh_all()

    def log_new_events(self) -> None:
        """Write the events of the client's log not shown yet (the log is the one truth: it is
        whole again after a rejoin, and notices may arrive for events already written)."""
        log = self.client.log
        if len(log) < self.shown:  # the log was sent again from the start (a rejoin)
            self.query_one("#log", RichLog).clear()
            self.shown = 0
            self.notices_shown = self.notices_from
        by_bot = self.stand_in_events()
        for index in range(self.shown, len(log)):
            self.log_notices(index)
            self.log_event(log[index], stand_in=index in by_bot)
        self.shown = len(log)
        self.log_notices(len(log))

    @property
    def table_notices(self) -> list[TableSays]:
        return list(getattr(self.client, "notices", ()))  # a replay has none

    def log_notices(self, upto: int) -> None:
        """The table's notices not written yet that came before event `upto` of the log: in
        their place among the moves, also those that came while another screen was on top
        (the turn clock's, while a deal's summary was read)."""
        notes = self.table_notices
        while self.notices_shown < len(notes) and notes[self.notices_shown].at <= upto:
            self.log_notice(notes[self.notices_shown])
            self.notices_shown += 1

    def log_notice(self, notice: TableSays) -> None:
        line = notices.say(notice.code, notice.args, self.seat)
        self.query_one("#log", RichLog).write(escape("* " + line))

    def stand_in_events(self) -> set[int]:
        """Where in the log are the events of our seat's moves that a bot made for us."""
        moves = getattr(self.client, "moves", None)
        found: set[int] = set()
        if moves is None:
            return found
        index = 0
        for seq, step in self.client.steps:
            if moves.by_stand_in(seq):
                found.update(range(index, index + len(step)))
            index += len(step)
        return found

    def log_event(self, event: dict[str, Any], stand_in: bool = False) -> None:
        line = self.log_line(event, stand_in)
        if line:
            self.query_one("#log", RichLog).write(escape(line))

    def log_line(self, event: dict[str, Any], stand_in: bool = False) -> str | None:
        """The event's line; `stand_in`: it came with a move a bot made for our seat."""
        self.stand_in_move = (
            stand_in and event.get("kind") in self.move_kinds and event.get("seat") == self.seat
        )
        try:
            return self.describe(event)
        finally:
            self.stand_in_move = False

    def show_chat(self, line: ChatLine) -> None:
        self.query_one(ChatBox).add(line.name, line.text, watching=line.seat is None)

    # -- the table talking --------------------------------------------------------------------------

    def on_session_notice(self, message: SessionNotice) -> None:
        notice = message.notice
        self.answered()
        if isinstance(notice, ViewChanged):
            self.log_new_events()
            if self.legal() != self.said_for:
                self.message = ""
            self.refresh_all()
            self.sum_up(notice.events)
        elif isinstance(notice, ChatLine):
            self.show_chat(notice)
        elif isinstance(notice, TableSays):
            # In the log, among the moves it speaks of: the chat pane is the people's.
            self.log_new_events()
            if notice not in self.table_notices:  # one the client does not keep in order
                self.log_notice(notice)
            self.refresh_bindings()  # (a seat absent, or back: `e`)
        elif isinstance(notice, LobbyChanged | ClockChanged):
            self.refresh_all()
            self.watch_clock()
        elif isinstance(notice, HostRefused):
            self.say(notices.refusal(notice.code, notice.text))
        elif isinstance(notice, LinkDown):
            banner = self.query_one("#banner", Static)
            banner.update(link_lost(notice))
            banner.display = True
        elif isinstance(notice, Connected):
            self.query_one("#banner").display = False
            # (true of the link that was down, not of this one)
            if self.message == _(MOVE.not_connected):
                self.message = ""
                self.refresh_all()
        elif isinstance(notice, GameStarted):
            self.refresh_all()
        elif isinstance(notice, GameOver):
            self.refresh_all()
            self.show_results()
        elif isinstance(notice, DealChecked | Failed):
            self.app.handle_session_end(notice)  # type: ignore[attr-defined]

    def send_soon(self, action: Action) -> None:
        """Send a move chosen by a key. The move is on its way at once (the client's
        `awaiting`, which the host's answer or refusal clears), and the keys that follow in
        the same burst wait for that answer (`ui.keys`, as for the hint): each then acts on
        what the move did, as for a person who waited. A second enter after the turn is
        played sends nothing; a second card to give back is given from the hand as it is
        after the first."""
        self.client.awaiting = True
        self.message = ""
        self.move_answered = self.holds_keys = asyncio.get_running_loop().create_future()
        self.run_worker(self.send(action), group="move")

    def answered(self) -> None:
        """The host has answered our move (or the link that would bring it is down): the
        keys held behind it go on."""
        held = self.move_answered
        if held is not None and not held.done() and not self.client.awaiting:
            held.set_result(None)

    def sum_up(self, events: Any) -> None:
        """A deal ended (and the game goes on): say who scored what before the next one."""
        kinds = [e["kind"] for e in events]
        ends = [e for e in events if e["kind"] in self.deal_ends]
        if not ends or "game_end" in kinds or self.client.outcome is not None:
            return
        if self.seat is None:
            return  # a watcher sets nobody's pace: the log has it
        if self.app.screen is not self:
            return  # the rules or a question are open: the log has it
        title, lines = self.summary_of(ends[-1])
        self.app.push_screen(BetweenDeals(title, lines, countdown=_(self.next_deal)))

    def summary_of(self, end: dict[str, Any]) -> tuple[str, list[str]]:
        """`deal_summary`, naming the move that ended the deal as the log named it: one a bot
        made for us (the stand-in walked the Finish) is the bot's."""
        log, by_bot = self.client.log, self.stand_in_events()
        self.stand_in_move = any(log[i] is end for i in by_bot if i < len(log))
        try:
            return self.deal_summary(end)
        finally:
            self.stand_in_move = False

    async def send(self, action: Action) -> None:
        self.message = ""
        unsent = await send(MOVE, self.client.act, action)
        if unsent is not None:  # no answer is coming: the turn is still ours, the keys go on
            self.client.awaiting = False
            self.say(unsent)
            self.answered()

    def legal(self) -> list[Action]:
        return self.client.legal_actions() if self.my_turn else []

    # -- keys ------------------------------------------------------------------------------------------

    def action_rules(self) -> None:
        config, game = self.client.config, self.client.game
        options = options_in_play(game.option_specs, config.options) if config and game else []
        keys = [(k.key, k.description) for k in screen_keys(self.app, self)]
        keys += [(_(key), _(what)) for key, what in READ_KEYS]
        self.app.show_rules(self.game_id, options, keys)  # type: ignore[attr-defined]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Take (and show) a key only when it means something: none while the chat has the
        focus (they type); a watcher has no player's keys; each game says about its own keys
        in `can_use`."""
        if self.chatting:
            return False
        if self.too_small and action not in self.BLIND:
            return False
        if action == "log_view":  # behind its key: open it (1) when shut, shut it when open
            return self.log_behind_key and bool(parameters and parameters[0]) != self.log_open
        if action in self.EVERYBODY:
            return True
        if self.dealing:
            return False  # no move, nor a hint, before the hand is known
        if self.seat is None:
            return False
        if action == "end_game":  # only while a sealed game waits for an absent player
            return bool(self.absent())
        return self.can_use(action, parameters)

    def can_use(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A player's key now: True, None (shown greyed: not now), False (hidden)."""
        if action == "hint":
            return True if self.my_turn else None
        return True

    def shown_now(self) -> int | None:
        """What a key typed now is for (`ui.keys`): the update on the screen."""
        return self.shown_seq

    def refuses_key(self, typed: Typed) -> bool:
        """A player's key typed for a decision that a bot has made since (the turn clock ran
        out, or the stand-in played while we were away) is too late: it is dropped, never
        played on the decision that came after, and the status line says so in the words of
        the host's own `stale_seq`. The keys that make no move (the hand's cursor, the log,
        the rules, the chat, leaving) go on as typed."""
        if not isinstance(typed.event, events.Key):
            return False  # a paste is text for the chat, never a move
        shown = typed.shown if typed.screen is self else None
        moves = getattr(self.client, "moves", None)  # a replay has no moves of its own
        if not isinstance(shown, int) or self.seat is None or moves is None:
            return False
        if not any(seq > shown for seq in moves.by_bot):
            return False
        active = self.active_bindings.get(typed.event.key)
        if active is None or active.node is not self:
            return False
        if active.binding.action.split("(")[0] in self.EVERYBODY:
            return False
        self.say(notices.refusal(ErrorCode.STALE_SEQ, ""))
        return True

    def on_key(self, event: events.Key) -> None:
        """A key the key bar shows greyed (a move, the hint: they wait for this seat's turn) does
        nothing when typed; the status line says why, so that a key typed too early is not
        taken for a key the program missed."""
        if self.seat is None or self.view.get("over") or self.dealing:
            return  # (while dealing, the status line already says why nothing moves)
        active = self.active_bindings.get(event.key)
        if active is None or active.enabled or active.node is not self:
            return
        if active.binding.action == "hint":
            self.say(_("A hint is for your own turn."))
        else:
            self.say(_("It is not your turn yet."))

    def action_hand_move(self, step: int) -> None:
        self.query_one(Hand).action_move(step)

    def action_hand_jump(self, where: int) -> None:
        self.query_one(Hand).action_jump(where)

    def action_scroll_log(self, direction: int) -> None:
        log = self.query_one("#log", RichLog)
        if direction < 0:
            log.scroll_page_up(animate=False)
        else:
            log.scroll_page_down(animate=False)

    def action_chat(self) -> None:
        if self.log_behind_key and not self.log_open:
            self.log_for_chat = True
            self.show_log(True)
        self.set_focus(self.query_one("#chat-input"))  # at once: the next key may be text

    async def on_chat_box_said(self, message: ChatBox.Said) -> None:
        unsent = await send(LINE, self.client.say, message.text)
        if unsent is not None:
            self.say(unsent)

    def on_chat_box_closed(self, message: ChatBox.Closed) -> None:
        self.query_one(Hand).focus()
        if self.log_for_chat:  # the chat key opened the log: back to the table, as it came
            self.log_for_chat = False
            self.show_log(False)

    def describe_move(self, action: Action) -> str:
        """A legal move in words, for the hint (each title words its own moves)."""
        return str(action)

    def action_hint(self) -> None:
        legal = self.legal()
        if not legal or self.seat is None:
            self.say(_("A hint is for your own turn."))
            return
        self.say(_("Thinking..."))
        # The keys typed after h wait for the hint (`ui.keys`): enter then plays the hinted card.
        self.holds_keys = asyncio.get_running_loop().create_future()
        self.run_worker(self.find_hint(legal, self.holds_keys), exclusive=True, group="hint")

    async def find_hint(self, legal: list[Action], found_it: asyncio.Future[None]) -> None:
        try:
            await self.think_hint(legal)
        finally:
            if not found_it.done():
                found_it.set_result(None)

    async def think_hint(self, legal: list[Action]) -> None:
        """The search bot, thinking off the event loop on what this seat sees and saw; the
        answer is shown only if the turn it was asked about is still the one being played."""
        client, seat = self.client, self.seat
        assert seat is not None
        asked = (client.seq, tuple(legal))
        if self.last_hint is not None and self.last_hint[0] == asked:
            found = self.last_hint[1]
        else:
            bot = hint_bot(client.game, client.config, seat, HINT_SECONDS, os.urandom(32))
            found = await asyncio.to_thread(bot.analyse, dict(self.view), legal, list(client.log))
        if not self.my_turn or self.legal() != legal:
            return  # that turn was played (the others' choices meanwhile do not change it)
        self.last_hint = (asked, found)
        chance = round(100 * found.win_chance)
        sureness = found.sureness
        if sureness == "close" and chance not in CLOSE_CALL:
            sureness = "same"
        hint = _(HINT_WORDS[sureness]).format(move=self.describe_move(found.action), chance=chance)
        key = self.key_for(found.action)
        # A move of no card (rest, pass, a player to choose): enter would not make it.
        self.say(hint if key is None else hint + " " + _("(press {key})").format(key=key))
        self.point_at(found.action)

    def key_for(self, action: Action) -> str | None:
        """The key that makes `action` when it is not enter on a card (each game knows)."""
        return None

    def point_at(self, action: Action) -> None:
        """Put the hand's cursor on the card of `action` (and select its cards when it has
        several), so that enter plays what the hint said. A move of no card (a rest, a pass)
        clears the selection: the prompt must not offer to play cards the hint advised against."""
        card = getattr(action, "card", None)
        cards = (card,) if isinstance(card, int) else tuple(getattr(action, "cards", ()) or ())
        hand = self.query_one(Hand)
        if cards:
            hand.point_at(cards)
        else:
            hand.clear_selection()
        self.refresh_status()

    def action_back(self) -> None:
        self.app.confirm_leave()  # type: ignore[attr-defined]
