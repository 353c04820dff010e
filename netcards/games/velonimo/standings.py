"""Who leads the race between rounds: the jersey, the next round's first player, the winner.

Pure functions of the score sheet, kept apart from the turn-by-turn rules so that every
tie-break can be tested (and read) on its own.
"""

from __future__ import annotations

from collections.abc import Sequence


def totals_of(round_scores: Sequence[Sequence[int]], players: int) -> list[int]:
    return [sum(r[s] for r in round_scores) for s in range(players)]


def jersey_holder(
    totals: Sequence[int], last_round: Sequence[int], holder: int | None
) -> int | None:
    """Highest total; tie → most points in the last round; still tied → the holder keeps it
    if among them, else nobody holds it."""
    best = max(totals)
    tied = [s for s, t in enumerate(totals) if t == best]
    if len(tied) == 1:
        return tied[0]
    best_last = max(last_round[s] for s in tied)
    tied = [s for s in tied if last_round[s] == best_last]
    if len(tied) == 1:
        return tied[0]
    return holder if holder in tied else None


def next_first_player(totals: Sequence[int], last_round: Sequence[int], previous_first: int) -> int:
    """Lowest total; tie → fewest points last round; tie → first in seat order after the
    previous round's first player (who comes last in that order)."""
    players = len(totals)
    low = min(totals)
    tied = [s for s, t in enumerate(totals) if t == low]
    low_last = min(last_round[s] for s in tied)
    tied = [s for s in tied if last_round[s] == low_last]
    for step in range(1, players + 1):
        seat = (previous_first + step) % players
        if seat in tied:
            return seat
    raise AssertionError("no seat tied for the lowest score")


def ranking_keys(
    totals: Sequence[int], last_round: Sequence[int], holder: int | None
) -> list[tuple[int, ...]]:
    """Sort keys for the final places (smaller is better): the jersey's own order, and among
    players equal on total and last round the holder first."""
    return [(-totals[s], -last_round[s], 0 if s == holder else 1) for s in range(len(totals))]
