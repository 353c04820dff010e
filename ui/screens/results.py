"""The end of a game: places and scores with each game's breakdown, and the deal check."""

from __future__ import annotations

from rich import box
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Static

from netcards.fairdeal import Verdict
from protocol.client import DealChecked, Failed, ViewChanged
from protocol.sealed_play.awaited import reasons_in_words
from ui import notices
from ui.awaited_words import WHOLE_REASONS, unchecked_reasons, waiting_line
from ui.games import screen_class
from ui.i18n import N_, _
from ui.layout import NARROW
from ui.session import Session, SessionNotice
from ui.widgets.keybar import KeyBar


class ResultsScreen(Screen[None]):
    """The results. They come up right after a player's last move, maybe while a burst of
    keys is still arriving: so enter and space do nothing here (the scores have the focus,
    not a button), and only a key of its own leaves the screen. The title stays put above
    the scores, which scroll.

    | Key | Action |
    | :- | :- |
    | a | Play again |
    | s | Save the replay (once the deal is checked; a game that has none says why) |
    | m / escape | Back to the menu (a guest of the SSH door: leave, which ends their session) |
    | up / down, page up / page down | Scroll the results |
    """

    BINDINGS = [
        Binding("a", "again", N_("Play again")),
        Binding("s", "save", N_("Save replay")),
        Binding("m,escape", "menu", N_("Menu")),
        Binding("m,escape", "leave", N_("Leave")),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        yield Static(_("Game over"), id="results-title")
        with VerticalScroll(id="results"):
            yield Static("", id="results-table")
            yield Static("", id="results-detail")
            yield Static(_("Checking the deal..."), id="verdict")
            yield Static("", id="saved")
            yield Static(
                _("The host closes this table now: there is no next game here."), id="last"
            )
            with Horizontal(id="form-buttons"):
                yield Button(_("Play again (a)"), id="again", variant="primary")
                # A guest of the SSH door has no menu here: leaving ends their session.
                yield Button(_("Leave (m)") if self._guest else _("Menu (m)"), id="menu")
        yield KeyBar()

    def closed_words(self, *, so_far: bool) -> str:
        """Who closed the table: its host, or a player who ended a sealed game while a seat
        was absent (the `ended` notice says who, and whom the game waited for)."""
        client = self.session.client
        said = getattr(client, "notices", [])
        ended = next((n for n in reversed(said) if n.code == "ended"), None)
        if ended is not None:
            return notices.say("ended", dict(ended.args), client.seat) + (":" if so_far else ".")
        if self.session.host is not None:
            return (
                _("You closed the table. Results so far:") if so_far else _("You closed the table.")
            )
        if so_far:
            return _("The host closed the table. Results so far:")
        return _("The host closed the table.")

    def on_mount(self) -> None:
        client = self.session.client
        self.show_waiting()
        self.query_one("#again", Button).display = self.can_play_again()
        self.query_one("#last", Static).display = client.last_game and not self._guest
        outcome = client.outcome or client.standings  # standings: the host closed the table
        if outcome is None:
            if client.verdict is not None:  # a sealed game closed halfway, scored from its hands
                self.query_one("#results-title", Static).update(self.closed_words(so_far=False))
                self.query_one("#results-detail", Static).update(
                    _("No results so far: they need cards that are still sealed.")
                )
                self.show_verdict(client.verdict)
                self.show_replay_missing()
            return
        names = list(client.names)
        if not client.outcome:
            self.query_one("#results-title", Static).update(self.closed_words(so_far=True))
        ascii_mode = bool(getattr(self.app, "ascii_mode", False))
        # In a narrow window (a phone's) no frame around the columns: its seven columns of
        # lines and padding cut "winner" and the score's title short at 40 columns.
        narrow = self.app.has_class(NARROW)
        frame = box.SIMPLE_HEAD if narrow else box.ASCII if ascii_mode else box.HEAVY_HEAD
        table = Table(expand=False, box=frame, show_edge=not narrow, pad_edge=not narrow)
        if narrow:
            table.padding = (0, 1, 0, 0)  # with the blank line between two columns: two spaces
        table.add_column(_("place"))
        table.add_column(_("player"))
        screen = screen_class(client.game.id) if client.game else None
        table.add_column(_(screen.score_title) if screen is not None else _("score"))
        # A game the host stopped has no winner yet: those ahead are leading (nobody, if level,
        # and then no column for the word: an empty one, untitled, read as something missing).
        over = client.outcome is not None
        marked, word = (outcome.winners, _("winner")) if over else (outcome.leaders(), _("leading"))
        if marked:
            table.add_column("")
        for seat in sorted(range(len(names)), key=lambda s: outcome.places[s]):
            you = _(" (you)") if seat == client.seat else ""
            cells = [str(outcome.places[seat]), names[seat] + you, str(outcome.scores[seat])]
            if marked:
                cells.append(word if seat in marked else "")
            table.add_row(*cells)
        self.query_one("#results-table", Static).update(table)
        if screen is not None:
            self.query_one("#results-detail", Static).update(
                Text("\n".join(screen.result_lines(outcome, names, client.config)))
            )
        if client.verdict is not None:
            self.show_verdict(client.verdict)
            self.show_replay_missing()
        self.query_one("#results", VerticalScroll).focus()

    def show_verdict(self, verdict: Verdict) -> None:
        shown = self.query_one("#verdict", Static)
        ascii_mode = bool(getattr(self.app, "ascii_mode", False))
        good, bad = ("+", "!") if ascii_mode else ("✓", "✗")
        if verdict.ok:
            sealed = getattr(self.session.client, "sealed", None) is not None
            said = (
                _(
                    "deal verified: the cards stayed sealed among the players (the host could "
                    "neither see nor choose them), and every move checks out"
                )
                if sealed
                else _(
                    "deal verified: the host could not choose the cards, and every move checks out"
                )
            )
            text = Text(good + " " + said, style="bold green")
            for caveat in verdict.caveats:  # what could not be checked, say for a late spectator
                text.append("\n" + caveat, style="dim")
            shown.update(text)
        elif verdict.problems:
            shown.update(
                Text(
                    bad + " " + _("deal NOT verified: ") + "; ".join(verdict.problems),
                    style="bold red",
                )
            )
        else:  # neither verified nor caught: why, in the player's words where we have them
            shown.update(
                Text(
                    _("deal not checked: ") + "; ".join(self.unchecked(verdict)),
                    style="bold yellow",
                )
            )

    def unchecked(self, verdict: Verdict) -> list[str]:
        """Why the deal was not checked: a sealed game closed halfway, or watched, says it in
        the player's language; any other reason in the check's own (English) words."""
        client = self.session.client
        why = getattr(client, "unchecked_why", ())
        if why and verdict.unchecked == reasons_in_words(why, client.names, client.seat):
            return unchecked_reasons(why, client.names, client.seat)
        return [_(WHOLE_REASONS[w]) if w in WHOLE_REASONS else w for w in verdict.unchecked]

    def show_waiting(self) -> None:
        """While the deal is being checked: whom a sealed game still waits for (the seats'
        secrets), if any."""
        client = self.session.client
        if client.verdict is not None:
            return
        found = getattr(client, "awaited", ())
        waiting = waiting_line(found, client.names, client.seat) if found else ""
        self.query_one("#verdict", Static).update(
            _("Checking the deal...") + (" " + waiting if waiting else "")
        )

    def on_session_notice(self, message: SessionNotice) -> None:
        notice = message.notice
        if isinstance(notice, ViewChanged):
            self.show_waiting()
        elif isinstance(notice, DealChecked):
            self.show_verdict(notice.verdict)
            self.show_replay_missing()
            self.refresh_bindings()  # `s` comes with the replay
        elif isinstance(notice, Failed) and self.session.client.verdict is None:
            self.query_one("#verdict", Static).update(
                _("The deal could not be checked: {why}").format(why=notice.reason)
            )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "again":
            self.action_again()
        else:
            self.action_menu()

    def replay_missing(self) -> str | None:
        """Why this game has no replay, once that is known (None: it has one, or the deal is
        still being checked, and the replay comes with the check). A sealed game's cards are
        known only once its audit has run: a game stopped before every seat published its
        secrets has none, nor has a spectator, who never learns them."""
        client = self.session.client
        verdict = client.verdict
        if verdict is None or client.replay() is not None:
            return None
        if getattr(client, "sealed", None) is not None:
            if verdict.unchecked:
                return _(
                    "No replay: this sealed game ended before every player's program showed "
                    "its secrets, so the cards still hidden stay unknown to everyone."
                )
            return _("No replay: the deal was not verified.")
        if getattr(client, "sealed_table", False):
            return _("No replay: a spectator never learns the cards of a sealed table.")
        return _("No replay: the host did not reveal this game's deal.")

    def show_replay_missing(self) -> None:
        why = self.replay_missing()
        if why is not None:
            self.query_one("#saved", Static).update(Text(why, style="dim"))

    def action_save(self) -> None:
        from ui.replay import save_replay

        if self._guest:  # not offered (check_action); never written on the host's disk anyway
            return
        replay = self.session.client.replay()
        if replay is None:  # not offered either (check_action): the screen says why
            return
        path = save_replay(replay)
        saved = self.query_one("#saved", Static)
        saved.update(_("Replay saved; watch it with: netcards replay {path}").format(path=path))
        # Under a long table (four players' hands), the line may be below the window: the
        # command is what the player reads next.
        self.call_after_refresh(saved.scroll_visible, animate=False)

    def can_play_again(self) -> bool:
        """A player whose host closed the table, or closes it after this game (a headless
        host), has no table to go back to: joining that address again would only find it gone.
        Nor does a host that closed its table mid-game: its players were told the table is
        gone and offered no way back, so a table opened again at once would wait for nobody
        (hosting again is a choice of the menu)."""
        client = self.session.client
        if self._guest:  # their session is this table's: the door closes with it
            return False
        if client.host_closed:
            return False
        return not (client.last_game and self.session.host is None)

    @property
    def _guest(self) -> bool:
        return not getattr(self.app, "writes_files", True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A key that could only answer "not here" is not offered (a guest of the SSH door
        saves no file); a guest's m leaves, as it says, for they have no menu to go back to."""
        if action == "again":
            return self.can_play_again()
        if action == "save":
            return not self._guest and self.session.client.replay() is not None
        if action == "menu":
            return not self._guest
        return self._guest if action == "leave" else True

    def action_again(self) -> None:  # (check_action keeps it from a closed table's players)
        # The table as it ended, which the owner may have changed in the lobby.
        self.app.play_again(self.session.client.lobby)  # type: ignore[attr-defined]

    def action_menu(self) -> None:
        self.app.back_to_menu()  # type: ignore[attr-defined]

    def action_leave(self) -> None:
        """A guest's back to the menu is the end of their app (see `ui.guest_app`)."""
        self.app.back_to_menu()  # type: ignore[attr-defined]
