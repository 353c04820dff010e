"""Finding every card a message holds, and whether the seat it is for may know each one.

Cards are found by the game's declared shapes (every position declared `card`), not by a list of
keys, and the message is first checked against those shapes, so a card under a new or an
unexpected key is either found or fails the check. What a seat (or a spectator) may know is
followed through the game from where every card is (`Game.locations`), independently of what
the views and messages say:

- a card in a public place, or in one of the seat's own places (its hand, its run...), is known;
- a card the rules announce to everyone (the public part of an event) is known;
- a card that moves into a place the seat cannot see is forgotten (it was shuffled away, drawn
  by someone else, dealt again), unless the rules just announced it;
- once the game is over, everything is known (the audit reveals it);
- a record of the past (Auf Achse's finished stages in the view) may name any card that was
  once public: it says where a card was, not where it is.

A seat's private event parts must only name cards of its own places, before or after the action.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from netcards.event import Event
from netcards.game import Game

SEAT_PLACES = frozenset({"hand", "run", "pending", "odometer_face_down"})
"""Places of one seat (`hand:2`): only that seat sees into them."""
PUBLIC_PLACES = frozenset(
    {"walk", "gladiolas", "start_cards_aside", "attack", "discard", "reward", "odometer_km",
     "resolving", "day"}
)  # fmt: skip
"""Places everyone sees (`day:1` is a finished day's pile)."""
HIDDEN_PLACES = frozenset({"draw", "set_aside"})
"""Places nobody sees into during the game."""

Viewer = int | None

RECORDS_OF_THE_PAST = {"auf-achse": ("view.stage_results",)}
"""Message paths that hold public history rather than where cards are now."""


def visible(place: str, viewer: Viewer) -> bool:
    name, _, owner = place.partition(":")
    if name in SEAT_PLACES:
        return viewer is not None and int(owner) == viewer
    if name in PUBLIC_PLACES:
        return True
    if name in HIDDEN_PLACES:
        return False
    raise AssertionError(f"the place {place!r} is not classified: say who may see into it")


def where(game: Game[Any], state: Any) -> dict[int, str]:
    return {card: place for place, cards in game.locations(state).items() for card in cards}


class Knowledge:
    """What each viewer (seats, and None for spectators) may know, action after action."""

    def __init__(self, game: Game[Any], state: Any, viewers: Iterable[Viewer]) -> None:
        self.game = game
        self.where = where(game, state)
        self.known = {
            v: {c for c, place in self.where.items() if visible(place, v)} for v in viewers
        }
        self.once_public = {c for c, place in self.where.items() if visible(place, None)}

    def step(self, state: Any, events: Sequence[Event]) -> None:
        """Follow one action: `state` after it, `events` what it did."""
        game = self.game
        shapes = game.shapes
        after = where(game, state)
        announced = {
            card
            for e in events
            for _, card in shapes.cards_in(e.public, shapes.events[e.kind].public)
        }
        over = game.outcome(state) is not None
        self.once_public |= announced | {c for c, p in after.items() if visible(p, None)}
        for viewer, known in self.known.items():
            mine = set()
            for e in events:
                part = e.private.get(viewer, {}) if viewer is not None else {}
                for _, card in shapes.cards_in(part, shapes.events[e.kind].private):
                    places = (self.where[card], after[card])
                    assert any(visible(p, viewer) for p in places if ":" in p), (
                        f"{e.kind} tells seat {viewer} card {card}, which was in {places[0]} "
                        f"and is now in {places[1]}"
                    )
                    mine.add(card)
            known.difference_update(
                c for c, p in after.items() if p != self.where[c] and not visible(p, viewer)
            )
            known.update(c for c, p in after.items() if visible(p, viewer))
            known.update(announced | mine)
            if over:
                known.update(after)
        self.where = after


def cards_in_message(game: Game[Any], message: dict[str, Any]) -> list[tuple[str, int]]:
    """(path, card) for every card in the game payloads of a message (plain data as it
    travels: an update, a snapshot or a history), after checking them against the shapes."""
    shapes = game.shapes
    count = len(game.cards(game.make_config(game.max_players)))
    out: list[tuple[str, int]] = []

    def events(items: Sequence[dict[str, Any]], where_: str) -> None:
        for i, event in enumerate(items):
            fields = dict(event)
            kind = fields.pop("kind")
            shape = shapes.events[kind].wire()
            shapes.check(fields, shape, count, f"{where_}[{i}]")
            out.extend(shapes.cards_in(fields, shape, f"{where_}[{i}]"))

    if "view" in message:
        shapes.check(message["view"], shapes.view, count, "view")
        out.extend(shapes.cards_in(message["view"], shapes.view, "view"))
    if "events" in message:
        events(message["events"], "events")
    for n, step in enumerate(message.get("steps", ())):
        events(step["events"], f"steps[{n}].events")
    return out


def unknown_cards(
    game: Game[Any], message: dict[str, Any], knowledge: Knowledge, viewer: Viewer
) -> list[tuple[str, int]]:
    """Every card of `message` that `viewer` may not know."""
    known = knowledge.known[viewer]
    past = RECORDS_OF_THE_PAST.get(game.id, ())
    return [
        (path, card)
        for path, card in cards_in_message(game, message)
        if card not in known and not (path.startswith(past) and card in knowledge.once_public)
    ]
