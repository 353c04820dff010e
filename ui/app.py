"""The netcards app: menus, the lobby, the game screens, and the sessions behind them.

`make_app` builds it for `netcards`, `netcards host`, `netcards join ADDRESS` and for tests,
which pass their own randomness so that deals (and snapshots) are the same every run.
"""

from __future__ import annotations

import contextlib
import locale
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from textual.app import App
from textual.binding import Binding

from protocol.client import Failed, GameStarted, SeatTaken, TokenRefused
from protocol.deal_witness import DealWitness
from protocol.seat_tokens import SeatTokens
from protocol.settings import data_dir
from ui.games import screen_class
from ui.i18n import N_, _, current, from_locale, use
from ui.screens.confirm import Confirm, Notice
from ui.screens.find import FindScreen
from ui.screens.host_setup import HostSetupScreen
from ui.screens.join import JoinScreen
from ui.screens.lobby import LobbyScreen
from ui.screens.menu import MenuScreen
from ui.screens.results import ResultsScreen
from ui.screens.rules import RulesScreen
from ui.screens.settings import SettingsScreen
from ui.session import Session, SessionNotice, TablePlan, join_table, open_table
from ui.user_settings import UserSettings
from ui.widgets.keybar import KeyBar


@dataclass
class JoinPlan:
    address: str
    password: str | None = None
    spectator: bool = False


def unicode_ok() -> bool:
    """False when the locale cannot show box-drawing characters (ASCII mode then)."""
    encoding = (locale.getpreferredencoding(False) or "").lower().replace("-", "")
    return encoding in ("utf8", "utf16", "utf32")


