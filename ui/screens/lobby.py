"""The lobby: who sits where, who is ready, the host's fingerprint to compare, and chat.

Each player sees only the keys they can use: the owner's (bots and their level) only at the
owner's screen, `r` only in a seat before the game.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Static

from netcards.bots.registry import bot_levels
from netcards.registry import get_game
from protocol.client import (
    ChatLine,
    Connected,
    Failed,
    GameStarted,
    HostRefused,
    LinkDown,
    LobbyChanged,
    SeatTaken,
    TableSays,
)
from protocol.messages import Lobby
from ui import notices
from ui.bot_levels import level_name
from ui.failures import link_lost
from ui.i18n import N_, _, names_list, ngettext
from ui.layout import NARROW
from ui.option_words import options_in_play
from ui.screens.host_setup import TableChangeScreen
from ui.sending import LINE, REQUEST, send
from ui.session import Session, SessionNotice, TablePlan
from ui.widgets.chat import ChatBox
from ui.widgets.keybar import KeyBar


class LobbyScreen(Screen[None]):
    """Waiting for the game to start.

    | Key | Action |
    | :- | :- |
    | r | (seated) Ready / not ready |
    | b | (owner) Put a bot in the first open seat |
    | l | (owner) Change the level of the next bots |
    | x | (owner) Take the bot out of the selected seat |
    | o | (owner) Change the game, the number of seats or the game's options |
    | c | Chat |
    | page up / page down | Scroll the chat (in a narrow window, where the chat is under the seats and shows its newest lines: the lobby, unless you type in the chat) |
    | escape | Leave the table |

    In a narrow window (a phone's) the chat goes below the seats, and the seats and what the
    table waits for come first, above the table's name, fingerprint and the other details.
    """

    BINDINGS = [
        Binding("r", "ready", N_("Ready")),
        Binding("b", "add_bot", N_("Add bot")),
        Binding("l", "level", N_("Bot level")),
        Binding("x", "remove_bot", N_("Remove bot")),
        # Not on the key bar (it is full at 60 columns): the owner's note below the seats says it.
        Binding("o", "change_table", N_("Change table"), show=False),
        Binding("c", "chat", N_("Chat")),
        # Above the seats' list, which would scroll itself: the chat is what grows.
        Binding("pageup", "scroll_chat(-1)", show=False, priority=True),
        Binding("pagedown", "scroll_chat(1)", show=False, priority=True),
        Binding("escape", "back", N_("Leave")),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.ready = False
        self.level = "heuristic"

    def compose(self) -> ComposeResult:
        yield Static("", id="banner")
        with Horizontal(id="lobby"):
            with Vertical(id="lobby-left"):
                yield Static("", id="lobby-title")
                yield DataTable(id="seats", cursor_type="row", zebra_stripes=True)
                yield Static("", id="lobby-note")
            yield ChatBox(id="chat")
        yield KeyBar(compact=True)  # the owner's six keys fit 60 columns, wrap below

    OWNER_ACTIONS = frozenset({"add_bot", "level", "remove_bot", "change_table"})

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Owner's keys for the owner only; `ready` for a seated player while in the lobby."""
        client = self.session.client
        if action in self.OWNER_ACTIONS:
            return bool(client.owner)
        if action == "ready":
            lobby = client.lobby
            return client.seat is not None and (lobby is None or lobby.phase == "lobby")
        return True

    PLAYER_COLUMN = 1

    def on_mount(self) -> None:
        self.query_one("#banner").display = False
        table = self.query_one("#seats", DataTable)
        table.add_column(_("seat"))
        table.add_column(_("player"), width=self.player_width())
        table.add_column(_("ready"))
        table.add_column("")
        for line in self.session.client.chat:
            self.query_one(ChatBox).add(line.name, line.text, watching=line.seat is None)
        self.refresh_lobby()
        table.focus()

    def refresh_lobby(self) -> None:
        if not self.query("#lobby-title"):
            return  # not composed yet, or already leaving (a resize may come at either end)
        client = self.session.client
        lobby = client.lobby
        title = Text()
        if lobby is None:
            title.append(_("Connecting to {address}...").format(address=client.address))
            self.query_one("#lobby-title", Static).update(title)
            return
        game = get_game(lobby.game)
        title.append(f"{lobby.table}\n", style="bold")
        title.append(_("{game}, {n} players").format(game=game.name, n=lobby.players) + "\n")
        for line in options_in_play(game.option_specs, lobby.options):
            title.append(line + "\n", style="bold")
        title.append(_("Host fingerprint: "))
        title.append(client.fingerprint, style="bold")
        hosting = self.session.host is not None
        title.append(
            "\n"
            + (
                _("(players compare it with the one on their screen)")
                if hosting
                else _("(compare it with the host's screen before you play)")
            ),
            style="dim",
        )
        if hosting:
            title.append("\n" + self.join_line())
        if lobby.password:
            title.append("\n" + _("This table has a password."), style="dim")
        if lobby.sealed and getattr(self.app, "through_the_door", False):
            title.append(
                "\n"
                + _(
                    "Sealed table, but you play through the host's SSH door, on the host's "
                    "machine: your cards are not sealed from the host."
                )
            )
        elif lobby.sealed:
            title.append("\n" + _("Sealed table: nobody, the host included, sees your cards."))
        if lobby.turn_clock_ms:
            title.append(
                "\n"
                + _("Turn clock: {n} s per decision, then a bot plays it").format(
                    n=round(lobby.turn_clock_ms / 1000)
                )
            )
        door = self.session.door
        if door is not None:  # the SSH door: the one command a friend types, and its key
            addresses = self.session.addresses
            host = addresses[0].rsplit(":", 1)[0] if addresses else _("ADDRESS")
            # Each on a line of its own, nothing before it: read aloud, or copied, whole.
            title.append("\n" + _("Friends without netcards type:") + "\n")
            title.append(door.command(_("NAME"), host), style="bold")
            title.append("\n" + _("SSH fingerprint (they compare it):") + "\n")
            title.append(door.fingerprint, style="bold")
        self.query_one("#lobby-title", Static).update(title)
        table = self.query_one("#seats", DataTable)
        # The cursor picks the seat `x` acts on: only the owner has a use for it.
        table.show_cursor = client.owner
        row = table.cursor_row
        table.clear()
        width = self.player_width()
        if len(table.ordered_columns) > self.PLAYER_COLUMN:
            table.ordered_columns[self.PLAYER_COLUMN].width = width
        for info in lobby.seats:
            if info.kind == "open":
                name, state = Text(_("(open)"), style="dim"), ""
            elif info.kind == "bot":
                level = level_name(info.bot_level or "")
                name = Text(_("{name} ({level})").format(name=info.name, level=level))
                state = ""
            else:
                name = Text(info.name + (_(" (you)") if info.seat == client.seat else ""))
                state = "" if info.connected else _("away")
            yes, no = (_("yes"), "-") if getattr(self.app, "ascii_mode", False) else ("✓", "·")
            ready = (yes if info.ready else no) if info.kind != "open" else ""
            cells = [str(info.seat + 1), name, ready, state]
            # A long name wraps over the lines it needs, counted here: rows of automatic
            # height were sometimes drawn blank (rendered and kept before the table had its
            # styles), until the next repaint of the whole screen.
            lines = len(name.wrap(self.app.console, width))  # `player_width` is 10 or more
            table.add_row(*[cell or " " for cell in cells], height=max(1, lines))
        if row is not None and 0 <= row < len(lobby.seats):
            table.move_cursor(row=row)
        note = self.start_note(lobby)
        if client.spectator:
            note = _("You are watching: you will see the game, without a hand of your own.") + (
                "\n" + note if note else ""
            )
        if client.owner:
            note += "\n" + _("Bots you add play at level {level} (l changes it).").format(
                level=level_name(self.level)
            )
            note += "\n" + _("o changes the game, the seats or the options.")
        self.query_one("#lobby-note", Static).update(Text(note.strip()))
        self.refresh_bindings()

    def join_line(self) -> str:
        """How others join this table, with this machine's addresses and the table's port."""
        addresses = self.session.addresses
        if not addresses:
            port = self.session.host.port if self.session.host is not None else 0
            return _("Players join with: netcards join THIS-MACHINE:{port}").format(port=port)
        line = _("Players join with: netcards join {address}").format(address=addresses[0])
        if len(addresses) > 1:
            line += "\n" + _("(or: {addresses})").format(addresses=", ".join(addresses[1:]))
        return line

    def player_width(self) -> int:
        """The player column takes the room the other columns leave, so names wrap whole."""
        room = self.query_one("#lobby-left").content_size.width if self.is_mounted else 0
        labels = (_("seat"), _("ready"), _("away"))
        others = sum(len(label) + 2 for label in labels) + 2  # each cell has a space each side
        return min(36, max(10, (room or 40) - others - 2))  # a name is at most 32 characters

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.place_details)
        self.call_after_refresh(self.refresh_lobby)

    def place_details(self) -> None:
        """In a narrow window the seats and the note come first (see the class)."""
        if not self.query("#lobby-title"):
            return
        left = self.query_one("#lobby-left")
        title = self.query_one("#lobby-title")
        if self.app.has_class(NARROW):
            left.move_child(title, after=self.query_one("#lobby-note"))
        else:
            left.move_child(title, before=self.query_one("#seats"))

    def start_note(self, lobby: Lobby) -> str:
        """Why the game has not started, worked out here so it reads in this player's
        language (the host's own note is in the host's)."""
        if lobby.phase == "dealing":
            return _("Dealing...")
        if lobby.phase != "lobby":
            return ""
        open_seats = sum(1 for s in lobby.seats if s.kind == "open")
        if open_seats and self.session.client.owner:
            return ngettext(
                "{n} seat still open: add bots or wait for players",
                "{n} seats still open: add bots or wait for players",
                open_seats,
            ).format(n=open_seats)
        if open_seats:  # only the owner adds bots: the others can only wait
            return ngettext(
                "{n} seat still open: waiting for a player",
                "{n} seats still open: waiting for players",
                open_seats,
            ).format(n=open_seats)
        waiting = [s.name for s in lobby.seats if s.kind == "human" and not s.ready]
        if waiting:
            return ngettext(
                "waiting for {names} to be ready", "waiting for {names} to be ready", len(waiting)
            ).format(names=names_list(waiting))
        return ""

    def on_session_notice(self, message: SessionNotice) -> None:
        notice = message.notice
        if isinstance(notice, LobbyChanged | SeatTaken | Connected):
            self.query_one("#banner").display = False
            self.refresh_lobby()
        elif isinstance(notice, ChatLine):
            self.query_one(ChatBox).add(notice.name, notice.text, watching=notice.seat is None)
        elif isinstance(notice, TableSays):
            self.query_one(ChatBox).add("", notices.say(notice.code, notice.args), notice=True)
        elif isinstance(notice, HostRefused) and not notice.fatal:  # (a fatal one: the form says)
            self.notify(notices.refusal(notice.code, notice.text), severity="error")
        elif isinstance(notice, LinkDown):
            banner = self.query_one("#banner", Static)
            banner.update(link_lost(notice))
            banner.display = True
        elif isinstance(notice, GameStarted):
            self.app.start_game(self.session)  # type: ignore[attr-defined]
        elif isinstance(notice, Failed):
            self.app.handle_session_end(notice)  # type: ignore[attr-defined]

    def action_change_table(self) -> None:
        lobby = self.session.client.lobby
        if lobby is None or lobby.phase != "lobby":
            return

        def chosen(plan: TablePlan | None) -> None:
            if plan is not None:
                self.run_worker(self.change_table(plan), group="lobby")

        client = self.session.client
        self.app.push_screen(TableChangeScreen(lobby, lambda: client.lobby), chosen)

    async def change_table(self, plan: TablePlan) -> None:
        client = self.session.client
        self.unsent(await send(REQUEST, client.set_options, plan.game, plan.players, plan.options))

    async def action_ready(self) -> None:
        # From the table's word, not our own: a change of the table makes everyone unready.
        lobby, seat = self.session.client.lobby, self.session.client.seat
        if lobby is not None and seat is not None and seat < len(lobby.seats):
            self.ready = lobby.seats[seat].ready
        self.ready = not self.ready
        self.unsent(await send(REQUEST, self.session.client.set_ready, self.ready))

    async def action_add_bot(self) -> None:
        lobby = self.session.client.lobby
        if lobby is None or not self.session.client.owner:
            self.notify(_("only the table's owner adds bots"), severity="warning")
            return
        open_seats = [s.seat for s in lobby.seats if s.kind == "open"]
        if not open_seats:
            self.notify(_("no open seat"), severity="warning")
            return
        self.unsent(await send(REQUEST, self.session.client.add_bot, open_seats[0], self.level))

    def action_level(self) -> None:
        levels = list(bot_levels())
        self.level = levels[(levels.index(self.level) + 1) % len(levels)]
        self.refresh_lobby()

    async def action_remove_bot(self) -> None:
        lobby = self.session.client.lobby
        table = self.query_one("#seats", DataTable)
        if lobby is None or not self.session.client.owner:
            self.notify(_("only the table's owner removes bots"), severity="warning")
            return
        row = table.cursor_row
        if not any(info.kind == "bot" for info in lobby.seats):
            self.notify(_("there is no bot at the table"), severity="warning")
            return
        if row is None or lobby.seats[row].kind != "bot":
            self.notify(
                _("move to a bot's seat first (up, down), then press x"), severity="warning"
            )
            return
        self.unsent(await send(REQUEST, self.session.client.remove_bot, row))

    async def on_chat_box_said(self, message: ChatBox.Said) -> None:
        self.unsent(await send(LINE, self.session.client.say, message.text))

    def unsent(self, why: str | None) -> None:
        """A request or a line that did not reach the table (`ui.sending`) says why here."""
        if why is not None:
            self.notify(why, severity="error")

    def on_chat_box_closed(self, message: ChatBox.Closed) -> None:
        self.query_one("#seats").focus()

    def action_chat(self) -> None:
        self.query_one("#chat-input").focus()

    def action_scroll_chat(self, direction: int) -> None:
        """The chat's lines; in a narrow window, where the lobby's details go below the seats,
        the lobby itself, unless the chat box is being typed in."""
        typing = self.focused is not None and self.focused.id == "chat-input"
        narrow = self.app.has_class(NARROW)
        pane = self.query_one("#lobby-left" if narrow and not typing else "#chat-lines")
        if direction < 0:
            pane.scroll_page_up(animate=False)
        else:
            pane.scroll_page_down(animate=False)

    def action_back(self) -> None:
        if self.focused is not None and self.focused.id == "chat-input":
            self.query_one("#seats").focus()
            return
        self.app.confirm_leave()  # type: ignore[attr-defined]
