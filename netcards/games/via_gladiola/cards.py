"""Via Gladiola's cards and deck.

Card ids are fixed by position so that every deck file gives the same ids: Distance 1-49 are
ids 0-48, the six Finish cards 49-54, the eight Gladiolas 55-62, the Start cards of days 1-4
63-66. Only the blisters come from the deck (house deck or the owner's own file).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal

from netcards.deckfile import int_in_range, int_list, load_toml, no_extra_keys, table
from netcards.errors import BadDeck

GAME_ID = "via-gladiola"

CardKind = Literal["distance", "finish", "gladiola", "start"]

DISTANCES = 49
FINISHES = 6
GLADIOLAS = 8
DAYS = 4
FINISH_VALUE = 50

FIRST_FINISH = DISTANCES
FIRST_GLADIOLA = FIRST_FINISH + FINISHES
FIRST_START = FIRST_GLADIOLA + GLADIOLAS
CARD_COUNT = FIRST_START + DAYS
DRAW_PILE_IDS = tuple(range(FIRST_START))


@dataclass(frozen=True, slots=True)
class Card:
    id: int
    kind: CardKind
    value: int
    blisters: int

    def to_data(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "value": self.value, "blisters": self.blisters}


@dataclass(frozen=True)
class Deck:
    """All 67 cards; `value`, `blisters` and `kind` are indexed by card id for the hot paths."""

    cards: tuple[Card, ...]

    @functools.cached_property
    def value(self) -> tuple[int, ...]:
        return tuple(c.value for c in self.cards)

    @functools.cached_property
    def blisters(self) -> tuple[int, ...]:
        return tuple(c.blisters for c in self.cards)


def kind_of(card: int) -> CardKind:
    if card < FIRST_FINISH:
        return "distance"
    if card < FIRST_GLADIOLA:
        return "finish"
    if card < FIRST_START:
        return "gladiola"
    return "start"


def start_card(day: int) -> int:
    return FIRST_START + day - 1


def is_walkable(card: int) -> bool:
    return card < FIRST_GLADIOLA


def is_finish(card: int) -> bool:
    return FIRST_FINISH <= card < FIRST_GLADIOLA


def is_gladiola(card: int) -> bool:
    return FIRST_GLADIOLA <= card < FIRST_START


def _value_of(card: int) -> int:
    if card < FIRST_FINISH:
        return card + 1
    return FINISH_VALUE if card < FIRST_GLADIOLA else 0


VALUES = tuple(_value_of(c) for c in range(CARD_COUNT))
"""Card values by id: the same in every deck file (only blisters vary)."""


def _build(distance: list[int], finish: list[int], gladiola: list[int]) -> Deck:
    cards: list[Card] = []
    for i, b in enumerate(distance):
        cards.append(Card(i, "distance", i + 1, b))
    for i, b in enumerate(finish):
        cards.append(Card(FIRST_FINISH + i, "finish", FINISH_VALUE, b))
    for i, b in enumerate(gladiola):
        cards.append(Card(FIRST_GLADIOLA + i, "gladiola", 0, b))
    for day in range(1, DAYS + 1):
        cards.append(Card(start_card(day), "start", 0, 0))
    return Deck(tuple(cards))


@functools.lru_cache(maxsize=16)
def parse_deck(text: str) -> Deck:
    """A deck file's text to a Deck; BadDeck names the first problem found."""
    data = load_toml(text, GAME_ID)
    no_extra_keys(data, "the file", {"game", "distance", "finish", "gladiola"})
    dist = table(data, "distance")
    blisters_by_value: dict[int, int] = {}
    for key, b in dist.items():
        try:
            value = int(key)
        except ValueError:
            raise BadDeck(f"deck file: [distance] key '{key}' is not a card value") from None
        int_in_range(value, f"[distance] value {key}", 1, DISTANCES)
        blisters_by_value[value] = int_in_range(b, f"[distance] {key}", 0, 5)
    missing = [v for v in range(1, DISTANCES + 1) if v not in blisters_by_value]
    if missing:
        raise BadDeck(
            f"deck file: [distance] must give every value 1-49 once; missing {missing[0]}"
            + (f" and {len(missing) - 1} more" if len(missing) > 1 else "")
        )
    finish_sec = table(data, "finish")
    no_extra_keys(finish_sec, "[finish]", {"blisters"})
    glad_sec = table(data, "gladiola")
    no_extra_keys(glad_sec, "[gladiola]", {"blisters"})
    finish = int_list(finish_sec, "blisters", "[finish]", FINISHES, 0, 2)
    gladiola = int_list(glad_sec, "blisters", "[gladiola]", GLADIOLAS, 1, 5)
    return _build([blisters_by_value[v] for v in range(1, DISTANCES + 1)], finish, gladiola)


def house_deck_text() -> str:
    return resources.files(__package__).joinpath("house_deck.toml").read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def house_deck() -> Deck:
    return parse_deck(house_deck_text())


def deck_for(deck_option: str | None) -> Deck:
    return house_deck() if deck_option is None else parse_deck(deck_option)


def label(card: int, deck: Deck) -> str:
    """A short human name for logs: '21', 'Finish', 'Gladiola', 'Start 2'."""
    kind = kind_of(card)
    if kind == "distance":
        return str(deck.value[card])
    if kind == "finish":
        return "Finish"
    if kind == "gladiola":
        return "Gladiola"
    return f"Start {card - FIRST_START + 1}"
