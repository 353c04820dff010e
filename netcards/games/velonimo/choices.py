"""The choices a seat has, worked out from facts its own view also holds.

The host lists a seat's choices from the state and a client lists them from its view; both
feed the same few facts (phase, hand, value to beat, jersey, who still holds cards) to
`choices`, so the two lists cannot drift apart, and anything this function reads is by
construction something the seat is allowed to know.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from netcards.action import Action
from netcards.games.velonimo.actions import GIVE_BACK, NEXT_LEADER, PASS, REWARD_TO, VICTIM
from netcards.games.velonimo.plays import plays


def jersey_wearable(duel: bool, holder: int | None, used: bool, seat: int) -> bool:
    """The jersey's bonus is for its holder, once a round, and never in the duel."""
    return not duel and holder == seat and not used


def choices(
    phase: str,
    seat: int,
    hand: Sequence[int],
    beat: int | None,
    jersey: bool,
    still_in: Callable[[], Sequence[int]],
) -> list[Action]:
    """Every action of `seat`, asked to act in `phase`.

    `beat` is the value of the play on the table (None when `seat` leads the attack), `jersey`
    whether the seat may wear it now, `still_in` the seats still holding cards (asked only in
    the phases that need them).
    """
    if phase == "play":
        out = plays(hand, beat or 0, jersey)
        if beat is not None:
            out.append(PASS)
        return out
    if phase == "give_back":
        return [GIVE_BACK[c] for c in sorted(hand)]
    if phase == "victim":
        return [VICTIM[s] for s in still_in() if s != seat]
    if phase == "next_leader":
        return [NEXT_LEADER[s] for s in still_in()]
    if phase == "reward":
        return [REWARD_TO[seat], REWARD_TO[1 - seat]]
    return []
