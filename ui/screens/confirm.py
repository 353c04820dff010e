"""Small yes/no questions (leave the table? trust this host?)."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ui.i18n import N_, _
from ui.widgets.keybar import KeyBar


class ScrollsItsText:
    """A question's or a notice's words scroll when they are longer than a small window leaves
    them (a phone's 20 rows): up and down scroll them, and the answers stay in sight below."""

    SCROLL_KEYS: ClassVar[list[BindingType]] = [
        Binding("up", "scroll_text(-1)", show=False),
        Binding("down", "scroll_text(1)", show=False),
        Binding("pageup", "scroll_text(-5)", show=False),
        Binding("pagedown", "scroll_text(5)", show=False),
    ]
    ROWS_AROUND = 10
    """The rows the frame, the answers and the key bar take around the words."""

    def on_resize(self, event: events.Resize) -> None:
        scroll = self.query_one("#question-scroll")  # type: ignore[attr-defined]
        scroll.styles.max_height = max(2, event.size.height - self.ROWS_AROUND)

    def action_scroll_text(self, rows: int) -> None:
        self.query_one("#question-scroll").scroll_relative(y=rows, animate=False)  # type: ignore[attr-defined]


class Confirm(ScrollsItsText, ModalScreen[bool]):
    """A question with two answers. Enter takes the focused one: "yes" unless the question says
    the safe answer is "no" (`default=False`: trusting a key, closing a table for everyone).

    | Key | Action |
    | :- | :- |
    | y | Yes |
    | n / escape | No |
    | enter | The focused answer |
    """

    BINDINGS = [
        Binding("y", "answer(True)", N_("Yes")),
        Binding("n", "answer(False)", N_("No")),
        Binding("escape", "answer(False)", show=False),
        *ScrollsItsText.SCROLL_KEYS,
    ]

    def __init__(
        self,
        question: str,
        yes: str = "",
        no: str = "",
        *,
        loud: bool = False,
        default: bool = True,
    ) -> None:
        super().__init__()
        self.question = question
        self.yes = yes or _("Yes")
        self.no = no or _("No")
        self.loud = loud
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="loud" if self.loud else ""):
            with VerticalScroll(id="question-scroll"):
                yield Static(self.question, id="question")
            with Horizontal(id="answers"):
                yield Button(self.yes + " (y)", id="yes", variant="primary")
                yield Button(self.no + " (n)", id="no")
        yield KeyBar()  # the bottom line always names the keys, over a question too

    def on_mount(self) -> None:
        self.query_one("#yes" if self.default else "#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class Notice(ScrollsItsText, ModalScreen[None]):
    """A message to read, then back (enter or escape)."""

    BINDINGS = [Binding("escape,enter", "close", N_("Close")), *ScrollsItsText.SCROLL_KEYS]
    ROWS_AROUND = 8

    def __init__(self, text: str, *, loud: bool = False) -> None:
        super().__init__()
        self.text = text
        self.loud = loud

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="loud" if self.loud else ""):
            with VerticalScroll(id="question-scroll"):
                yield Static(self.text, id="question")
            yield Button(_("OK (enter)"), id="ok", variant="primary")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    def on_button_pressed(self) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)
