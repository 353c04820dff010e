"""What a seat and a spectator may know, built from the state's public parts and the seat's own.

Other seats' hands, runs, pending choices and face-down odometer cards appear only as sizes or
"has chosen"; the draw pile only as its size. Every list is a fresh copy, so a view can be kept
or changed by its reader without touching the state. The views are a table of fields
(`netcards/view.py`), built whole for the wire or read field by field by in-process bots.
"""

from __future__ import annotations

from netcards.games.auf_achse.flow import STAGES, target, totals_of
from netcards.games.auf_achse.scoring import score_run
from netcards.games.auf_achse.state import FREE_ROAD, ODOMETER, RUN, AAState, copy_stage
from netcards.view import ViewFields


def waiting(state: AAState) -> list[int]:
    """The seats asked to act now, in seat order."""
    if state.phase == ODOMETER:
        return [state.current] if state.current >= 0 else []
    if state.phase in (RUN, FREE_ROAD):
        return [s for s in range(state.players) if state.need[s] and not state.pending[s]]
    return []


def _simultaneous(state: AAState) -> bool:
    return state.phase in (RUN, FREE_ROAD)


def _odometer_card(state: AAState, seat: int) -> int | None:
    down = state.odometer_down[seat]
    return down[0] if down else None


PUBLIC: ViewFields[AAState] = ViewFields(
    {
        "game": lambda state, seat: "auf-achse",
        "seat": lambda state, seat: seat,
        "players": lambda state, seat: state.players,
        "stage": lambda state, seat: state.stage,
        "stages": lambda state, seat: STAGES,
        "round": lambda state, seat: state.round,
        "target": lambda state, seat: target(state.players),
        "first_player": lambda state, seat: state.first_player,
        "phase": lambda state, seat: state.phase,
        "waiting": lambda state, seat: waiting(state),
        "current": lambda state, seat: (
            state.current if state.phase == ODOMETER and state.current >= 0 else None
        ),
        "need": lambda state, seat: (
            list(state.need) if _simultaneous(state) else [0] * state.players
        ),
        "chosen": lambda state, seat: [bool(p) for p in state.pending],
        "pending_counts": lambda state, seat: [len(p) for p in state.pending],
        "total": lambda state, seat: state.total,
        "odometer_km": lambda state, seat: list(state.odometer_km),
        "odometer_face_down": lambda state, seat: list(state.reveal_order),
        "resolving": lambda state, seat: state.resolving[0] if state.resolving else None,
        "hand_sizes": lambda state, seat: [len(h) for h in state.hands],
        "run_lengths": lambda state, seat: [len(r) for r in state.runs],
        "draw_pile": lambda state, seat: len(state.draw),
        "discard": lambda state, seat: list(state.discard),
        "stage_results": lambda state, seat: [copy_stage(h) for h in state.history],
        "scores": lambda state, seat: totals_of(state),
        "over": lambda state, seat: state.over,
    }
)

SEAT: ViewFields[AAState] = PUBLIC.extended(
    {
        "hand": lambda state, seat: sorted(state.hands[seat]),
        "run": lambda state, seat: list(state.runs[seat]),
        "run_score": lambda state, seat: score_run(
            state.runs[seat], state.deck.kind, state.deck.value
        ).to_data(),
        "pending": lambda state, seat: list(state.pending[seat]),
        "odometer_card": _odometer_card,
    }
)