class NetcardsApp(App[None]):
    """netcards in the terminal.

    | Key | Action |
    | :- | :- |
    | ctrl+q | Quit |
    """

    CSS_PATH = "netcards.tcss"
    TITLE = "netcards"
    BINDINGS = [Binding("ctrl+q", "quit", N_("Quit"), show=False)]

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
        self.host_log: list[str] = []

    # -- start-up -------------------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.apply_settings(language=False)
        self.push_screen(MenuScreen())
        if self.start_replay is not None:
            from ui.replay import replay_screen

            self.push_screen(replay_screen(self.start_replay, ascii_mode=self.ascii_mode))
        elif self.start_host is not None:
            self.open_table(self.start_host)
        elif self.start_join is not None:
            plan = self.start_join
            self.join_table(plan.address, self.settings.name, plan.password, plan.spectator)

    ASCII_KEYS = {"⏎": "enter", "←": "left", "→": "right", "↑": "up", "↓": "down", "⇥": "tab"}

    def get_key_display(self, binding: Binding) -> str:
        shown = super().get_key_display(binding)
        if self.ascii_mode:
            for glyph, word in self.ASCII_KEYS.items():
                shown = shown.replace(glyph, word)
        return shown

    async def on_unmount(self) -> None:
        await self.close_session()

    def apply_settings(self, *, language: bool = True) -> None:
        """Theme, ASCII mode and language take effect at once: a new language redraws every
        screen from the menu (settings are only reachable from there). At start-up the
        language is already chosen (`--lang`, settings, locale) and is left alone."""
        with contextlib.suppress(Exception):
            self.theme = self.settings.theme
        self.ascii_mode = self.settings.ascii or self.ascii_mode
        self.set_class(self.ascii_mode, "-ascii")
        chosen = self.settings.language or from_locale()
        if language and chosen != current():
            use(chosen)
            if isinstance(self.screen, SettingsScreen) and self.session is None:
                while len(self.screen_stack) > 2:
                    self.pop_screen()
                self.switch_screen(MenuScreen())
                self.push_screen(SettingsScreen(self.settings))

    # -- the menu ---------------------------------------------------------------------------------------

    def menu_choice(self, key: str) -> None:
        if key == "host":
            self.push_screen(HostSetupScreen(player=self.settings.name))
        elif key == "practise":
            self.push_screen(HostSetupScreen(practise=True, player=self.settings.name))
        elif key == "join":
            self.push_screen(JoinScreen(name=self.settings.name))
        elif key == "find":
            self.push_screen(FindScreen())
        elif key == "rules":
            self.push_screen(RulesPicker())
        elif key == "settings":
            self.push_screen(SettingsScreen(self.settings))
        elif key == "quit":
            self.exit()

    def show_rules(self, game_id: str) -> None:
        self.push_screen(RulesScreen(game_id))

    def show_join(self, address: str, fingerprint: str = "") -> None:
        self.push_screen(JoinScreen(address, self.settings.name, fingerprint))

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
            )
        except OSError as exc:
            self.push_screen(
                Notice(_("Cannot open the table: {reason}").format(reason=exc.strerror or exc))
            )
            return
        self.session = session
        practise = plan.bots == plan.players - 1 and plan.port == 0
        await self._to_screen(LobbyScreen(session))
        if practise:
            self.run_worker(self._ready_when_seated(session), group="session-ready")

    async def _ready_when_seated(self, session: Session) -> None:
        import asyncio

        for _attempt in range(200):
            if session.client.seat is not None and session.client.connected:
                with contextlib.suppress(ConnectionError):
                    await session.client.set_ready(True)
                return
            await asyncio.sleep(0.02)

    def join_table(self, address: str, name: str, password: str | None, spectator: bool) -> None:
        self.last_plan = JoinPlan(address, password, spectator)
        self.run_worker(
            self._join_table(address, name, password, spectator), exclusive=True, group="session"
        )

    async def _join_table(
        self, address: str, name: str, password: str | None, spectator: bool
    ) -> None:
        await self.close_session()
        tokens = SeatTokens(data_dir() / "seats")
        session = await join_table(
            address, name, self.post_message, password=password, spectator=spectator,
            trust=self.ask_trust,
            token=None if spectator else tokens.load(address, name),
            deal=None if spectator else DealWitness.restore(tokens.load_deal(address, name)),
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
            Confirm(question, _("They match: trust it"), _("No: leave")),
            lambda yes: answer.set_result(bool(yes)),
        )
        return await answer

    async def close_session(self) -> None:
        session, self.session = self.session, None
        if session is not None:
            await session.close()

    def on_session_notice(self, message: SessionNotice) -> None:
        notice = message.notice
        session = self.session
        if (
            isinstance(notice, SeatTaken | GameStarted)
            and session is not None
            and session.host is None
        ):
            client = session.client
            if client.token is not None and not client.spectator:
                SeatTokens(data_dir() / "seats").save(
                    client.address, client.name, client.token, client.deal.to_data()
                )
        if isinstance(notice, TokenRefused) and session is not None:
            SeatTokens(data_dir() / "seats").forget(session.client.address, session.client.name)
        if self.screen_stack:
            self.screen.post_message(SessionNotice(notice))

    # -- moving between screens -----------------------------------------------------------------------

    def start_game(self, session: Session) -> None:
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
            if self.session is not None and self.session.client.outcome is not None:
                return  # the game is over; the results screen says what it can
            refused_deal = self.session is not None and self.session.client.verdict is not None
            loud = refused_deal or "fingerprint" in notice.reason or "changed" in notice.reason
            text = notice.reason
            if refused_deal:
                text = (
                    _(
                        "The host broke the rules of the fair deal, so this program left before "
                        "the game began: the host may be trying to choose the cards."
                    )
                    + "\n\n"
                    + text
                )
            elif loud:
                text += "\n\n" + _(
                    "If the host really made a new key, forget the old one in "
                    "Settings > Known hosts (f), then join again."
                )
            self.back_to_menu()
            self.push_screen(Notice(text, loud=loud))
        else:
            session = self.session
            if session is not None and session.client.game is not None:
                SeatTokens(data_dir() / "seats").forget(session.client.address, session.client.name)

    def confirm_leave(self) -> None:
        def answer(yes: bool | None) -> None:
            if yes:
                self.back_to_menu()

        self.push_screen(Confirm(_("Leave the table?"), _("Leave"), _("Stay")), answer)

    def back_to_menu(self) -> None:
        self.run_worker(self.close_session(), group="close")
        while len(self.screen_stack) > 2:
            self.pop_screen()
        if not isinstance(self.screen, MenuScreen):
            self.switch_screen(MenuScreen())

    def play_again(self) -> None:
        plan = self.last_plan
        if isinstance(plan, TablePlan):
            self.open_table(plan)
        elif isinstance(plan, JoinPlan):
            self.back_to_menu()
            self.show_join(plan.address)
        else:
            self.back_to_menu()


class RulesPicker(MenuScreen):
    """Which game's rules?"""

    def compose(self) -> Any:
        from textual.containers import Center, Vertical
        from textual.widgets import OptionList, Static
        from textual.widgets.option_list import Option

        from netcards.registry import all_games

        with Center(), Vertical(id="menu-box"):
            yield Static(_("Rules"), id="menu-title")
            yield OptionList(
                *[
                    Option(g.name, id=g.id)
                    for g in sorted(all_games().values(), key=lambda g: g.name)
                ],
                id="menu",
            )
        yield KeyBar()

    BINDINGS = [Binding("escape", "app.pop_screen", N_("Back"))]

    def action_pick(self, key: str) -> None:
        self.app.show_rules(key)  # type: ignore[attr-defined]


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
