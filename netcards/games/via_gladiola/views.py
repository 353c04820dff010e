"""What a seat and what a spectator may know, as a table of fields (`netcards/view.py`).

Everything here is public by the rules (the walk pile, finished days until they are reshuffled,
the Gladiolas laid aside, hand and pile sizes, whose turn it is) or belongs to the asking seat
(its hand). The draw pile's order, the other hands and the seed are never read, except once the
game is over, when every hand is shown.
"""

from __future__ import annotations

from typing import Any

from netcards.games.via_gladiola.state import VGState
from netcards.view import ABSENT, ViewFields

GAME_ID = "via-gladiola"


def _finished_days(state: VGState, seat: int | None) -> list[dict[str, Any]]:
    return [{"day": i + 1, "cards": list(p)} for i, p in enumerate(state.finished) if p is not None]


def _final_hands(state: VGState, seat: int | None) -> Any:
    return [sorted(h) for h in state.hands] if state.over else ABSENT


PUBLIC: ViewFields[VGState] = ViewFields(
    {
        "game": lambda state, seat: GAME_ID,
        "seat": lambda state, seat: seat,
        "players": lambda state, seat: state.players,
        "day": lambda state, seat: state.day,
        "walk_pile": lambda state, seat: list(state.walk),
        "top_value": lambda state, seat: state.deck.value[state.walk[-1]],
        "finished_days": _finished_days,
        "reshuffled_days": lambda state, seat: [
            i + 1 for i, p in enumerate(state.finished) if p is None
        ],
        "gladiolas": lambda state, seat: list(state.gladiolas),
        "draw_pile": lambda state, seat: len(state.draw),
        "hand_sizes": lambda state, seat: [len(h) for h in state.hands],
        "current": lambda state, seat: None if state.over else state.current,
        "first_player": lambda state, seat: state.first_player,
        "idle_rests": lambda state, seat: state.idle_rests,
        "variant_last_card": lambda state, seat: state.variant_last_card,
        "over": lambda state, seat: state.over,
        "end_reason": lambda state, seat: state.end_reason,
        "final_hands": _final_hands,
    },
    optional=frozenset({"final_hands"}),
)

SEAT: ViewFields[VGState] = PUBLIC.extended({"hand": lambda state, seat: sorted(state.hands[seat])})
