"""A game's rules, from the same Markdown pages as `netcards rules` and docs/rules/."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import MarkdownViewer, OptionList, Static
from textual.widgets.option_list import Option

from netcards.registry import all_games
from ui.docs import rules_text
from ui.i18n import N_, _, current
from ui.widgets.keybar import KeyBar
from ui.widgets.lists import StoppingOptionList


class RulesScreen(Screen[None]):
    """The rules.

    | Key | Action |
    | :- | :- |
    | up / down, page up / down | Scroll |
    | escape / q | Back |
    """

    BINDINGS = [Binding("escape,q", "app.pop_screen", N_("Back"))]

    def __init__(
        self,
        game_id: str,
        table_options: list[str] | None = None,
        keys: list[tuple[str, str]] | None = None,
    ) -> None:
        """`table_options`: what the table being played set away from the rules' defaults,
        said first, since the page describes every variant and only the table knows which.
        `keys`: every key of the game screen it was opened from (the chat, the log, leaving
        and the palette too, which the page's own table of the game's keys leaves out)."""
        super().__init__()
        self.game_id = game_id
        self.table_options = table_options or []
        self.keys = keys or []

    def compose(self) -> ComposeResult:
        text = rules_text(self.game_id, current()) or _("No rules page ships for this game.")
        first = []  # under the page's title: what only this table can say
        if self.table_options:
            said = "\n".join(f"- **{line}**" for line in self.table_options)
            first.append(f"## {_('This table')}\n\n{said}\n")
        if self.keys:
            rows = "\n".join(f"| `{key}` | {what} |" for key, what in self.keys)
            head = f"| {_('Key')} | {_('What it does')} |\n| :- | :- |"
            first.append(f"## {_('Keys at this table')}\n\n{head}\n{rows}\n")
        title, _newline, rest = text.partition("\n") if text.startswith("# ") else ("", "", text)
        text = "\n".join(part for part in (title, *first, rest) if part)
        yield MarkdownViewer(text, show_table_of_contents=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(MarkdownViewer).focus()


class RulesPicker(Screen[None]):
    """Which game's rules?

    | Key | Action |
    | :- | :- |
    | up / down, enter | Choose a game |
    | escape | Back |
    """

    BINDINGS = [Binding("escape", "app.pop_screen", N_("Back"))]

    def compose(self) -> ComposeResult:
        games = sorted(all_games().values(), key=lambda g: g.name)
        with Center(), Vertical(id="menu-box"):
            yield Static(_("Rules"), id="menu-title")
            yield StoppingOptionList(*[Option(g.name, id=g.id) for g in games], id="menu")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.app.show_rules(event.option.id)  # type: ignore[attr-defined]
