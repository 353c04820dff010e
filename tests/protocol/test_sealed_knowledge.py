"""What the host cannot know: a party that records every step published in a sealed round and
also holds the secrets of every seat but one cannot name a card of that seat's hidden
positions.

Structurally: every element published once the hidden seat had acted (its lists, the
commitments, the partly unmasked openings), multiplied by every scalar the party knows, their
inverses, every product of two of them, and every product of any subset (each with exponent
-1, 0 or 1) of the scalars that touch the element's position, is matched against every card
element. Only cards the party may know turn up: its own seats' cards and the card played. The
same search, handed the one scalar the hidden seat never published, finds that position's card:
the search is able to find what it is looking for."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from protocol.sealed.cards import CardBook
from protocol.sealed.group import N, inverse, mul_many
from tests.protocol.sealed_table import new_table, open_to, reveal, seal

DECK = [3, 8, 13, 21, 34]
SEATS = (0, 2, 1)
"""The hidden seat (2) acts between two seats the party controls."""
HIDDEN = 2
HAND = {0: [0], 1: [1], 2: [2, 3]}
"""Position 4 is dealt to nobody."""
PLAYED = 3


def products(scalars: list[int]) -> set[int]:
    out = set()
    for exponents in itertools.product((-1, 0, 1), repeat=len(scalars)):
        k = 1
        for s, e in zip(scalars, exponents, strict=True):
            if e:
                k = k * (s if e == 1 else inverse(s)) % N
        out.add(k)
    return out


def found(elements: Iterable[bytes], scalars: set[int], book: CardBook) -> set[int]:
    elements = list(elements)
    cards = set()
    for k in scalars:
        for x in mul_many(elements, k):
            card = book.card(x)
            if card is not None:
                cards.add(card)
    return cards


def search(extra: dict[int, int]) -> tuple[set[int], dict[int, int], set[int]]:
    """(cards found, the true card of each position, the cards the party may know)."""
    book = CardBook.of(b"knowledge", DECK)
    table = new_table(book, SEATS, b"knowledge", len(DECK))
    r = seal(table, DECK)
    opened = {s: open_to(table, r, s, ps) for s, ps in HAND.items()}
    reveal(table, r, HIDDEN, PLAYED)
    truth = {p: c for s, ps in HAND.items() for p, c in zip(ps, opened[s], strict=True)}
    may_know = {*opened[0], *opened[1], truth[PLAYED]}

    known_seats = [s for s in SEATS if s != HIDDEN]
    secrets = [table.secrets[s] for s in known_seats]
    known = [s.mask for s in secrets] + [y for s in secrets for y in s.rekeys]
    published = r.scalars.get(HIDDEN, {})
    known += list(published.values()) + list(extra.values())
    every = set(known) | {inverse(k) for k in known}
    general = (
        {1} | every | {a * b % N for a, b in itertools.combinations_with_replacement(every, 2)}
    )

    first = SEATS.index(HIDDEN)
    lists = [*r.masked[first:], *r.rekeyed]
    loose = [x for lst in r.masked[first:] for x in lst] + [
        c for cs in r.commitments.values() for c in cs
    ]
    cards = found(loose, general, book)
    for j in range(len(DECK)):
        touching = [s.mask for s in secrets] + [s.rekeys[j] for s in secrets]
        touching += [k for p, k in (*published.items(), *extra.items()) if p == j]
        linked = [lst[j] for lst in r.rekeyed] + [
            r.stripped(j, s) for s in SEATS if j in HAND.get(s, []) and s != HIDDEN
        ]
        cards |= found(linked, general | products(touching), book)
    assert lists  # the party did record the round
    return cards, truth, may_know


def test_the_host_with_every_other_seat_s_secrets_names_no_hidden_card() -> None:
    cards, truth, may_know = search({})
    assert truth[PLAYED] in cards  # the played card is public, and the search does find it
    assert cards <= may_know
    assert truth[2] not in cards
    hidden_cards = set(DECK) - may_know
    assert hidden_cards and not cards & hidden_cards


def test_the_search_finds_a_hidden_card_once_it_holds_the_missing_scalar() -> None:
    """The control: seat 2's scalar for its hidden position 2 is all that was missing."""
    from tests.protocol.sealed_table import new_table as again

    book = CardBook.of(b"knowledge", DECK)
    y = again(book, SEATS, b"knowledge", len(DECK)).secrets[HIDDEN].rekeys[2]
    cards, truth, _ = search({2: y})
    assert truth[2] in cards
