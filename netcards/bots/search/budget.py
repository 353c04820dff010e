"""How long a search bot may think: a number of playouts (repeatable) or seconds (wall clock).

A playout budget makes the bot deterministic for a given seed, which tests, replays and a
resumed host rely on; a time budget adapts to the machine, which a person waiting across the
table may prefer. `search` alone is a playout budget that answers within half a second per move
at a full table on a two-core laptop: 400 playouts, but 300 in Velonimo, whose playouts cost
the most (400 took 0.60 s per move at four players and 0.67 s at five; 300 take 0.37 and 0.48).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from netcards.errors import BadConfig

DEFAULT_PLAYOUTS = 400
DEFAULT_PLAYOUTS_BY_GAME = {"velonimo": 300}
MAX_PLAYOUTS = 1_000_000
MAX_SECONDS = 600.0

_SECONDS = re.compile(r"^(\d+(?:\.\d+)?)s$")


@dataclass(frozen=True, slots=True)
class Budget:
    playouts: int | None = None
    seconds: float | None = None

    def describe(self) -> str:
        return f"{self.seconds:g}s" if self.seconds is not None else f"{self.playouts} playouts"


def parse_budget(setting: str, game_id: str = "") -> Budget:
    """`""` (`game_id`'s default), `N` playouts, or `Xs` seconds per move; BadConfig says what
    is wrong."""
    text = setting.strip()
    if not text:
        return Budget(playouts=DEFAULT_PLAYOUTS_BY_GAME.get(game_id, DEFAULT_PLAYOUTS))
    if text.isdigit():
        playouts = int(text)
        if not 1 <= playouts <= MAX_PLAYOUTS:
            raise BadConfig(f"a search budget is 1 to {MAX_PLAYOUTS} playouts, not {playouts}")
        return Budget(playouts=playouts)
    match = _SECONDS.match(text)
    if match is None:
        raise BadConfig(
            f"bad search budget '{setting}': give playouts (search:400) or seconds (search:1.5s)"
        )
    seconds = float(match.group(1))
    if not 0 < seconds <= MAX_SECONDS:
        raise BadConfig(f"a search budget is more than 0 and at most {MAX_SECONDS:g}s per move")
    return Budget(seconds=seconds)
