"""Scoring a run: only its final unbroken part counts.

Validity is local (a card only has to fit the part before it) and closed under suffixes, so one
left-to-right pass that starts a new part at each break finds exactly the longest valid suffix:
after a km card that is not higher than the part's last km card, the new part starts just after
that km card (a rest card between them may stay); after two adjacent rest cards it starts at the
second one; an action card is a break of its own and the new part starts after it. Bots use this
module too, to see what a card would do to their run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from netcards.games.auf_achse.cards import KM, REST

RunState = tuple[int, int, bool]
"""What the scored part of a run is so far: its km, its last km card's value (0 if none), and
whether the run ends with a rest card. Enough to add cards one at a time."""

EMPTY_RUN: RunState = (0, 0, False)


@dataclass(frozen=True, slots=True)
class RunScore:
    """`breaks`: indices of the cards at which the run breaks; the score counts cards from `start`."""

    score: int
    start: int
    breaks: tuple[int, ...]
    last_km: int  # value of the last km card of the scored part, 0 if none
    ends_with_rest: bool

    def to_data(self) -> dict[str, Any]:
        return {"score": self.score, "scored_from": self.start, "breaks": list(self.breaks)}


def score_run(run: list[int], kind: tuple[int, ...], value: tuple[int, ...]) -> RunScore:
    start = 0
    score = 0
    last_km = 0
    last_km_at = -1
    prev_rest = False
    breaks: list[int] = []
    for i, card in enumerate(run):
        k = kind[card]
        if k == KM:
            v = value[card]
            if last_km and v <= last_km:
                breaks.append(i)
                start = last_km_at + 1
                score = 0
            score += v
            last_km = v
            last_km_at = i
            prev_rest = False
        elif k == REST:
            if prev_rest:
                breaks.append(i)
                start = i
                score = 0
                last_km = 0
            prev_rest = True
        else:
            breaks.append(i)
            start = i + 1
            score = 0
            last_km = 0
            prev_rest = False
    return RunScore(score, start, tuple(breaks), last_km, prev_rest)


def extend_run(at: RunState, card: int, kind: tuple[int, ...], value: tuple[int, ...]) -> RunState:
    """The run `at` with `card` added at its right end: the same score and last km card as
    `score_run` of the longer run, in constant time (bots try many cards on one run)."""
    score, last, prev_rest = at
    k = kind[card]
    if k == KM:
        v = value[card]
        if last and v <= last:
            score = 0
        return (score + v, v, False)
    if k == REST:
        return (0, 0, True) if prev_rest else (score, last, True)
    return EMPTY_RUN


def run_state(run: list[int], kind: tuple[int, ...], value: tuple[int, ...]) -> RunState:
    at = EMPTY_RUN
    for card in run:
        at = extend_run(at, card, kind, value)
    return at
