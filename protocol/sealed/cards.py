"""Card elements: the group element that stands for each card of one game's deck.

Each card id becomes `hash_to_group` of a label that names the protocol version, the game and
the card, so that the elements of one game are useless in another (a seat cannot bring a
masked card it learnt elsewhere) and nobody knows a discrete logarithm between two of them.
The label is the canonical msgpack encoding of `["netcards sealed card v5", game_id, card_id]`
(an array of a str, a bin and an int, each in its shortest form).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from protocol.sealed.canonical import canonical
from protocol.sealed.group import hash_to_group

CARD_LABEL = "netcards sealed card v5"


def card_label(game_id: bytes, card_id: int) -> bytes:
    return canonical([CARD_LABEL, game_id, card_id])


def card_elements(game_id: bytes, deck_ids: Sequence[int]) -> list[bytes]:
    """One distinct element per card id, in the order of `deck_ids`."""
    if len(set(deck_ids)) != len(deck_ids):
        raise ValueError("a card id appears twice in the deck")
    elements = [hash_to_group(card_label(game_id, card)) for card in deck_ids]
    if len(set(elements)) != len(elements):  # never seen: two SHA-256 outputs would collide
        raise ValueError("two cards of this deck hash to the same element")
    return elements


@dataclass(frozen=True)
class CardBook:
    """Card elements and the way back from an element to its card."""

    game_id: bytes
    ids: tuple[int, ...]
    elements: tuple[bytes, ...]
    by_element: Mapping[bytes, int]

    @classmethod
    def of(cls, game_id: bytes, deck_ids: Sequence[int]) -> CardBook:
        elements = card_elements(game_id, deck_ids)
        return cls(
            game_id,
            tuple(deck_ids),
            tuple(elements),
            dict(zip(elements, deck_ids, strict=True)),
        )

    def element(self, card: int) -> bytes:
        return self.elements[self.ids.index(card)]

    def card(self, element: bytes) -> int | None:
        """The card this fully unmasked element stands for; None if it is no card of the deck."""
        return self.by_element.get(element)
