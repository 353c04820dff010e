"""Auf Achse's cards and deck.

The sheet fixes the totals (77 km cards from 10 to 120, 20 action cards of four kinds, 12 rest
cards) but not the split, so the split is data: the house deck or the owner's own file. Card ids
are fixed by position so every deck gives ids 0-108: km cards by rising value, then the action
cards in the order of `ACTIONS`, then the rest cards. Kinds are small integers on the hot paths.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from typing import Any

from netcards.deckfile import int_in_range, load_toml, no_extra_keys, table
from netcards.errors import BadDeck

GAME_ID = "auf-achse"

KM_VALUES = tuple(range(10, 130, 10))
KM_CARDS = 77
ACTION_CARDS = 20
REST_CARDS = 12
CARD_COUNT = KM_CARDS + ACTION_CARDS + REST_CARDS

KM = 0
REST = 1
LOST_FREIGHT = 2
LEVEL_CROSSING = 3
FREE_ROAD = 4
COMPLETELY_FREE_ROAD = 5

ACTIONS = ("lost_freight", "level_crossing", "free_road", "completely_free_road")
KIND_NAMES = ("km", "rest", *ACTIONS)
LABELS = ("km", "Rest", "Lost freight", "Level crossing", "Free road", "Completely free road")

LOST_FREIGHT_KM = 50
FREE_ROAD_CARDS = {FREE_ROAD: 1, COMPLETELY_FREE_ROAD: 2}


@dataclass(frozen=True, slots=True)
class Card:
    id: int
    kind: int
    value: int

    def to_data(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": KIND_NAMES[self.kind],
            "value": self.value,
            "label": card_label(self.kind, self.value),
        }


@dataclass(frozen=True)
class Deck:
    """All 109 cards; `kind` and `value` are indexed by card id for the hot paths."""

    cards: tuple[Card, ...]

    @functools.cached_property
    def kind(self) -> tuple[int, ...]:
        return tuple(c.kind for c in self.cards)

    @functools.cached_property
    def value(self) -> tuple[int, ...]:
        return tuple(c.value for c in self.cards)

    def label(self, card: int) -> str:
        return card_label(self.kind[card], self.value[card])


def card_label(kind: int, value: int) -> str:
    """A short human name for logs and errors: '70 km', 'Rest', 'Level crossing'."""
    return f"{value} km" if kind == KM else LABELS[kind]


def _build(km: dict[int, int], actions: dict[str, int], rests: int) -> Deck:
    cards: list[Card] = []
    for value in KM_VALUES:
        cards.extend(Card(len(cards), KM, value) for _ in range(km[value]))
    for index, name in enumerate(ACTIONS):
        cards.extend(Card(len(cards), LOST_FREIGHT + index, 0) for _ in range(actions[name]))
    cards.extend(Card(len(cards), REST, 0) for _ in range(rests))
    return Deck(tuple(cards))


def _km_counts(section: dict[str, Any]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for key, count in section.items():
        try:
            value = int(key)
        except ValueError:
            value = -1
        if value not in KM_VALUES:
            raise BadDeck(
                f"deck file: [km] key '{key}' is not a card value (10, 20, 30 ... 120 km)"
            )
        counts[value] = int_in_range(count, f"[km] {key}", 1, KM_CARDS)
    missing = [v for v in KM_VALUES if v not in counts]
    if missing:
        raise BadDeck(
            f"deck file: [km] must give a count for every value from 10 to 120; missing {missing[0]}"
            + (f" and {len(missing) - 1} more" if len(missing) > 1 else "")
        )
    total = sum(counts.values())
    if total != KM_CARDS:
        raise BadDeck(f"deck file: [km] counts add up to {total} cards, not {KM_CARDS}")
    return counts


def _action_counts(section: dict[str, Any]) -> dict[str, int]:
    extra = sorted(set(section) - set(ACTIONS))
    if extra:
        raise BadDeck(
            f"deck file: unknown action card '{extra[0]}' in [action] (known: {', '.join(ACTIONS)})"
        )
    missing = [name for name in ACTIONS if name not in section]
    if missing:
        raise BadDeck(f"deck file: [action] must give a count for '{missing[0]}'")
    counts = {
        name: int_in_range(section[name], f"[action] {name}", 1, ACTION_CARDS) for name in ACTIONS
    }
    total = sum(counts.values())
    if total != ACTION_CARDS:
        raise BadDeck(f"deck file: [action] counts add up to {total} cards, not {ACTION_CARDS}")
    return counts


@functools.lru_cache(maxsize=16)
def parse_deck(text: str) -> Deck:
    """A deck file's text to a Deck; BadDeck names the first problem found."""
    data = load_toml(text, GAME_ID)
    no_extra_keys(data, "the file", {"game", "km", "action", "rest"})
    km = _km_counts(table(data, "km"))
    actions = _action_counts(table(data, "action"))
    rest = table(data, "rest")
    no_extra_keys(rest, "[rest]", {"count"})
    if "count" not in rest:
        raise BadDeck("deck file: [rest] needs 'count'")
    rests = int_in_range(rest["count"], "[rest] count", 0, CARD_COUNT)
    if rests != REST_CARDS:
        raise BadDeck(f"deck file: [rest] count must be {REST_CARDS}, not {rests}")
    return _build(km, actions, rests)


def house_deck_text() -> str:
    return resources.files(__package__).joinpath("house_deck.toml").read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def house_deck() -> Deck:
    return parse_deck(house_deck_text())


def deck_for(deck_option: str | None) -> Deck:
    return house_deck() if deck_option is None else parse_deck(deck_option)
