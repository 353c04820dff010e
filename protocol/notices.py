"""The table's own notices in plain English, for headless programs and unknown languages.

The host sends a code and arguments (`notice` messages); the app shows them in the player's
language from its catalogues, and falls back on these sentences.
"""

from __future__ import annotations

from typing import Any

ENGLISH = {
    "away": "{name} has lost the connection",
    "left": "{name} left the table (the seat waits for them)",
    "stand_in": "{name} is away: a {level} bot plays for them until they come back",
    "back": "{name} is back",
    "clock": "{name}'s time ran out: a bot played the turn",
    "clock_own": "{name}'s time ran out: their own program plays their stand-in's move "
    "({level} bot)",
    "unanswered": "{name}'s program did not play when their time ran out: the game waits for "
    "them, and the other players may end it",
    "ended": "{name} ended the game, {absent_names} being absent: the results so far stand",
    "deal_off": "the deal is off: {reason}",
    "taken_back": "the host restarted without the last {count} move(s) it had announced: they "
    "are taken back and played again",
    "closed": "the host closed the table",
    "changed": "the table is now {game} with {players} seats",
    "bot_left": "{name} leaves: the table has fewer seats now",
    "waiting": "the game waits for {name}: only their own program holds their seat's secrets",
    "cheated": "{name} was caught cheating ({kind}): {detail}",
    "broken": "{name} found the deck tampered with: the game stops, and the secrets every seat "
    "publishes now will show who did it",
}


def notice_text(code: str, args: dict[str, Any], templates: dict[str, str] | None = None) -> str:
    template = (templates or ENGLISH).get(code) or ENGLISH.get(code)
    if template is None:
        return f"{code}: {args}"
    try:
        return template.format(**args)
    except (KeyError, IndexError, ValueError):
        return f"{code}: {args}"
