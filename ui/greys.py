"""NO_COLOR's greys: each colour drawn as the grey a person sees as just as light.

Under `NO_COLOR` Textual draws every colour as a grey, but its grey is a weighted sum of the
gamma-encoded red, green and blue, which makes saturated colours far too dark: Velonimo's red
card (#d70000) became #2e2e2e on the #121212 background, 1.4:1, unreadable. This filter takes
Textual's place and gives each colour the grey of the same relative luminance (WCAG 2: the
channels made linear, then weighted), so a colour keeps its contrast against its background
when it turns grey, and a card readable in colour stays readable without it.
"""

from __future__ import annotations

from functools import lru_cache

from rich.color import Color as RichColor
from rich.color import ColorType
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter


def linear(channel: float) -> float:
    """An sRGB channel (0 to 1) as light: the inverse of the display's gamma."""
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def encoded(light: float) -> float:
    """The sRGB channel (0 to 1) that shows this much light."""
    return light * 12.92 if light <= 0.0031308 else 1.055 * light ** (1 / 2.4) - 0.055


def relative_luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG 2's relative luminance of an sRGB colour: 0 for black, 1 for white."""
    r, g, b = (linear(c / 255) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG 2's contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    dark, light = sorted((relative_luminance(a), relative_luminance(b)))
    return (light + 0.05) / (dark + 0.05)


@lru_cache(1024)
def grey(color: RichColor) -> RichColor:
    """The grey as light as `color`; the terminal's own default colours are left alone."""
    if color.type == ColorType.DEFAULT:
        return color
    level = round(encoded(relative_luminance(color.get_truecolor())) * 255)
    return RichColor.from_rgb(level, level, level)


@lru_cache(1024)
def grey_style(style: Style) -> Style:
    fg, bg = style.color, style.bgcolor
    return style + Style.from_color(
        None if fg is None else grey(fg), None if bg is None else grey(bg)
    )


class EqualLuminanceGreys(LineFilter):
    """Every colour as the grey of its relative luminance (in place of Textual's Monochrome)."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            Segment(text, None if style is None else grey_style(style), control)
            for text, style, control in segments
        ]
