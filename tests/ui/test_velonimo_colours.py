"""Velonimo's seven colours as terminals of each depth show them: 16 colours (TERM=xterm),
256 colours, and true colour.

A colour goes through the app's own filter first (named ANSI colours become its theme's
colours, faint ones a blend with the background), then Rich brings it down to the terminal's
depth, as the app's console does when it writes the screen. The snapshots are SVG pictures of
a hand of the seven colours and a hare after those two steps, drawn with xterm's own 16
colours, so that a change of palette shows as a picture that can be looked at.
"""

from __future__ import annotations

import io
from itertools import combinations
from typing import Any

import pytest
from rich.color import ColorSystem
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.terminal_theme import MONOKAI, TerminalTheme
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode
from textual.color import Color as TextualColor
from textual.filter import ANSIToTruecolor

from netcards.games.velonimo.cards import ALL_CARDS, COLOUR, VALUE, is_hare
from ui.games.velonimo import COLOUR_STYLES, HARE_STYLE, VelonimoScreen
from ui.widgets.cardface import boxes

DEPTHS = {
    "16": ColorSystem.STANDARD,
    "256": ColorSystem.EIGHT_BIT,
    "truecolor": ColorSystem.TRUECOLOR,
}
BACKGROUND = TextualColor.parse("#121212")  # the dark theme's background

XTERM = TerminalTheme(
    (0, 0, 0),
    (229, 229, 229),
    [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
     (0, 205, 205), (229, 229, 229)],
    [(127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255),
     (0, 255, 255), (255, 255, 255)],
)  # fmt: skip
"""xterm's own 16 colours: what TERM=xterm shows."""


class SVGSnapshot(SingleFileSnapshotExtension):
    _file_extension = "svg"
    _write_mode = WriteMode.TEXT


def as_shown(style: Style, depth: ColorSystem) -> Style:
    """The style as a terminal of that depth receives it from the app."""
    app_filter = ANSIToTruecolor(MONOKAI)  # the app's theme for ANSI colours (Textual's default)
    [segment] = app_filter.apply([Segment("x", style)], BACKGROUND)
    shown = segment.style or Style()
    color = shown.color.downgrade(depth) if shown.color is not None else None
    return Style(color=color, bold=shown.bold, reverse=shown.reverse, dim=shown.dim)


def shown_number(style: Style, depth: ColorSystem) -> Any:
    """What the terminal is told: a colour number (16 and 256 colours) or a triplet."""
    color = as_shown(style, depth).color
    assert color is not None
    return color.number if depth != ColorSystem.TRUECOLOR else color.triplet


@pytest.mark.parametrize("depth", list(DEPTHS.values()), ids=list(DEPTHS))
def test_the_seven_colours_are_seven_at_every_depth(depth: ColorSystem) -> None:
    shown = [shown_number(Style.parse(s), depth) for s in COLOUR_STYLES]
    for (a, colour_a), (b, colour_b) in combinations(enumerate(shown), 2):
        assert colour_a != colour_b, f"colours {a} and {b} are one colour: {colour_a}"


def test_the_16_colours_are_the_nearest_names_and_bold_does_not_brighten_them() -> None:
    """Red, orange, yellow, green, blue, purple and brown as xterm's red, bright red, bright
    yellow, green, bright blue, magenta and (dark) yellow; none bold, since bold brightens
    the 16 colours in many terminals (red would turn orange, brown yellow)."""
    shown = [shown_number(Style.parse(s), ColorSystem.STANDARD) for s in COLOUR_STYLES]
    assert shown == [1, 9, 11, 2, 12, 5, 3]
    assert not any(Style.parse(s).bold for s in COLOUR_STYLES)


def hand_of_every_colour() -> list[int]:
    """One card of each colour (values 1 to 7) and a hare."""
    picked = {COLOUR[c]: c for c in ALL_CARDS if not is_hare(c) and VALUE[c] == COLOUR[c] + 1}
    hare = next(c for c in ALL_CARDS if is_hare(c))
    return [picked[colour] for colour in sorted(picked)] + [hare]


def hand_svg(depth: ColorSystem) -> str:
    """The hand (the cursor on the first card, the last two not playable) at that depth."""
    screen: Any = VelonimoScreen.__new__(VelonimoScreen)  # its looks only, no table behind it
    cards = hand_of_every_colour()
    looks = [screen.look(c) for c in cards]
    text = boxes(looks, ascii_mode=False, cursor=0, dimmed=frozenset({6, 7}), per_row=8)
    width = 48
    console = Console(width=width, file=io.StringIO())
    segments = [
        Segment(seg.text, as_shown(seg.style, depth) if seg.style else None)
        for seg in console.render(text)
    ]
    out = Console(width=width, color_system="truecolor", record=True, file=io.StringIO())
    out.print(Segments(segments))
    return out.export_svg(title=f"Velonimo hand, {depth.name.lower()}", theme=XTERM)


class Segments:
    """Segments already styled, printed as they are."""

    def __init__(self, segments: list[Segment]) -> None:
        self.segments = segments

    def __rich_console__(self, console: Console, options: Any) -> Any:
        yield from self.segments


@pytest.mark.parametrize(
    "depth", [ColorSystem.STANDARD, ColorSystem.EIGHT_BIT], ids=["16-colours", "256-colours"]
)
def test_a_hand_of_every_colour_at_16_and_256_colours(snapshot: Any, depth: ColorSystem) -> None:
    assert HARE_STYLE == "bold"
    assert hand_svg(depth) == snapshot.use_extension(SVGSnapshot)
