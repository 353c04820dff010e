"""What a seat and what a spectator may know: built from public fields only, plus one hand.

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


def public_view(state: VelonimoState, game_id: str) -> dict[str, Any]:
    view: dict[str, Any] = {
        "game": game_id,
        "seat": None,
        "players": state.players,
        "mode": "duel" if state.duel else "standard",
        "round": state.round + 1,
        "rounds": len(state.difficulties),
        "difficulties": list(state.difficulties),
        "difficulty": state.difficulty,
        "phase": state.phase,
        "current": None if state.over else state.current,
        "first_player": state.first_player,
        "hand_sizes": [len(h) for h in state.hands],
        "finished": list(state.finished),
        "attack": [
            {"seat": s, "cards": list(c), "jersey": j, "value": v} for s, c, j, v in state.attack
        ],
        "attack_value": state.attack[-1][3] if state.attack else None,
        "last_player": state.last_player,
        "passes": state.passes,
        "discard": list(state.discard),
        "set_aside": len(state.aside),
        "round_points": list(state.round_points),
        "round_scores": [list(r) for r in state.round_scores],
        "totals": totals_of(state.round_scores, state.players),
        "jersey": {
            "holder": state.jersey,
            "used": state.jersey_used,
            "bonus": 0 if state.duel else JERSEY_BONUS,
        },
        "exchange": None,
        "reward": state.reward,
        "draw_pile": len(state.draw),
        "duel_target": state.duel_target if state.duel else None,
        "over": state.over,
        "end_reason": state.end_reason,
    }
    if state.phase == "victim":
        view["exchange"] = {
            "thief": state.current,
            "victim": None,
            "count": state.steal_count,
            "to_give": None,
        }
    elif state.phase == "give_back":
        view["exchange"] = {
            "thief": state.current,
            "victim": state.victim,
            "count": len(state.taken),
            "to_give": state.to_give,
        }
    return view


def seat_view(state: VelonimoState, seat: int, game_id: str) -> dict[str, Any]:
    view = public_view(state, game_id)
    view["seat"] = seat
    view["hand"] = sorted(state.hands[seat])
    exchange = view["exchange"]
    if state.phase == "give_back" and seat in (state.current, state.victim):
        exchange["taken"] = sorted(state.taken)
    return view
