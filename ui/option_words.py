"""The games' options as the host form shows them, in the player's language.

An option's text comes from its game (`OptionSpec.help`, in English: the engine speaks no
language but its own). The texts are marked here so that the catalogue holds them, and a test
keeps this list and the games' options the same.
"""

from __future__ import annotations

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
