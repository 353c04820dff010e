"""Every card of every game is readable in every colour mode: at least 3:1 (WCAG 2's contrast
ratio, from relative luminance) against the background it is drawn on.

What is measured is what the terminal draws: the card's style on the app's base colours (the
default theme's foreground and background), through the app's own line filters (named ANSI
colours become the theme's; under NO_COLOR every colour becomes a grey), brought down by Rich
to the terminal's depth, then drawn with that depth's palette: the colour itself (true colour),
xterm's 256 colours, or xterm's 16 (what a 16- or 8-colour terminal is sent: Rich addresses
both alike). The card under the cursor is the same pair of colours reversed.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from rich._palettes import EIGHT_BIT_PALETTE
from rich.color import Color as RichColor
from rich.color import ColorSystem
from rich.segment import Segment
from rich.style import Style
from textual.color import Color

from netcards.games.auf_achse.cards import deck_for as auf_achse_deck
from netcards.games.velonimo.cards import ALL_CARDS as VELONIMO_CARDS
from netcards.games.via_gladiola.cards import deck_for as via_gladiola_deck
from ui.app import NetcardsApp
from ui.games.auf_achse import AufAchseScreen
from ui.games.base import GameScreen
from ui.games.velonimo import VelonimoScreen
from ui.games.via_gladiola import ViaGladiolaScreen
from ui.greys import contrast
from ui.user_settings import UserSettings

XTERM_16 = [
    (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
    (0, 205, 205), (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
    (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
]  # fmt: skip
"""xterm's own 16 colours (TERM=xterm)."""

DEPTHS = {
    "truecolor": ColorSystem.TRUECOLOR,
    "256": ColorSystem.EIGHT_BIT,
    "16": ColorSystem.STANDARD,
}


def drawn(color: RichColor, depth: ColorSystem) -> tuple[int, int, int]:
    """The colour a terminal of that depth shows for `color` as the app sends it."""
    sent = color.downgrade(depth)
    if depth == ColorSystem.TRUECOLOR:
        assert sent.triplet is not None
        return tuple(sent.triplet)  # type: ignore[return-value]
    assert sent.number is not None
    palette = XTERM_16 if depth == ColorSystem.STANDARD else list(EIGHT_BIT_PALETTE)
    return tuple(palette[sent.number])  # type: ignore[return-value]


def screen_of(cls: type[GameScreen]) -> Any:
    """A game's screen for its looks only, with no table behind it (the house deck)."""
    screen: Any = cls.__new__(cls)
    screen.ascii_mode = False
    screen.session = SimpleNamespace(client=SimpleNamespace(config=None))
    if cls is ViaGladiolaScreen:
        screen.deck = via_gladiola_deck(None)
    return screen


def every_card() -> list[tuple[str, Any, int]]:
    """(game, screen, card) for every card of every game's house deck."""
    games = [
        ("velonimo", VelonimoScreen, list(VELONIMO_CARDS)),
        ("via-gladiola", ViaGladiolaScreen, range(len(via_gladiola_deck(None).cards))),
        ("auf-achse", AufAchseScreen, range(len(auf_achse_deck(None).kind))),
    ]
    return [(game, screen_of(cls), card) for game, cls, cards in games for card in cards]


@pytest.mark.parametrize("no_color", [False, True], ids=["colour", "NO_COLOR"])
@pytest.mark.parametrize("depth", list(DEPTHS.values()), ids=list(DEPTHS))
def test_every_card_is_readable_at_every_depth_with_and_without_colour(
    monkeypatch: pytest.MonkeyPatch, depth: ColorSystem, no_color: bool
) -> None:
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    app = NetcardsApp(UserSettings())
    assert app.no_color == no_color
    theme = app.get_theme(UserSettings().theme)  # the theme the app starts with
    assert theme is not None
    variables = theme.to_color_system().generate()
    background = Color.parse(variables["background"])
    base = Style(
        color=Color.parse(variables["foreground"]).rich_color, bgcolor=background.rich_color
    )
    filters = app.get_line_filters()
    unreadable = []
    looks = {(game, screen.look(card).colour) for game, screen, card in every_card()}
    assert len(looks) > 10  # every game's styles, not one
    for game, colour in sorted(looks):
        segments = [Segment("7", base + Style.parse(colour) if colour else base)]
        for line_filter in filters:
            segments = line_filter.apply(segments, background)
        style = segments[0].style
        assert style is not None and style.color is not None and style.bgcolor is not None
        ratio = contrast(drawn(style.color, depth), drawn(style.bgcolor, depth))
        if ratio < 3:
            unreadable.append(f"{game} {colour!r}: {ratio:.2f}:1")
    assert not unreadable, unreadable
