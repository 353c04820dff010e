"""What a seat and what a spectator may know, as a table of fields (`netcards/view.py`).

Every field here is either public by the rules (plays, passes, hand sizes, scores, the
jersey, the duel's reward and pile size) or belongs to the asking seat (its hand, and during
a leader exchange the cards taken, for the two seats involved). The draw pile's order, the
set-aside cards and the seed are never read here.
"""

from __future__ import annotations

from typing import Any

from netcards.games.velonimo.combos import JERSEY_BONUS
from netcards.games.velonimo.standings import totals_of
from netcards.games.velonimo.state import VelonimoState
from netcards.view import ViewFields

GAME_ID = "velonimo"


def _exchange(state: VelonimoState, seat: int | None) -> dict[str, Any] | None:
    if state.phase == "victim":
        return {"thief": state.current, "victim": None, "count": state.steal_count, "to_give": None}
    if state.phase != "give_back":
        return None
    exchange: dict[str, Any] = {
        "thief": state.current,
        "victim": state.victim,
        "count": len(state.taken),
        "to_give": state.to_give,
    }
    if seat is not None and seat in (state.current, state.victim):
        exchange["taken"] = sorted(state.taken)
    return exchange


PUBLIC: ViewFields[VelonimoState] = ViewFields(
    {
        "game": lambda state, seat: GAME_ID,
        "seat": lambda state, seat: seat,
        "players": lambda state, seat: state.players,
        "mode": lambda state, seat: "duel" if state.duel else "standard",
        "round": lambda state, seat: state.round + 1,
        "rounds": lambda state, seat: len(state.difficulties),
        "difficulties": lambda state, seat: list(state.difficulties),
        "difficulty": lambda state, seat: state.difficulty,
        "phase": lambda state, seat: state.phase,
        "current": lambda state, seat: None if state.over else state.current,
        "first_player": lambda state, seat: state.first_player,
        "hand_sizes": lambda state, seat: [len(h) for h in state.hands],
        "finished": lambda state, seat: list(state.finished),
        "attack": lambda state, seat: [
            {"seat": s, "cards": list(c), "jersey": j, "value": v} for s, c, j, v in state.attack
        ],
        "attack_value": lambda state, seat: state.attack[-1][3] if state.attack else None,
        "last_player": lambda state, seat: state.last_player,
        "passes": lambda state, seat: state.passes,
        "discard": lambda state, seat: list(state.discard),
        "set_aside": lambda state, seat: len(state.aside),
        "round_points": lambda state, seat: list(state.round_points),
        "round_scores": lambda state, seat: [list(r) for r in state.round_scores],
        "totals": lambda state, seat: totals_of(state.round_scores, state.players),
        "jersey": lambda state, seat: {
            "holder": state.jersey,
            "used": state.jersey_used,
            "bonus": 0 if state.duel else JERSEY_BONUS,
        },
        "exchange": _exchange,
        "reward": lambda state, seat: state.reward,
        "draw_pile": lambda state, seat: len(state.draw),
        "duel_target": lambda state, seat: state.duel_target if state.duel else None,
        "over": lambda state, seat: state.over,
        "end_reason": lambda state, seat: state.end_reason,
    }
)

SEAT: ViewFields[VelonimoState] = PUBLIC.extended(
    {"hand": lambda state, seat: sorted(state.hands[seat])}
)
