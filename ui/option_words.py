"""The games' options as the host form shows them, in the player's language.

An option's text comes from its game (`OptionSpec.help`, in English: the engine speaks no
language but its own). The texts are marked here so that the catalogue holds them, and a test
keeps this list and the games' options the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from netcards.options import OptionSpec
from ui.i18n import N_, _

OPTION_TEXTS = frozenset(
    {
        N_("Variant: the game ends when a player plays their last card."),
        N_("The seat that starts day 1 (default: random)."),
        N_("A deck file's text (default: the house deck)."),
        N_("The seat that leads round 1 (the sheet: the youngest player; default: random)."),
        N_("The difficulty of each round, in order; the game has as many rounds as values."),
        N_("Duel only: the game ends as soon as a player has this many points."),
        N_("The seat that starts stage 1 (default: random)."),
    }
)


def option_text(help_text: str) -> str:
    """An option's text in the player's language (an option this list misses, in English)."""
    return _(help_text)


def options_in_play(specs: Sequence[OptionSpec], options: Mapping[str, Any]) -> list[str]:
    """The options this table set away from the game's defaults, one line each, so that
    everyone at the table knows the rules it plays by (a variant nobody can see is a trap).
    The deck is left out: the lobby never carries it."""
    lines = []
    for spec in specs:
        value = options.get(spec.name, spec.default)
        if value == spec.default or spec.kind == "deck":
            continue
        text = option_text(spec.help)
        if spec.kind == "bool":
            lines.append(text if value else _("Off: {option}").format(option=text))
            continue
        if spec.kind == "seat" and isinstance(value, int):
            shown = _("seat {n}").format(n=value + 1)
        elif isinstance(value, list):
            shown = ",".join(str(v) for v in value)
        else:
            shown = str(value)
        lines.append(_("{option} This table: {value}.").format(option=text, value=shown))
    return lines
