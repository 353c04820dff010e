"""The netcards app: menus, the lobby, the game screens, and the sessions behind them.

`make_app` builds it for `netcards`, `netcards host`, `netcards join ADDRESS` and for tests,
which pass their own randomness so that deals (and snapshots) are the same every run.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette, SearchIcon
from textual.filter import LineFilter, Monochrome
from textual.geometry import Size
from textual.screen import Screen

from protocol.client import (
    DealChecked,
    Failed,
    GameStarted,
    SeatTaken,
    TableClosed,
    TokenRefused,
)
from protocol.messages import Lobby
from protocol.seat_tokens import SeatClaim, SeatTokens
from protocol.settings import data_dir
from ui.ascii_filter import AsciiFilter
from ui.failures import explain
from ui.games import screen_class
from ui.greys import EqualLuminanceGreys
from ui.hangup import CHECK_EVERY, hang_up_now, hung_up
from ui.i18n import N_, _, current, from_locale, ngettext, use
from ui.key_names import key_name
from ui.keys import KeysInOrder
from ui.layout import size_classes
from ui.screen_keys import screen_keys
from ui.screens.confirm import Confirm, Notice
from ui.screens.find import FindScreen
from ui.screens.help import HelpScreen
from ui.screens.host_setup import HostSetupScreen
from ui.screens.join import JoinScreen
from ui.screens.lobby import LobbyScreen
from ui.screens.menu import MenuScreen
from ui.screens.results import ResultsScreen
from ui.screens.rules import RulesPicker, RulesScreen
from ui.screens.settings import SettingsScreen
from ui.seat_files import SeatFiles
from ui.sending import REQUEST, send
from ui.session import DoorPortError, Session, SessionNotice, TablePlan, join_table, open_table
from ui.terminal import unicode_ok
from ui.user_settings import UserSettings

OWN_CLOSE_WAIT = 10.0
"""Seconds a host that closes its table mid-game waits for its own client to hear it closed
and check the deal so far, before it goes to the menu without the results."""
HOST_LOG_LINES = 2000


@dataclass
class JoinPlan:
    address: str
    password: str | None = None
    spectator: bool = False
    name: str = ""


class NetcardsApp(App[None]):
    """netcards in the terminal.

    | Key | Action |
    | :- | :- |
    | ctrl+q, ctrl+c | Quit (after asking, while at a table) |
    | ctrl+p | Commands: every key of the screen, by name |
    | ? | The keys of this screen (in a game: its rules) |
    """

    CSS_PATH = "netcards.tcss"
    TITLE = "netcards"
    writes_files = True
    """False for a guest of the SSH door: nothing of theirs is saved on the host's disk."""
    BINDINGS = [
        Binding("ctrl+q", "quit", N_("Quit"), show=False, priority=True),
        # A terminal user's first reflex: it quits as ctrl+q does (asking first at a table),
        # everywhere, before a field takes it for "copy" (nobody copies with it in a terminal).
        Binding("ctrl+c", "quit", N_("Quit"), show=False, priority=True),
        Binding("ctrl+p", "command_palette", N_("Commands"), show=False, priority=True),
        Binding("question_mark", "help", N_("Keys of this screen"), show=False),
    ]

    def __init__(
        self,
        settings: UserSettings,
        *,
        host: TablePlan | None = None,
        join: JoinPlan | None = None,
        random_bytes: Callable[[int], bytes] = os.urandom,
        ascii_mode: bool | None = None,
        bot_delay: float | None = None,
        replay: Any = None,
    ) -> None:
        super().__init__()
        self.start_replay = replay
        self.settings = settings
        self.start_host = host
        self.start_join = join
        self.random_bytes = random_bytes
        self.ascii_mode = settings.ascii if ascii_mode is None else ascii_mode
        self.bot_delay = settings.bot_delay if bot_delay is None else bot_delay
        self.session: Session | None = None
        self.last_plan: TablePlan | JoinPlan | None = None
        self.seat_claims: dict[tuple[str, str], SeatClaim] = {}
        self.closed_sessions: set[Session] = set()
        """Tables closed whose SSH door still waits for its guests to leave."""
        self.host_log: deque[str] = deque(maxlen=HOST_LOG_LINES)
        """What the table this app hosts logged lately (its last lines only: a host under a
        flood of connections must not grow its memory with them)."""
        self.keys = KeysInOrder(self)
        self.ascii_filter = AsciiFilter()
        self.greys = EqualLuminanceGreys()

    async def on_event(self, event: events.Event) -> None:
        """Keys and pastes from the terminal wait their turn (see `ui.keys`); everything else
        as usual."""
        if isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded:
            self.keys.take(event)
            return
        await super().on_event(event)

    async def route_key(self, event: events.Key | events.Paste) -> None:
        await super().on_event(event)

    # -- start-up -------------------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.apply_settings(language=False)
        self.classify_size()
        if not self.is_headless and sys.__stdin__ is not None and sys.__stdin__.isatty():
            self.set_interval(CHECK_EVERY, self._check_terminal)
        self.push_screen(MenuScreen())
        if self.start_replay is not None:
            from ui.replay import replay_screen

            self.push_screen(replay_screen(self.start_replay, ascii_mode=self.ascii_mode))
        elif self.start_host is not None:
            self.open_table(self.start_host)
        elif self.start_join is not None:
            plan = self.start_join
            self.join_table(plan.address, self.settings.name, plan.password, plan.spectator)

    def on_resize(self, event: events.Resize) -> None:
        """Before the screens hear of the new size (Textual tells them a moment later): their
        styles already fit it."""
        self.classify_size(event.size)

    def classify_size(self, size: Size | None = None) -> None:
        """The window's layout classes (`ui.layout`), for the styles and screens to follow."""
        for name, on in size_classes(size or self.size).items():
            self.set_class(on, name)

    def _check_terminal(self) -> None:
        """See `ui.hangup`: with SIGHUP ignored, this is how a closed terminal ends us."""
        if sys.__stdin__ is not None and hung_up(sys.__stdin__.fileno()):
            hang_up_now()

    ASCII_KEYS = {"⏎": "enter", "←": "left", "→": "right", "↑": "up", "↓": "down", "⇥": "tab"}

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Under NO_COLOR colours turn to greys as light as they are (see `ui.greys`); in ASCII
        mode every line drawn ends up ASCII (see `ui.ascii_filter`)."""
        filters = [
            self.greys if isinstance(f, Monochrome) else f for f in super().get_line_filters()
        ]
        if self.ascii_mode:
            filters.append(self.ascii_filter)
        return filters

    def get_key_display(self, binding: Binding) -> str:
        """A screen may name a key by what it means there (`key_display` on the screen: a
        Velonimo duel's seats are 1-2, not 1-5). A key's name is in the player's language
        (`ui.key_names`: échap, espace, spatie), wherever it is shown."""
        own = getattr(self.screen_stack[-1], "key_display", None) if self.screen_stack else None
        shown = (own(binding) if own is not None else None) or super().get_key_display(binding)
        if self.ascii_mode:
            for glyph, word in self.ASCII_KEYS.items():
                shown = shown.replace(glyph, word)
        return key_name(shown)

    async def on_unmount(self) -> None:
        await self.close_session(wait_for_guests=False)  # the app is going: not for minutes
        for session in list(self.closed_sessions):
            await session.door_closed()

    def apply_settings(self, *, language: bool = True) -> None:
        """Theme, ASCII mode and language take effect at once: a new language draws the menu
        again (settings are saved from there, and only away from a table). At start-up the
        language is already chosen (`--lang`, settings, locale) and is left alone."""
        with contextlib.suppress(Exception):
            self.theme = self.settings.theme
        self.ascii_mode = self.settings.ascii or self.ascii_mode
        self.set_class(self.ascii_mode, "-ascii")
        chosen = self.settings.language or from_locale()
        if language and chosen != current():
            use(chosen)
            if self.session is None:
                while len(self.screen_stack) > 2:
                    self.pop_screen()
                self.switch_screen(MenuScreen())

    # -- the menu ---------------------------------------------------------------------------------------

    def menu_choice(self, key: str) -> None:
        if key == "host":
            self.push_screen(HostSetupScreen(player=self.settings.name))
        elif key == "practise":
            self.push_screen(HostSetupScreen(practise=True, player=self.settings.name))
        elif key == "join":
            self.push_screen(JoinScreen(self.settings.last_address, name=self.settings.name))
        elif key == "find":
            self.push_screen(FindScreen())
        elif key == "rules":
            self.push_screen(RulesPicker())
        elif key == "settings":
            self.push_screen(SettingsScreen(self.settings))
        elif key == "quit":
            self.exit()

    def show_rules(
        self,
        game_id: str,
        table_options: list[str] | None = None,
        keys: list[tuple[str, str]] | None = None,
    ) -> None:
        self.push_screen(RulesScreen(game_id, table_options or [], keys))

    def show_join(self, address: str, fingerprint: str = "") -> None:
        self.push_screen(JoinScreen(address, self.settings.name, fingerprint))

    # -- help and commands ----------------------------------------------------------------------------

    def action_help(self) -> None:
        keys = [(k.key, k.description) for k in screen_keys(self, self.screen)]
        self.push_screen(HelpScreen(_("Keys of this screen"), keys))

    def action_command_palette(self) -> None:
        if self.use_command_palette and not CommandPalette.is_open(self):  # type: ignore[arg-type]
            self.push_screen(Palette(placeholder=_("Search for commands…"), id="--command-palette"))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The palette: every key of the screen it was opened on (a game's hint, rules, chat,
        leave...), then the app's own, all in the player's language."""
        for key in screen_keys(self, screen):
            if key.node is self:
                continue
            run = partial(key.node.run_action, key.action)
            yield SystemCommand(key.description, _("key: {key}").format(key=key.key), run)
        yield SystemCommand(
            _("Keys of this screen"), _("key: {key}").format(key="?"), self.action_help
        )
        yield SystemCommand(_("Colour theme"), _("Change the colours"), self.action_change_theme)
        yield SystemCommand(
            _("Quit"), _("key: {key}").format(key="ctrl+q / ctrl+c"), self.action_quit
        )

    # -- sessions ----------------------------------------------------------------------------------------

    def open_table(self, plan: TablePlan) -> None:
        self.last_plan = plan
        self.run_worker(self._open_table(plan), exclusive=True, group="session")

    async def _open_table(self, plan: TablePlan) -> None:
        await self.close_session()
        try:
            session = await open_table(
                plan,
                self.settings.name,
                self.post_message,
                bot_delay=self.bot_delay,
                random_bytes=self.random_bytes,
                log=self.host_log.append,
                failed_login=self.failed_ssh_login,
                own_files=self.own_seat_files,
            )
        except (OSError, ValueError) as exc:
            self.cannot_open(plan, exc)
            return
        self.session = session
        if self.last_plan is plan:  # the next Play again reopens where the players found it
            self.last_plan = plan_as_opened(plan, session)
        practise = plan.bots == plan.players - 1 and plan.port == 0
        await self._to_screen(LobbyScreen(session))
        if practise:
            self.run_worker(self._ready_when_seated(session), group="session-ready")

    def own_seat_files(self, address: str) -> SeatFiles | None:
        """Where the host's own player keeps its seat, as a player who joined does, under the
        address it connects to (`127.0.0.1:PORT`): after a crash, `host --resume` and `netcards
        join 127.0.0.1:PORT` read them back, and at a sealed table the seat's secrets are
        there. None (in memory only) while another program of the user plays that seat."""
        tokens = SeatTokens(data_dir() / "seats")
        name = self.settings.name
        if not self.writes_files or not self.claim_seat(tokens, address, name):
            return None
        return SeatFiles.fresh(tokens, address, name)

    def failed_ssh_login(self, address: str, user: str) -> None:
        """Someone failed to log in through the table's SSH door: the host should know. The
        name is anybody's text: shown as typed (printable characters only), never as markup."""
        shown = "".join(ch for ch in user if ch.isprintable())[:64]
        self.notify(
            _("Failed SSH login as {user} from {address}").format(user=shown, address=address),
            severity="warning",
            markup=False,
        )

    def cannot_open(self, plan: TablePlan, exc: OSError | ValueError) -> None:
        """One line that says what to do; back on the host form when the table came from it.
        (A ValueError is a mistake in the SSH door's settings, such as its keys file.)"""
        form = next((s for s in self.screen_stack if isinstance(s, HostSetupScreen)), None)
        busy = isinstance(exc, OSError) and exc.errno == errno.EADDRINUSE
        door = isinstance(exc, DoorPortError)
        if busy and door:
            text = (
                _("The SSH door's port {port} is already in use: choose another, or 0 for any.")
                if form is not None
                else _("The SSH door's port {port} is already in use: use --ssh N, or --ssh 0.")
            ).format(port=plan.ssh_port)
        elif busy:
            text = (
                _("Port {port} is already in use (another table?): choose another, or 0 for any.")
                if form is not None
                else _("Port {port} is already in use (another table?): use --port N, or --port 0.")
            ).format(port=plan.port)
        else:
            reason = (exc.strerror if isinstance(exc, OSError) else None) or exc
            text = _("Cannot open the table: {reason}").format(reason=reason)
        if form is not None:
            form.show_error(text, ("ssh-port" if door else "port") if busy else None)
        else:
            self.push_screen(Notice(text))

    async def _ready_when_seated(self, session: Session) -> None:
        import asyncio

        for _attempt in range(200):
            if session.client.seat is not None and session.client.connected:
                unsent = await send(REQUEST, session.client.set_ready, True)
                if unsent is not None:
                    self.notify(unsent, severity="error")
                return
            await asyncio.sleep(0.02)

    def join_table(self, address: str, name: str, password: str | None, spectator: bool) -> None:
        self.last_plan = JoinPlan(address, password, spectator, name)
        self.remember_join(address, name)
        self.run_worker(
            self._join_table(address, name, password, spectator), exclusive=True, group="session"
        )

    def remember_join(self, address: str, name: str) -> None:
        """The address and name typed are the join form's next time, after a restart too (a
        program killed mid-game is started again to take its seat back). Never the password."""
        unchanged = (self.settings.last_address, self.settings.name) == (address, name)
        if unchanged or not self.writes_files:
            return
        self.settings.last_address, self.settings.name = address, name
        with contextlib.suppress(OSError):  # a settings file we cannot write costs only that
            self.settings.save()

    async def _join_table(
        self, address: str, name: str, password: str | None, spectator: bool
    ) -> None:
        await self.close_session()
        tokens = SeatTokens(data_dir() / "seats")
        if not spectator and not self.claim_seat(tokens, address, name):
            self.back_to_menu()
            why = _(
                "Another netcards program of yours is already at {address} as {name}: "
                "choose another name."
            ).format(address=address, name=name)
            self.push_screen(
                JoinScreen(
                    address, name, password=password, spectator=spectator, error=why,
                    focus="name",
                )
            )  # fmt: skip
            return
        session = await join_table(
            address, name, self.post_message, password=password, spectator=spectator,
            trust=self.ask_trust,
            token=None if spectator else tokens.load(address, name),
            files=None if spectator else SeatFiles.kept(tokens, address, name),
        )  # fmt: skip
        self.session = session
        await self._to_screen(LobbyScreen(session))

    async def _to_screen(self, screen: Any) -> None:
        while len(self.screen_stack) > 2:
            self.pop_screen()
        await self.push_screen(screen)

    async def ask_trust(self, fingerprint: str) -> bool:
        import asyncio

        answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        address = self.session.client.address if self.session else ""
        question = _(
            "First visit to {address}.\n\nThe host's fingerprint is\n\n    {fp}\n\n"
            "Ask the host to read theirs aloud (it is on their screen). Do they match?"
        ).format(address=address, fp=fingerprint)
        self.push_screen(
            Confirm(question, _("They match: trust it"), _("No: leave"), default=False),
            lambda yes: answer.set_result(bool(yes)),
        )
        return await answer

    async def close_session(self, *, wait_for_guests: bool = True) -> None:
        session, self.session = self.session, None
        if session is not None:
            await session.close(wait_for_guests=wait_for_guests)
            if session.door_closing is not None:
                self.closed_sessions.add(session)
                session.door_closing.add_done_callback(
                    lambda _task: self.closed_sessions.discard(session)
                )
        claims, self.seat_claims = self.seat_claims, {}
        for claim in claims.values():
            claim.release()

    def claim_seat(self, tokens: SeatTokens, address: str, name: str) -> bool:
        """Whether this program holds (now, or already) the seat file of `name` at `address`:
        false while another of the user's programs plays that seat (see `SeatTokens.claim`)."""
        if (address, name) in self.seat_claims:
            return True
        claim = tokens.claim(address, name)
        if claim is None:
            return False
        self.seat_claims[address, name] = claim
        return True

    def on_session_notice(self, message: SessionNotice) -> None:
        notice = message.notice
        session = self.session
        if session is not None and (
            isinstance(notice, DealChecked)
            or (isinstance(notice, TableClosed) and notice.verdict is not None)
        ):  # the deal is checked (or refused) and the user told: its notes are done with
            self.forget_seat(session, deal=True)
        if isinstance(notice, TableClosed):
            self.table_closed(notice)
            return
        if isinstance(notice, SeatTaken | GameStarted) and session is not None:
            self.keep_seat_token(session)
        if isinstance(notice, TokenRefused) and session is not None:
            self.forget_seat(session)
        if self.screen_stack:
            self.screen.post_message(SessionNotice(notice))

    # -- moving between screens -----------------------------------------------------------------------

    def start_game(self, session: Session) -> None:
        if session.client.host_closed:
            # The table closed as its game began (a sealed deal takes a moment): the notice
            # of the start, read after that of the end, must not cover the results screen.
            return
        game = session.client.game
        cls = screen_class(game.id) if game is not None else None
        if cls is None:
            self.push_screen(Notice(_("This game has no screen yet.")))
            return
        self.switch_screen(cls(session, ascii_mode=self.ascii_mode))

    def show_results(self, session: Session) -> None:
        self.push_screen(ResultsScreen(session))

    def handle_session_end(self, notice: Any) -> None:
        if isinstance(notice, Failed):
            session = self.session
            if session is not None and session.client.outcome is not None:
                return  # the game is over; the results screen says what it can
            plan = self.last_plan
            address = session.client.address if session is not None else ""
            refused_deal = session is not None and session.client.verdict is not None
            game_on = session is not None and session.client.game is not None
            why = explain(notice, address, refused_deal=refused_deal, game_on=game_on)
            self.back_to_menu()
            if isinstance(plan, JoinPlan) and why.field is not None:
                self.push_screen(
                    JoinScreen(
                        plan.address, plan.name or self.settings.name, password=plan.password,
                        spectator=plan.spectator, error=why.text, focus=why.field,
                    )
                )  # fmt: skip
                if why.loud:
                    self.push_screen(Notice(why.text, loud=True))
                return
            self.push_screen(Notice(why.text, loud=why.loud))
        else:
            session = self.session
            if session is not None and session.client.game is not None:
                self.forget_seat(session)

    @staticmethod
    def seat_addresses(session: Session) -> list[str]:
        """Where this program keeps its seat's token and deal notes: a joiner's at the address
        they joined; a host's own at every address its lobby shows too, for `join` after
        `host --resume`. They are forgotten where they were kept."""
        addresses = [session.client.address]
        if session.host is not None:
            addresses += session.addresses
        return addresses

    def forget_seat(self, session: Session, *, deal: bool = False) -> None:
        """The seat's token (`deal`: its deal notes instead), at every address it was kept."""
        tokens = SeatTokens(data_dir() / "seats")
        for address in self.seat_addresses(session):
            if deal:
                tokens.forget_deal(address, session.client.name)
            else:
                tokens.forget(address, session.client.name)

    def keep_seat_token(self, session: Session) -> None:
        """On disk, so that the seat is taken back after a crash (`seat_addresses`)."""
        client = session.client
        if client.token is None or client.spectator:
            return
        tokens = SeatTokens(data_dir() / "seats")
        for address in self.seat_addresses(session):
            if self.claim_seat(tokens, address, client.name):  # never another program's file
                tokens.save(address, client.name, client.token, client.deal.to_data())

    def table_closed(self, notice: TableClosed) -> None:
        """The host closed the table: the results so far when a game was on, else a word."""
        session = self.session
        if session is not None:
            self.forget_seat(session)
        # A sealed game closed halfway may have no results to show, but its verdict is news.
        unchecked = notice.verdict is not None and bool(notice.verdict.unchecked)
        if session is None or (notice.standings is None and not unchecked):
            self.back_to_menu()
            if session is None or session.host is None:  # (a host closed it: it knows)
                self.push_screen(Notice(_("The host closed the table.")))
            return
        self.run_worker(self._to_screen(ResultsScreen(session)), group="session")

    def leaving_question(self, *, quitting: bool = False) -> Confirm:
        """Leaving a table, or quitting while at one; a host is told it ends the table for all.
        Staying is the answer enter gives: an escape meant for the chat, or one key too many in
        a burst, must not cost anyone their table."""
        session = self.session
        others = self.others_at_table()
        client = session.client if session is not None else None
        playing = client is not None and client.game is not None and client.outcome is None
        if session is not None and session.host is not None and others:
            if playing:
                question = ngettext(
                    "You host this table: leaving closes it for the {n} other person at it, "
                    "and ends the game for them too. Close the table?",
                    "You host this table: leaving closes it for the {n} others at it, "
                    "and ends the game for them too. Close the table?",
                    others,
                )
            else:
                question = ngettext(
                    "You host this table: leaving closes it for the {n} other person at it. "
                    "Close the table?",
                    "You host this table: leaving closes it for the {n} others at it. "
                    "Close the table?",
                    others,
                )
            return Confirm(
                question.format(n=others), _("Close the table"), _("Stay"), default=False, loud=True
            )
        question = _("Leave the table and quit?") if quitting else _("Leave the table?")
        joined = session is not None and session.host is None
        if playing and joined and client is not None and not client.spectator:
            question += "\n\n" + _(
                "Your seat waits for you: join again under the same name to take it back (a "
                "bot plays it meanwhile)."
            )
        return Confirm(question, _("Quit") if quitting else _("Leave"), _("Stay"), default=False)

    def others_at_table(self) -> int:
        """People (not bots) other than the host's own player connected to the hosted table."""
        session = self.session
        if session is None or session.host is None:
            return 0
        return sum(1 for peer in session.host.peers.values() if peer.joined and peer.seat != 0)

    def confirm_leave(self) -> None:
        def answer(yes: bool | None) -> None:
            if not yes:
                return
            self.left_on_purpose()
            session = self.session
            client = session.client if session is not None else None
            hosting = session is not None and session.host is not None
            if hosting and client is not None and client.game is not None and not client.outcome:
                self.run_worker(self._close_own_table(), group="close")
            else:
                self.back_to_menu()

        self.push_screen(self.leaving_question(), answer)

    async def _close_own_table(self) -> None:
        """A host closing its table mid-game played it too: its own client hears the table
        close like every other player's (the `closed` notice, the audit so far), checks the
        deal the same way, and `table_closed` shows the results so far. A client that hears
        nothing of it in time (its link to its own table was down) goes to the menu."""
        session = self.session
        if session is None:
            return
        await session.close_table()
        await session.client_done(OWN_CLOSE_WAIT)
        if self.session is session and not session.client.host_closed:
            self.back_to_menu()

    async def action_quit(self) -> None:
        """ctrl+q or ctrl+c: at once from the menus; at a table only once the player said so
        (the question it asks says what leaving does; the same key again quits)."""
        session = self.session
        done = session is None or session.client.outcome is not None or session.client.host_closed
        if done or isinstance(self.screen, Confirm):
            self.exit()
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.left_on_purpose()
                self.exit()

        self.push_screen(self.leaving_question(quitting=True), answer)

    def left_on_purpose(self) -> None:
        """The user answered that they leave: the deal notes must not take what this table does
        next for the host's doing (a re-deal), as they would after a dropped link."""
        if self.session is not None:
            self.session.client.leaving_on_purpose()

    def back_to_menu(self) -> None:
        self.run_worker(self.close_session(), group="close")
        while len(self.screen_stack) > 2:
            self.pop_screen()
        if not isinstance(self.screen, MenuScreen):
            self.switch_screen(MenuScreen())

    def play_again(self, lobby: Lobby | None = None) -> None:
        """The same table again; a table we hosted as it was at the end (`lobby`): the game,
        seats, options and bots its owner chose in the lobby, not those it was opened with."""
        plan = self.last_plan
        if isinstance(plan, TablePlan):
            if lobby is not None:
                plan = self.last_plan = plan_as_left(plan, lobby)
            self.open_table(plan)
        elif isinstance(plan, JoinPlan):
            # The seat it names is in the game just over: the next game gives a new one.
            SeatTokens(data_dir() / "seats").forget(plan.address, plan.name or self.settings.name)
            self.back_to_menu()
            # The same table, as the same person: only `enter` is left to press.
            self.push_screen(
                JoinScreen(
                    plan.address, plan.name or self.settings.name, password=plan.password,
                    spectator=plan.spectator,
                )
            )  # fmt: skip
        else:
            self.back_to_menu()


def plan_as_left(plan: TablePlan, lobby: Lobby) -> TablePlan:
    """`plan` changed to the table `lobby` shows. The lobby never shows the deck: the plan's
    stays for the same game, as the host keeps it when a change does not name one."""
    options = dict(lobby.options)
    if lobby.game == plan.game and "deck" in plan.options:
        options["deck"] = plan.options["deck"]
    bots = [s for s in lobby.seats if s.kind == "bot"]
    return replace(
        plan,
        game=lobby.game,
        players=lobby.players,
        options=options,
        bots=len(bots),
        bot_level=next((s.bot_level for s in bots if s.bot_level), plan.bot_level),
    )


def plan_as_opened(plan: TablePlan, session: Session) -> TablePlan:
    """`plan` with the ports its table got. A table others joined on "any free port" (0)
    reopens on the same one, so that the address they have, and their Play again, still find
    it; a practice table (this machine only) takes any port again."""
    if plan.bind == "127.0.0.1" or session.host is None:
        return plan
    port = plan.port or session.host.port
    door = session.door.port if plan.ssh_port == 0 and session.door is not None else plan.ssh_port
    return replace(plan, port=port, ssh_port=door)


class Palette(CommandPalette):
    """Textual's command palette, its search icon in ASCII when the app draws in ASCII."""

    def on_mount(self) -> None:
        if getattr(self.app, "ascii_mode", False):
            self.query_one(SearchIcon).icon = ">"


def make_app(
    *,
    settings: UserSettings | None = None,
    host: TablePlan | None = None,
    join: JoinPlan | None = None,
    ascii_mode: bool | None = None,
    random_bytes: Callable[[int], bytes] = os.urandom,
    bot_delay: float | None = None,
    replay: Any = None,
) -> NetcardsApp:
    settings = settings or UserSettings.load()
    if ascii_mode is None and not unicode_ok():
        ascii_mode = True
    return NetcardsApp(
        settings,
        host=host,
        join=join,
        random_bytes=random_bytes,
        ascii_mode=ascii_mode,
        bot_delay=bot_delay,
        replay=replay,
    )
