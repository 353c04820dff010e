"""Where each game keeps what a seat may not know, written independently of the games' code.

The leak tests shuffle exactly these cards among these places (keeping every size) and require
the seat's view to stay the same: if a view changed, it showed something it must not show.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

HiddenPlaces = Callable[[Any, int | None], list[list[int]]]


def via_gladiola(state: Any, seat: int | None) -> list[list[int]]:
    places = [h for s, h in enumerate(state.hands) if s != seat]
    places.append(state.draw)
    return places


def velonimo(state: Any, seat: int | None) -> list[list[int]]:
    """Other hands, the set-aside cards (3-5 players), the duel's face-down draw pile (not its
    face-up reward), and, while a leader exchange is under way (from the take until the last
    card has gone back, one per action), the cards taken: only the taker and the player they
    were taken from may know those."""
    places = [h for s, h in enumerate(state.hands) if s != seat]
    places.append(state.aside)
    places.append(state.draw)
    if state.phase == "give_back" and seat not in (state.current, state.victim):
        places.append(state.taken)
    return places


def auf_achse(state: Any, seat: int | None) -> list[list[int]]:
    """Other players' hands, run contents, pending simultaneous choices and face-down odometer
    cards; the draw pile. A seat knows its own run, its own choices and its own odometer card."""
    places: list[list[int]] = []
    for s in range(state.players):
        if s != seat:
            places += [state.hands[s], state.runs[s], state.pending[s], state.odometer_down[s]]
    places.append(state.draw)
    return places


HIDDEN: dict[str, HiddenPlaces] = {
    "via-gladiola": via_gladiola,
    "velonimo": velonimo,
    "auf-achse": auf_achse,
}
