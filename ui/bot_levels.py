"""How the app names bot levels to players: by what to expect of them, in the player's language.

`random`, `heuristic` and `search` are identifiers: the command line, the protocol, the logs and
other players' programs use them as they are. A player choosing an opponent wants to know how
hard it plays, so every screen shows a level by these names instead; a level with a budget
(`search:1s`) keeps its identifier beside the name, since that says how long it thinks.
"""

from __future__ import annotations

from ui.i18n import N_, _

NAMES = {"random": N_("easy"), "heuristic": N_("medium"), "search": N_("hard")}
"""The short name, for the lobby's rows and notes."""

CHOICES = {
    "random": N_("easy: plays any legal move, at random"),
    "heuristic": N_("medium: plays by rules of thumb"),
    "search": N_("hard: thinks ahead, about half a second a move"),
}
"""The name with what it means, for the lists a level is chosen from."""


def level_name(level: str) -> str:
    """`medium` for "heuristic", `hard, search:1s` for a budget (it often stands in brackets
    already); an unknown level as it is."""
    base, _sep, setting = level.partition(":")
    name = NAMES.get(base)
    if name is None:
        return level
    return f"{_(name)}, {level}" if setting else _(name)


def level_choice(level: str) -> str:
    """The line a level list shows for `level`."""
    choice = CHOICES.get(level)
    return _(choice) if choice is not None else level_name(level)
