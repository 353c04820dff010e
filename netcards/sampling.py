"""Dealing the cards a seat cannot see into the places it cannot see into.

A search bot plays many imagined games from one view. Each needs a whole state: the seat's own
cards and everything public exactly as they are, and every hidden place (other hands, runs, the
draw pile, cards set aside) filled from the cards the seat has not seen, in the sizes the view
shows. What the seat learned along the way (a card it gave to another seat, a card taken from
it) pins that card to its place. This module is that deal, shared by every game's sampler.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping


class InconsistentView(ValueError):
    """The view's sizes do not add up to the unseen cards: a sampler or a view is wrong."""


def fill_places(
    unseen: Iterable[int],
    sizes: Mapping[str, int],
    pins: Mapping[int, str],
    rng: random.Random,
) -> dict[str, list[int]]:
    """Each place of `sizes` filled with that many cards of `unseen`, uniformly at random among
    the deals that keep every pinned card in its place. A pin to a place that is already full
    (the seat's knowledge went stale) is dropped rather than breaking the deal."""
    cards = sorted(set(unseen))
    if sum(sizes.values()) != len(cards):
        raise InconsistentView(
            f"{len(cards)} unseen cards for {sum(sizes.values())} hidden places {dict(sizes)}"
        )
    places: dict[str, list[int]] = {name: [] for name in sizes}
    loose: list[int] = []
    for card in cards:
        place = pins.get(card)
        if place is not None and place in places and len(places[place]) < sizes[place]:
            places[place].append(card)
        else:
            loose.append(card)
    rng.shuffle(loose)
    for name, size in sizes.items():
        need = size - len(places[name])
        places[name].extend(loose[:need])
        del loose[:need]
        rng.shuffle(places[name])
    return places
