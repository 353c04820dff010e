"""The table's notices (a player away, a bot standing in, time ran out) in the player's language."""

from __future__ import annotations

from typing import Any

from protocol.notices import notice_text
from ui.bot_levels import level_name
from ui.i18n import N_, _

TEMPLATES = {
    "away": N_("{name} has lost the connection"),
    "left": N_("{name} left the table (the seat waits for them)"),
    "stand_in": N_("{name} is away: a {level} bot plays for them until they come back"),
    "back": N_("{name} is back"),
    "clock": N_("{name}'s time ran out: a bot played the turn"),
    "clock_own": N_(
        "{name}'s time ran out: their own program plays their stand-in's move ({level} bot)"
    ),
    "unanswered": N_(
        "{name}'s program did not play when their time ran out: the game waits for them, and "
        "the other players may end it (e)"
    ),
    "ended": N_("{name} ended the game, {absent_names} being absent: the results so far stand"),
    "deal_off": N_("the deal is off: {reason}"),
    "taken_back": N_(
        "the host restarted without the last {count} move(s) it had announced: they are taken "
        "back and played again"
    ),
    "changed": N_("the table is now {game} with {players} seats"),
    "bot_left": N_("{name} leaves: the table has fewer seats now"),
    "waiting": N_("the game waits for {name}: only their own program holds their seat's secrets"),
    "cheated": N_("{name} was caught cheating ({kind}): {detail}"),
    "broken": N_(
        "{name} found the deck tampered with: the game stops, and the secrets every seat "
        "publishes now will show who did it"
    ),
}


REFUSALS = {
    "stale_seq": N_("too late: the game had moved on, your move was not played"),
    "future_seq": N_("move refused: it was out of step with the table"),
}
"""Refusals worded in the player's language; any other refusal shows the host's own text."""


SAID_TO_YOU = {
    "clock": N_("Your time ran out: your stand-in played the turn"),
    "clock_own": N_("Your time ran out: your stand-in plays the turn"),
    "unanswered": N_(
        "Your program did not play when your time ran out: the others may end the game"
    ),
    "ended": N_("You ended the game: the results so far stand"),
}
"""A notice about our own seat, said to us (the others read the table's words about it)."""


def say(code: str, args: dict[str, Any], seat: int | None = None) -> str:
    """The notice in the player's words; `seat`: ours, when the notice may be about it."""
    if seat is not None and args.get("seat") == seat and code in SAID_TO_YOU:
        return _(SAID_TO_YOU[code])
    if code == "stand_in" and isinstance(args.get("level"), str):
        args = {**args, "level": level_name(args["level"])}
    if code == "clock_own" and isinstance(args.get("level"), str):
        args = {**args, "level": level_name(args["level"])}
    return notice_text(code, args, {k: _(v) for k, v in TEMPLATES.items()})


def refusal(code: str, text: str) -> str:
    """A refusal of the host, in the player's words when the app knows its code."""
    template = REFUSALS.get(code)
    return _(template) if template is not None else text
