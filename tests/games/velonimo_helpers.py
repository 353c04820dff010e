"""Building hand-made Velonimo states for the rule tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from netcards.event import Event
from netcards.games.velonimo import GAME
from netcards.games.velonimo.actions import Pass, Play
from netcards.games.velonimo.cards import ALL_CARDS, COLOURS, hare, runner
from netcards.games.velonimo.state import VelonimoState
from netcards.rng import make_seed


def R(colour: str, value: int) -> int:
    """The runner of that colour and value."""
    return runner(COLOURS.index(colour), value)


def H(value: int) -> int:
    """The hare of that value."""
    return hare(value)


def P(*cards: int, jersey: bool = False) -> Play:
    return Play(tuple(sorted(cards)), jersey)


PASS = Pass()


def make_state(
    hands: Sequence[Sequence[int]],
    *,
    current: int = 0,
    difficulties: Sequence[int] = (1, 2, 3, 4, 5),
    round_index: int = 0,
    round_scores: Sequence[Sequence[int]] = (),
    jersey: int | None = None,
    draw: Sequence[int] | None = None,
    reward: int | None = None,
    duel_target: int = 8,
    seed: int = 0,
) -> VelonimoState:
    """A state with exactly these hands, `current` to lead an empty table.

    The cards nobody holds go to the set-aside pile (3-5 players) or, in the duel, to the
    discard pile unless listed as the draw pile (top last) or the reward.
    """
    players = len(hands)
    options: dict[str, Any] = {
        "difficulties": list(difficulties),
        "first_player": current,
        "duel_target": duel_target,
    }
    state = GAME.setup(GAME.make_config(players, options), make_seed(seed))
    used = {c for h in hands for c in h}
    state.hands = [list(h) for h in hands]
    if players == 2:
        state.draw = list(draw or [])
        state.reward = reward
        used |= set(state.draw) | ({reward} if reward is not None else set())
        state.aside = []
        state.discard = [c for c in ALL_CARDS if c not in used]
    else:
        state.aside = [c for c in ALL_CARDS if c not in used]
        state.discard = []
    state.current = current
    state.first_player = current
    state.round = round_index
    state.round_scores = [list(r) for r in round_scores]
    state.jersey = jersey
    assert sorted(c for p in GAME.locations(state).values() for c in p) == list(ALL_CARDS)
    return state


def run(state: VelonimoState, *steps: tuple[int, Any]) -> list[Event]:
    """Apply (seat, action) pairs in order; all their events."""
    events: list[Event] = []
    for seat, action in steps:
        events.extend(GAME.apply(state, seat, action))
    return events


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]
