"""Your hand: cards in a row, a cursor, and (for games that play several cards) a selection.

Its cards are boxes, or words on one line where the window has too few rows for the boxes
(`box_lines`, which the game screen sets from the window's size: see `ui.layout`).

The selection remembers the order the cards were picked in, for games where that order matters
(Auf Achse's Completely free road puts the first picked card into the run first); such a game
sets `ordered` so the boxes show their number instead of a tick (words keep the tick: a number
before a km word would read as part of it, and the game's prompt says the order).
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ui.i18n import _
from ui.widgets.cardface import CARD_HEIGHT, CARD_WIDTH, Look, boxes, word_width, words


class Hand(Widget, can_focus=True):
    """A hand of cards.

    | Key | Action |
    | :- | :- |
    | left / right | Move between cards |
    | home / end | The first / the last card |

    With the mouse, a click on a card moves the cursor to it, and a second click on the same
    card chooses it, as enter does.

    Enter and space are the game screen's keys (each game words them in its footer); its
    actions call `action_choose` and `action_select_card`.
    """

    BINDINGS = [
        Binding("left", "move(-1)", "Previous", show=False),
        Binding("right", "move(1)", "Next", show=False),
        Binding("home", "jump(0)", show=False),
        Binding("end", "jump(-1)", show=False),
    ]

    DEFAULT_CSS = """
    Hand {
        height: auto;
        min-height: 5;
        padding: 0 1;
    }
    Hand.-words {
        min-height: 1;
    }
    """

    cursor: reactive[int] = reactive(0)

    class Chosen(Message):
        """Enter was pressed: the card under the cursor, and the selected cards (`selection`
        sorted, `order` in the order they were picked)."""

        def __init__(
            self,
            hand: Hand,
            card: int | None,
            selection: tuple[int, ...],
            order: tuple[int, ...] = (),
        ) -> None:
            super().__init__()
            self.hand = hand
            self.card = card
            self.selection = selection
            self.order = order

    class Selected(Message):
        """Space changed the selection: the selected cards in the order they were picked."""

        def __init__(self, hand: Hand, order: tuple[int, ...]) -> None:
            super().__init__()
            self.hand = hand
            self.order = order

    class Moved(Message):
        def __init__(self, hand: Hand, card: int | None) -> None:
            super().__init__()
            self.hand = hand
            self.card = card

    def __init__(self, *, multi: bool = False, ascii_mode: bool = False, id: str | None = None):
        super().__init__(id=id)
        self.multi = multi
        self.ascii_mode = ascii_mode
        self.ordered = False
        """Show each selected card's place in the order (1, 2, ...) instead of a tick."""
        self.limit: int | None = None
        """At most this many cards may be selected (None: no limit); with 1, selecting another
        card moves the selection to it."""
        self.cards: list[int] = []
        self.looks: list[Look] = []
        self.playable: set[int] = set()
        self.selected: set[int] = set()
        self.order: list[int] = []
        """The selected cards in the order they were picked."""
        self.per_row = 1
        """Cards in a row as last drawn (to find the card under a click)."""
        self.box_lines: int | None = None
        """The most lines the cards may take as boxes (None: no limit); past it, words."""
        self.clicked: int | None = None
        """The card clicked last, if nothing moved the cursor since (a second click chooses)."""
        self.empty_words = ""
        """What an empty hand says instead of "(no cards)" (the deal still on its way)."""

    def set_cards(self, cards: list[int], looks: list[Look], playable: set[int]) -> None:
        self.cards, self.looks, self.playable = list(cards), list(looks), set(playable)
        self.selected &= set(cards)
        self.order = [c for c in self.order if c in self.selected]
        if self.cursor >= len(cards):
            self.cursor = max(0, len(cards) - 1)
        self.choose_form()
        self.refresh(layout=True)

    def fit_lines(self, lines: int | None) -> None:
        """The window changed: at most `lines` for boxes (None: as many as they need)."""
        self.box_lines = lines
        self.choose_form()

    def on_resize(self) -> None:
        self.choose_form()

    def choose_form(self) -> None:
        """Boxes when they fit in `box_lines`, else words (the `-words` class: one line per
        row of cards, and no more lines kept for boxes). An empty hand counts as a row: where
        no box would fit, its words ('(no cards)', the deal on its way) take one line, not the
        rows of a box."""
        as_words = False
        if self.box_lines is not None:
            per_row = max(1, self.room // CARD_WIDTH)
            rows = max(1, -(-len(self.cards) // per_row))
            as_words = rows * CARD_HEIGHT > self.box_lines
        self.set_class(as_words, "-words")

    @property
    def as_words(self) -> bool:
        return self.has_class("-words")

    @property
    def room(self) -> int:
        """The columns the cards have (before the first layout: the full layout's)."""
        return max(10, self.size.width - 2) if self.size.width else 78

    @property
    def step(self) -> int:
        """The columns of one card as drawn now."""
        return word_width(self.looks) if self.as_words else CARD_WIDTH

    @property
    def current(self) -> int | None:
        return self.cards[self.cursor] if self.cards else None

    def render(self) -> Text:
        if not self.cards:
            return Text(self.empty_words or _("(no cards)"), style="dim")
        cursor = self.cursor if self.has_focus else None
        selected = frozenset(i for i, c in enumerate(self.cards) if c in self.selected)
        numbers = {self.cards.index(c): n for n, c in enumerate(self.order, 1)}
        dimmed = frozenset(i for i, c in enumerate(self.cards) if c not in self.playable)
        if self.as_words:
            # The last column is the closing bracket of a row's last card.
            self.per_row = max(1, (self.room - 1) // self.step)
            return words(
                self.looks,
                ascii_mode=self.ascii_mode,
                cursor=cursor,
                selected=selected,
                dimmed=dimmed,
                per_row=self.per_row,
            )
        self.per_row = max(1, self.room // CARD_WIDTH)
        return boxes(
            self.looks,
            ascii_mode=self.ascii_mode,
            cursor=cursor,
            selected=selected,
            numbers=numbers if self.ordered else {},
            dimmed=dimmed,
            per_row=self.per_row,
            faint=not (self.ascii_mode or getattr(self.app, "no_color", False)),
        )

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or not self.cards:
            return
        if self.as_words:  # a word's gap before it is its own: the cursor's bracket goes there
            column, inside = divmod(offset.x, self.step)
            index = offset.y * self.per_row + column
            outside = False
        else:  # the space after a box is nobody's
            column, inside = divmod(offset.x, CARD_WIDTH)
            index = offset.y // CARD_HEIGHT * self.per_row + column
            outside = inside >= CARD_WIDTH - 1
        if outside or column >= self.per_row or index >= len(self.cards):
            return
        card = self.cards[index]
        if self.clicked == card and self.current == card:
            self.clicked = None
            self.action_choose()
            return
        self.cursor = index
        self.clicked = card
        self.post_message(self.Moved(self, card))

    def point_at(self, cards: tuple[int, ...]) -> None:
        """The cursor to the first of `cards`; in a hand that selects, `cards` become the
        selection (a combination, a Free road's cards in order), so that enter plays them.
        (No `Moved`: the caller redraws what depends on the cursor, keeping its message.)"""
        shown = [c for c in cards if c in self.cards]
        if not shown:
            return
        self.cursor = self.cards.index(shown[0])
        if self.multi:
            self.selected, self.order = set(shown), list(shown)
        self.refresh()

    def action_move(self, step: int) -> None:
        self.clicked = None
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)
            self.post_message(self.Moved(self, self.current))

    def action_jump(self, where: int) -> None:
        self.clicked = None
        if self.cards:
            self.cursor = where % len(self.cards)
            self.post_message(self.Moved(self, self.current))

    def action_select_card(self) -> None:
        card = self.current
        if not self.multi or card is None:
            return
        if card in self.selected:
            self.selected.discard(card)
            self.order.remove(card)
        elif self.limit is None or len(self.selected) < self.limit:
            self.selected.add(card)
            self.order.append(card)
        elif self.limit == 1:  # one card to pick: space moves the pick, as radio buttons do
            self.selected, self.order = {card}, [card]
        else:
            return
        self.refresh()
        self.post_message(self.Selected(self, tuple(self.order)))

    def action_choose(self) -> None:
        self.post_message(
            self.Chosen(self, self.current, tuple(sorted(self.selected)), tuple(self.order))
        )

    def clear_selection(self) -> None:
        self.selected.clear()
        self.order.clear()
        self.refresh()

    def watch_cursor(self) -> None:
        self.refresh()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
