"""Watching a saved game again: the game's own screen, driven by the replay instead of a table.

Each step shows what the player saw at that moment (their view, the log up to then); the game
being over, every hand may be shown as well (`a`), and is at the last step. The replay comes
from the end-of-game audit, so nothing here needs the host (a sealed game's from its seats'
audit, which knows every card).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from netcards.action import Action
from netcards.game import Game, Outcome, TableConfig
from netcards.replay import BadReplay, Replay
from protocol.own_moves import OwnMoves
from protocol.sealed_play.replay import SealedReplay
from protocol.settings import data_dir
from ui.games import screen_class
from ui.games.base import GameScreen
from ui.i18n import N_, _


@dataclass
class ReplayClient:
    """What a game screen reads from its table client, taken from one step of a replay."""

    game: Game[Any]
    config: TableConfig
    seat: int | None
    names: list[str]
    view: dict[str, Any] = field(default_factory=dict)
    to_act: tuple[int, ...] = ()
    log: list[dict[str, Any]] = field(default_factory=list)
    steps: list[tuple[int, tuple[dict[str, Any], ...]]] = field(default_factory=list)
    moves: OwnMoves = field(default_factory=OwnMoves)
    """The seat's moves a bot made for its player, as the replay recorded them: the log names
    the bot, as it did at the table."""
    chat: list[Any] = field(default_factory=list)
    lobby: Any = None
    outcome: Outcome | None = None
    clock: dict[int, float] = field(default_factory=dict)
    awaiting: bool = False
    my_turn: bool = False

    def legal_actions(self) -> list[Action]:
        return []

    async def act(self, action: Any) -> None:
        raise ConnectionError("a replay cannot be played")

    async def say(self, text: str) -> None:
        raise ConnectionError("a replay has no chat")


@dataclass
class ReplaySession:
    client: ReplayClient
    host: Any = None


def save_replay(replay: Replay) -> Path:
    """Write a replay in the player's data folder; returns where."""
    folder = data_dir() / "replays"
    folder.mkdir(parents=True, exist_ok=True)
    stamp = replay.seed.hex()[:8]
    path = folder / f"{replay.game.id}-{stamp}.replay.json"
    path.write_text(json.dumps(replay.to_data(), indent=1), encoding="utf-8")
    return path


def load_replay(path: Path) -> Replay:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BadReplay(f"cannot read {str(path)!r}: {exc.strerror}") from None
    except ValueError:
        raise BadReplay(f"{str(path)!r} is not a replay file") from None
    if not isinstance(data, dict):
        raise BadReplay(f"{str(path)!r} is not a replay file")
    # A sealed game's replay is played again by the title's sealed engine, knowing every card
    # its audit found (`protocol/sealed_play/replay.py`).
    replay = SealedReplay.from_data(data) if data.get("sealed") else Replay.from_data(data)
    replay.steps()
    return replay


class EveryHand(VerticalScroll):
    """Every hand, under the table. Four Auf Achse hands and runs, or any game's hands late in
    the game under a grown table, are more lines than an 80x24 window has left there: they
    scroll on their own (the replay's up/down), so the table above stays in view."""

    can_focus = False  # the hand keeps the focus, and the replay its keys
    DEFAULT_CSS = """
    EveryHand {
        height: 1fr;
        min-height: 2;
        padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    """

    def on_resize(self, event: events.Resize) -> None:
        """More (or fewer) lines than rows: the scroll keys come (or go) in the key bar."""
        self.screen.refresh_bindings()


