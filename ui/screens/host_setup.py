"""Opening a table (or a practice game): the game, the seats, the bots and the game's options.

The options form is built from the game's own option list, so a new option in the engine shows
up here without a change; every value is checked by the engine before the table opens.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Select, Static

from netcards.bots.registry import bot_levels
from netcards.errors import GameError
from netcards.options import OptionSpec
from netcards.registry import all_games, get_game
from netcards.sealed_game import has_sealed_engine
from protocol.address import DEFAULT_PORT, DEFAULT_SSH_PORT
from protocol.limits import MAX_TURN_CLOCK
from protocol.messages import Lobby
from ui.bot_levels import level_choice
from ui.i18n import N_, _, ngettext
from ui.option_words import option_text
from ui.session import TablePlan
from ui.widgets.form_error import FormError
from ui.widgets.keybar import KeyBar
from ui.widgets.lists import FormSelect
from ui.widgets.text_checkbox import TextCheckbox


class FieldError(ValueError):
    """A mistake in one field of the form: said below the form, with that field focused."""

    def __init__(self, text: str, field: str) -> None:
        super().__init__(text)
        self.field = field


def seat_choices(players: int) -> list[tuple[str, str]]:
    """A seat option's choices: random, or one of the table's seats, counted from 1 as the
    table shows them."""
    return [(_("random"), "random")] + [(str(i + 1), str(i)) for i in range(players)]


class HostSetupScreen(Screen[TablePlan | None]):
    """Host a table, or practise against bots.

    | Key | Action |
    | :- | :- |
    | tab / shift+tab | Next / previous field |
    | ctrl+o | Open the table (practising: Start, as the button says) |
    | escape | Back to the menu |
    """

    BINDINGS = [
        # One key, named as the form's button names it (see `check_action`).
        Binding("ctrl+o", "open", N_("Open the table")),
        Binding("ctrl+o", "start", N_("Start")),
        Binding("escape", "app.pop_screen", N_("Back")),
    ]

    def __init__(
        self, *, practise: bool = False, player: str = "", lobby: Lobby | None = None
    ) -> None:
        """`lobby`: the owner changes an open table's game, seats and options (the table's
        other settings stay as they were opened)."""
        super().__init__()
        self.practise = practise
        self.player = player
        self.lobby = lobby
        self.lobby_now: Callable[[], Lobby | None] = lambda: lobby

    def compose(self) -> ComposeResult:
        games = sorted(all_games().values(), key=lambda g: g.name)
        title = _("Practise against bots") if self.practise else _("Host a table")
        if self.lobby is not None:
            title = _("Change the table")
        hosting = self.hosting
        with VerticalScroll(id="form"):
            yield Static(title, classes="form-title")
            yield Label(_("Game"))
            yield FormSelect(
                [(g.name, g.id) for g in games], value=games[0].id, allow_blank=False, id="game"
            )
            yield Label(_("Players"))
            first = games[0]
            counts = [(str(n), n) for n in range(first.min_players, first.max_players + 1)]
            yield FormSelect(counts, id="players", allow_blank=False)
            if hosting:
                yield Label(_("Bots (they take the last seats)"))
                yield FormSelect([("0", 0)], value=0, id="bots", allow_blank=False)
            if self.lobby is None:
                yield Label(_("Bot level"))
                yield FormSelect(
                    [(level_choice(lvl), lvl) for lvl in bot_levels()],
                    value="heuristic",
                    allow_blank=False,
                    id="level",
                )
            if hosting:
                yield Label(_("Table name"))
                yield Input(value=_("{player}'s table").format(player=self.player), id="name")
                yield Label(_("Password (empty: none)"))
                yield Input(password=True, id="password")
                yield Label(_("Port"))
                yield Input(value=str(DEFAULT_PORT), id="port", restrict=r"[0-9]*")
                yield Label(_("Turn clock: seconds per decision, then a bot plays it (empty: off)"))
                yield Input(id="clock", restrict=r"[0-9]*")
                # Filled in per game (`game_changed`): only a title with a sealed engine has it.
                yield Vertical(id="sealing")
                yield Label(_("SSH door: friends join with only ssh on this port (empty: no door)"))
                yield Input(
                    id="ssh-port",
                    restrict=r"[0-9]*",
                    placeholder=_("empty: no door (the usual port is {port})").format(
                        port=DEFAULT_SSH_PORT
                    ),
                )
                yield Label(_("SSH door keys: an authorized_keys file, only its keys get in"))
                yield Input(
                    id="ssh-keys", placeholder=_("empty: anyone (e.g. ~/.ssh/authorized_keys)")
                )
            yield Vertical(id="options")
            with Horizontal(id="form-buttons"):
                yield Button(
                    _("Start")
                    if self.practise
                    else _("Change the table")
                    if self.lobby is not None
                    else _("Open the table"),
                    id="open",
                    variant="primary",
                )
                yield Button(_("Back"), id="back")
        # Below the form, not in it: the field to fix has the focus, and the form scrolls to it,
        # so the words that say what to fix must stay in sight wherever that field is.
        yield FormError(id="form-error", classes="below-form")
        yield KeyBar()

    async def on_mount(self) -> None:
        if self.lobby is not None:
            with self.prevent(Select.Changed):  # the options are built once, just below
                self.query_one("#game", Select).value = self.lobby.game
        await self.game_changed()
        if self.lobby is not None:
            await self.show_lobby(self.lobby)
        self.query_one("#game", Select).focus()

    async def show_lobby(self, lobby: Lobby) -> None:
        """The table as it is: its player count and each option's value (the deck is not in
        the lobby: its field stays empty, and an empty one keeps the table's deck)."""
        self.query_one("#players", Select).value = lobby.players
        self.players_changed()
        for spec in get_game(lobby.game).option_specs:
            value = lobby.options.get(spec.name)
            widget = self.query_one(f"#opt-{spec.name}")
            if isinstance(widget, TextCheckbox):
                widget.value = bool(value)
            elif isinstance(widget, Select):
                widget.value = "random" if value is None else str(value)
            elif isinstance(widget, Input) and spec.kind != "deck" and value is not None:
                text = ",".join(map(str, value)) if isinstance(value, list) else str(value)
                widget.value = text

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """ctrl+o is named in the key bar as the button is: Start for a practice game."""
        if action == "open":
            return not self.practise
        if action == "start":
            return self.practise
        return True

    def action_start(self) -> None:
        self.action_open()

    @property
    def hosting(self) -> bool:
        """Opening a table for others: a practice game, or a table already open, has fewer
        fields (no bots to count, no name, no port, no clock, no sealing)."""
        return not self.practise and self.lobby is None

    @property
    def game_id(self) -> str:
        return str(self.query_one("#game", Select).value)

    async def game_changed(self) -> None:
        game = get_game(self.game_id)
        self.shown_game = game.id
        players = self.query_one("#players", Select)
        players.set_options([(str(n), n) for n in range(game.min_players, game.max_players + 1)])
        players.value = min(max(3, game.min_players), game.max_players)
        self.players_changed()
        box = self.query_one("#options", Vertical)
        await box.remove_children()
        for spec in game.option_specs:
            await box.mount(*self.option_widgets(spec))
        if self.hosting:
            await self.sealing_widgets(game.id)

    async def sealing_widgets(self, game_id: str) -> None:
        """The "Sealed" box, for a title with a sealed engine only (like a game's options, it is
        built anew for each game chosen, and starts off)."""
        box = self.query_one("#sealing", Vertical)
        await box.remove_children()
        if not has_sealed_engine(game_id):
            return
        ascii_mode = bool(getattr(self.app, "ascii_mode", False))
        await box.mount(
            TextCheckbox(_("Sealed"), False, id="sealed", ascii_mode=ascii_mode),
            Label(
                _(
                    "nobody, the host included, sees a card they may not see; when a player's "
                    "time runs out, their own program plays for them"
                ),
                classes="field-note",
            ),
        )

    @property
    def sealed(self) -> bool:
        boxes = self.query("#sealed")
        return bool(boxes) and bool(boxes.first(TextCheckbox).value)

    def players_changed(self) -> None:
        value = self.query_one("#players", Select).value
        n = value if isinstance(value, int) else 2
        for spec in get_game(self.game_id).option_specs:
            if spec.kind == "seat" and self.query(f"#opt-{spec.name}"):
                first = self.query_one(f"#opt-{spec.name}", Select)
                chosen = first.value
                first.set_options(seat_choices(n))
                if isinstance(chosen, str) and chosen != "random" and int(chosen) < n:
                    first.value = chosen
        if self.practise or self.lobby is not None:
            return  # no bots field: all take the other seats, or the lobby adds them
        bots = self.query_one("#bots", Select)
        bots.set_options([(str(k), k) for k in range(n)])
        bots.value = 0

    def option_widgets(self, spec: OptionSpec) -> list[Any]:
        wid = f"opt-{spec.name}"
        text = option_text(spec.help)
        label = Label(text)
        if spec.kind == "bool":
            ascii_mode = bool(getattr(self.app, "ascii_mode", False))
            return [TextCheckbox(text, bool(spec.default), id=wid, ascii_mode=ascii_mode)]
        if spec.kind == "seat":
            players = self.query_one("#players", Select).value
            n = players if isinstance(players, int) else get_game(self.game_id).max_players
            return [label, FormSelect(seat_choices(n), value="random", allow_blank=False, id=wid)]
        if spec.kind == "deck":
            return [
                Label(_("Deck file (empty: the house deck)")),
                Input(id=wid, placeholder=_("path/to/deck.toml")),
            ]
        if spec.kind == "int_list":
            default = ",".join(str(v) for v in spec.default or [])
            return [label, Input(value=default, id=wid)]
        if spec.kind == "choice":
            return [
                label,
                FormSelect(
                    [(c, c) for c in spec.choices], value=spec.default, allow_blank=False, id=wid
                ),
            ]
        return [label, Input(value="" if spec.default is None else str(spec.default), id=wid)]

    async def on_select_changed(self, event: Select.Changed) -> None:
        # A game's fields are built once per game chosen: a late word from the game select
        # (the value it was composed with, announced after the mount) must not reset them.
        if event.select.id == "game" and self.game_id != getattr(self, "shown_game", None):
            await self.game_changed()
        elif event.select.id == "players":
            self.players_changed()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "open":
            self.action_open()
        else:
            self.app.pop_screen()

    def plan(self) -> TablePlan:
        """The table asked for, checked by the engine; GameError or ValueError say what is wrong."""
        game = get_game(self.game_id)
        players = self.query_one("#players", Select).value
        assert isinstance(players, int)
        options: dict[str, Any] = {}
        for spec in game.option_specs:
            widget = self.query_one(f"#opt-{spec.name}")
            if isinstance(widget, TextCheckbox):
                options[spec.name] = widget.value
            elif isinstance(widget, Select):
                value = str(widget.value)
                options[spec.name] = None if value == "random" else int(value)
            elif isinstance(widget, Input):
                text = widget.value.strip()
                if spec.kind == "deck":
                    if text:
                        options[spec.name] = Path(text).expanduser().read_text(encoding="utf-8")
                elif text:
                    options[spec.name] = spec.parse_text(text)
        game.make_config(players, options)
        if self.lobby is not None:
            now = self.lobby_now() or self.lobby  # people may have come or gone meanwhile
            seated = sum(1 for seat in now.seats if seat.kind == "human")
            if players < seated:  # the host would refuse it, and the lobby lose the form
                raise FieldError(
                    ngettext(
                        "{n} player is seated: the table needs at least {n} seat",
                        "{n} players are seated: the table needs at least {n} seats",
                        seated,
                    ).format(n=seated),
                    "players",
                )
            return TablePlan(game.id, players, options)
        level = str(self.query_one("#level", Select).value)
        if self.practise:
            return TablePlan(
                game.id, players, options, bots=players - 1, bot_level=level,
                name=_("practice"), bind="127.0.0.1", port=0, discovery=False,
            )  # fmt: skip
        bots = self.query_one("#bots", Select).value
        port_text = self.query_one("#port", Input).value.strip() or str(DEFAULT_PORT)
        password = self.query_one("#password", Input).value
        clock = self.query_one("#clock", Input).value.strip()
        if clock and int(clock) > MAX_TURN_CLOCK:
            raise FieldError(
                _("the turn clock is at most {limit} seconds (a day)").format(limit=MAX_TURN_CLOCK),
                "clock",
            )
        ssh_port = self.query_one("#ssh-port", Input).value.strip()
        if ssh_port and not 0 <= int(ssh_port) <= 65535:
            raise FieldError(_("the SSH door's port is between 0 and 65535"), "ssh-port")
        ssh_keys = self.ssh_keys(door=bool(ssh_port))
        return TablePlan(
            game.id, players, options, bots=int(bots) if isinstance(bots, int) else 0,
            bot_level=level, stand_in_level=level,
            name=self.query_one("#name", Input).value.strip(),
            password=password or None, port=int(port_text), turn_clock=float(clock or 0),
            ssh_port=int(ssh_port) if ssh_port else None, ssh_keys=ssh_keys,
            sealed=self.sealed,
        )  # fmt: skip

    def ssh_keys(self, *, door: bool) -> Path | None:
        """The SSH door's keys file, read now so that a mistake in it is said on this form."""
        text = self.query_one("#ssh-keys", Input).value.strip()
        if not text:
            return None
        if not door:
            raise FieldError(
                _("The SSH keys file is for the SSH door: give the door a port too."), "ssh-port"
            )
        from ui.ssh_door import DoorError, read_authorized_keys  # asyncssh: only for a door

        path = Path(text).expanduser()
        try:
            read_authorized_keys(path)
        except DoorError as exc:
            raise FieldError(str(exc), "ssh-keys") from None
        return path

    def show_error(self, text: str, field: str | None = None) -> None:
        """A problem with the table asked for (the engine's, or the port's when opening it)."""
        self.query_one(FormError).say(text)
        if field is not None and self.query(f"#{field}"):
            self.query_one(f"#{field}").focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_one(FormError).edited(event.input)

    def action_open(self) -> None:
        try:
            plan = self.plan()
        except (GameError, ValueError) as exc:
            self.show_error(str(exc), getattr(exc, "field", None))
            return
        except OSError as exc:
            self.show_error(f"{_('cannot read the deck file')}: {exc.strerror}")
            return
        self.query_one(FormError).clear()
        if self.lobby is not None:
            self.dismiss(plan)
            return
        self.app.open_table(plan)  # type: ignore[attr-defined]


class TableChangeScreen(HostSetupScreen):
    """The owner changes an open table: the game, the seats and the game's options.

    | Key | Action |
    | :- | :- |
    | tab / shift+tab | Next / previous field |
    | ctrl+o | Change the table |
    | escape | Back to the lobby, changing nothing |
    """

    BINDINGS = [
        Binding("ctrl+o", "open", N_("Change the table")),
        Binding("escape", "app.pop_screen", N_("Back")),
    ]

    def __init__(self, lobby: Lobby, lobby_now: Callable[[], Lobby | None]) -> None:
        super().__init__(lobby=lobby)
        self.lobby_now = lobby_now
