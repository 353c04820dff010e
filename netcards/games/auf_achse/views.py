"""What a seat and a spectator may know, built from the state's public parts and the seat's own.

Other seats' hands, runs, pending choices and face-down odometer cards appear only as sizes or
"has chosen"; the draw pile only as its size. Every list is a fresh copy, so a view can be kept
or changed by its reader without touching the state.
"""

from __future__ import annotations

from typing import Any

from netcards.games.auf_achse.flow import STAGES, target, totals_of
from netcards.games.auf_achse.scoring import score_run
from netcards.games.auf_achse.state import FREE_ROAD, ODOMETER, RUN, AAState, copy_stage


def waiting(state: AAState) -> list[int]:
    """The seats asked to act now, in seat order."""
    if state.phase == ODOMETER:
        return [state.current] if state.current >= 0 else []
    if state.phase in (RUN, FREE_ROAD):
        return [s for s in range(state.players) if state.need[s] and not state.pending[s]]
    return []


def public_view(state: AAState) -> dict[str, Any]:
    simultaneous = state.phase in (RUN, FREE_ROAD)
    return {
        "game": "auf-achse",
        "seat": None,
        "players": state.players,
        "stage": state.stage,
        "stages": STAGES,
        "round": state.round,
        "target": target(state.players),
        "first_player": state.first_player,
        "phase": state.phase,
        "waiting": waiting(state),
        "current": state.current if state.phase == ODOMETER and state.current >= 0 else None,
        "need": list(state.need) if simultaneous else [0] * state.players,
        "chosen": [bool(p) for p in state.pending],
        "pending_counts": [len(p) for p in state.pending],
        "total": state.total,
        "odometer_km": list(state.odometer_km),
        "odometer_face_down": list(state.reveal_order),
        "resolving": state.resolving[0] if state.resolving else None,
        "hand_sizes": [len(h) for h in state.hands],
        "run_lengths": [len(r) for r in state.runs],
        "draw_pile": len(state.draw),
        "discard": list(state.discard),
        "stage_results": [copy_stage(h) for h in state.history],
        "scores": totals_of(state),
        "over": state.over,
    }


def seat_view(state: AAState, seat: int) -> dict[str, Any]:
    view = public_view(state)
    deck = state.deck
    run = state.runs[seat]
    down = state.odometer_down[seat]
    view["seat"] = seat
    view["hand"] = sorted(state.hands[seat])
    view["run"] = list(run)
    view["run_score"] = score_run(run, deck.kind, deck.value).to_data()
    view["pending"] = list(state.pending[seat])
    view["odometer_card"] = down[0] if down else None
    return view