class ReplayControls:
    """Mixed in front of a game's screen: the keys step through the game instead of playing.

    | Key | Action |
    | :- | :- |
    | right / n | Next move |
    | left / p | Previous move |
    | ] / [ | Start of the next / previous day, round or stage (the game's deals) |
    | home / end | The deal / the end |
    | a | Show every hand (the game is over) or only yours |
    | down / up | Scroll every hand, when they are more than the window shows |
    | l | In a window under 80 columns: the log in the table's place, and back |
    | q / escape | Close the replay |
    """

    BINDINGS: ClassVar[list[Any]] = [
        Binding("right,n", "step(1)", N_("Next"), priority=True),
        Binding("left,p", "step(-1)", N_("Previous"), priority=True),
        Binding("right_square_bracket", "jump(1)", N_("Next day/round"), priority=True),
        Binding(
            "left_square_bracket", "jump(-1)", N_("Previous day/round"), priority=True, show=False
        ),
        Binding("home", "to(0)", N_("Deal"), priority=True, show=False),
        Binding("end", "to(-1)", N_("End"), priority=True, show=False),
        Binding("a", "all_hands", N_("All hands"), priority=True),
        Binding("down", "scroll_hands(1)", N_("Scroll hands"), priority=True),
        Binding("up", "scroll_hands(-1)", N_("Scroll hands up"), priority=True, show=False),
        Binding("question_mark", "rules", N_("Rules"), show=False),
        Binding("q,escape", "close", N_("Close"), priority=True),
    ]

    KEYS: ClassVar[frozenset[str]] = frozenset(
        {"step", "jump", "to", "all_hands", "close", "rules", "scroll_log", "scroll_hands"}
    )
    NARROW_KEYS: ClassVar[frozenset[str]] = frozenset({"log_view"})
    """In a narrow window, the log's key too (the game screen says when: see `check_action`)."""
    """The only keys of a replay: the game screen's own (play, hint, chat...) are hidden."""

    replay: Replay
    step_index: int
    show_all: bool

    def check_action(self: Any, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "scroll_hands":
            # Only while there is more to see: a key that does nothing would crowd the bar.
            hands = self.query(EveryHand)
            return bool(hands) and hands.first().display and hands.first().max_scroll_y > 0
        if action in self.NARROW_KEYS:
            return super().check_action(action, parameters)  # type: ignore[misc,no-any-return]
        return action in self.KEYS

    def on_mount(self: Any) -> None:
        """A replay has nobody to talk to: no chat box (the log takes its room). Every hand
        goes under the table, which keeps the rows it needs."""
        self.query_one("#chat").display = False
        self.query_one("#table").styles.height = "auto"
        self.query_one("#left").mount(EveryHand(Static(id="every-hand")))

    def go(self: Any, index: int) -> None:
        steps = self.replay.steps()
        self.step_index = max(0, min(index, len(steps) - 1))
        step = steps[self.step_index]
        client: ReplayClient = self.client
        client.view = step.view
        client.to_act = step.to_act
        client.steps = [(s.index, s.events) for s in steps[: self.step_index + 1]]
        client.log = [e for _index, events in client.steps for e in events]
        last = self.step_index == len(steps) - 1
        client.outcome = self.replay.outcome() if last else None
        self.log_new_events()
        self.refresh_all()

    def action_step(self: Any, delta: int) -> None:
        self.go(self.step_index + delta)

    def part_starts(self: Any) -> list[int]:
        """The steps where a day, round or stage begins, as the game's `part_start` says: the
        deal, then each step with that event. A game's smaller units (an Auf Achse stage's
        rounds) are not where its "Next stage" goes."""
        steps = self.replay.steps()
        kind = self.part_start

        def starts(step: Any) -> bool:
            if not kind:  # a game that does not say: any day, round or stage
                return bool(step.boundary)
            return any(e.get("kind") == kind for e in step.events)

        return [0] + [i for i, step in enumerate(steps) if i > 0 and starts(step)]

    def action_jump(self: Any, direction: int) -> None:
        """To the start of the next part, or of the one before the part shown (from its middle
        too: "Previous stage" in stage 2 is stage 1); past the last part, the end."""
        starts = self.part_starts()
        if direction > 0:
            later = [i for i in starts if i > self.step_index]
            self.go(later[0] if later else len(self.replay.steps()) - 1)
        else:
            current = max(i for i in starts if i <= self.step_index)
            self.go(max((i for i in starts if i < current), default=0))

    def action_to(self: Any, index: int) -> None:
        self.go(index if index >= 0 else len(self.replay.steps()) - 1)

    def show_results(self: Any) -> None:
        """The end of a replay is its last move, shown on this screen: no results screen (it
        would offer a table to go back to, and there is none)."""

    def action_all_hands(self: Any) -> None:
        self.show_all = not self.show_all
        self.refresh_all()

    def action_scroll_hands(self: Any, direction: int) -> None:
        # At once: deferred to the next refresh, each key of a burst would start from where
        # the first began, and all but one be lost.
        box = self.query_one(EveryHand)
        box.scroll_to(y=box.scroll_y + direction, animate=False, immediate=True)

    def action_close(self: Any) -> None:
        self.app.exit()

    def refresh_all(self: Any) -> None:
        super().refresh_all()  # type: ignore[misc]
        steps = self.replay.steps()
        box = self.query(EveryHand)
        if not box:
            return  # before the screen is mounted
        shown = self.show_all or self.step_index == len(steps) - 1
        box.first().display = shown
        if shown:
            self.query_one("#every-hand", Static).update(self.every_hand())
        self.refresh_bindings()

    def every_hand(self: Any) -> Text:
        steps = self.replay.steps()
        lines = Text(_("Every hand:") + "\n", style="bold")
        hands = steps[self.step_index].hands
        for name, cards in sorted(hands.items(), key=lambda kv: (int(kv[0].split(":")[1]), kv[0])):
            where, seat = name.split(":")[0], int(name.split(":")[1])
            labels = " ".join(self.card_code(c) for c in cards) or "-"
            who = self.client.names[seat]
            if where == "run":
                who = _("{name}'s run").format(name=who)
            lines.append(f"{who}: {labels}\n")
        lines.rstrip()
        return lines

    def refresh_status(self: Any) -> None:
        steps = self.replay.steps()
        status = Text(_("Replay") + " ", style="bold")
        status.append(
            _("move {i} of {n}").format(i=self.step_index, n=len(steps) - 1)
            + ("  " + _("(every hand shown)") if self.show_all else "")
        )
        self.query_one("#status", Static).update(status, layout=False)


def replay_screen(replay: Replay, *, ascii_mode: bool = False) -> GameScreen:
    """The game's own screen, in replay mode, at the deal."""
    base = screen_class(replay.game.id)
    if base is None:
        raise BadReplay(f"no screen for {replay.game.name}")
    # Textual collects BINDINGS from its own classes only, so they go on the new class itself;
    # the jumps to the next and previous day, round or stage say the game's own word.
    words = {"jump(1)": base.next_part, "jump(-1)": base.previous_part}
    bindings = [
        replace(b, description=words[b.action]) if b.action in words else b
        for b in ReplayControls.BINDINGS
    ]
    # Made here, the class would say it comes from Textual's module (the metaclass's): it is
    # netcards' own, for the keys that `?` and the command palette list (`ui.screen_keys`).
    cls = type(
        f"Replay{base.__name__}",
        (ReplayControls, base),
        {"BINDINGS": bindings, "__module__": __name__},
    )
    client = ReplayClient(
        replay.game,
        replay.config,
        replay.seat,
        replay.names,
        moves=OwnMoves(by_bot=set(replay.stand_in)),
    )
    screen: Any = cls(ReplaySession(client), ascii_mode=ascii_mode)
    screen.replay = replay
    screen.step_index = 0
    screen.show_all = False
    first = replay.steps()[0]
    client.view, client.to_act = first.view, first.to_act
    return screen  # type: ignore[no-any-return]
