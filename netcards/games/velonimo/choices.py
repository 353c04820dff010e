"""The choices a seat has, worked out from facts its own view also holds.

The host lists a seat's choices from the state and a client lists them from its view; both
feed the same few facts (phase, hand, value to beat, jersey, hand sizes) to `choices`, so the
two lists cannot drift apart, and anything this function reads is by construction something
the seat is allowed to know.
"""

from __future__ import annotations

from collections.abc import Sequence

from netcards.action import Action
from netcards.games.velonimo.actions import (
    PASS,
    ChooseLeader,
    ChooseVictim,
    GiveBack,
    GiveReward,
    Play,
)
from netcards.games.velonimo.combos import JERSEY_BONUS, all_plays, can_wear_jersey


def jersey_wearable(duel: bool, holder: int | None, used: bool, seat: int) -> bool:
    """The jersey's bonus is for its holder, once a round, and never in the duel."""
    return not duel and holder == seat and not used


def choices(
    phase: str,
    seat: int,
    hand: Sequence[int],
    beat: int | None,
    jersey: bool,
    hand_sizes: Sequence[int],
) -> list[Action]:
    """Every action of `seat`, asked to act in `phase`.

    `beat` is the value of the play on the table (None when `seat` leads the attack), `jersey`
    whether the seat may wear it now.
    """
    if phase == "play":
        return _plays(hand, beat, jersey)
    if phase == "victim":
        return [ChooseVictim(s) for s, n in enumerate(hand_sizes) if n and s != seat]
    if phase == "give_back":
        return [GiveBack(c) for c in sorted(hand)]
    if phase == "next_leader":
        return [ChooseLeader(s) for s, n in enumerate(hand_sizes) if n]
    if phase == "reward":
        return [GiveReward(seat), GiveReward(1 - seat)]
    return []


def _plays(hand: Sequence[int], beat: int | None, jersey: bool) -> list[Action]:
    floor = beat or 0
    out: list[Action] = []
    for cards, value in all_plays(hand):
        if value > floor:
            out.append(Play(cards, False))
        if jersey and value + JERSEY_BONUS > floor and can_wear_jersey(cards):
            out.append(Play(cards, True))
    if beat is not None:
        out.append(PASS)
    return out
