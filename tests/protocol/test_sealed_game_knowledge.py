"""What the host of a sealed game holds, and that no card of a player's hand can be named from it
before the card is played.

The host's material: every list, commitment and scalar its relay kept, the secrets of the bot it
seats (its mask and every re-key scalar), what its engine knows, and every element and scalar of
every message it received. For each position of the player's hand, the elements linked to it
(each re-keyed list's entry, the position with the bot's scalar removed) are multiplied by every
product (each with exponent -1, 0 or 1) of the scalars that touch that position, and every
masked or re-keyed element by the host's scalars and their inverses; the results are matched
against every card element. Only the bot's cards and cards played turn up. Handed the player's
one unpublished scalar of a position, the same search names that position's card (the control).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

from netcards.sealed_cards import SLOT_BASE
from protocol.sealed.group import inverse, mul, mul_many
from protocol.sealed.messages import SealStep
from tests.protocol.test_sealed_game_wire import Table
from tests.protocol.test_sealed_knowledge import products

HUMAN, BOT = 0, 1


def host_material(table: Table) -> tuple[set[bytes], set[int]]:
    """Every group element and every scalar the host process holds now."""
    elements: set[bytes] = set()
    scalars: set[int] = set()
    for kept in table.host.relay.rounds.values():
        r = kept.round
        elements.update(r.start)
        for lst in (*r.masked, *r.rekeyed, *r.commitments.values()):
            elements.update(lst)
        for ys in r.scalars.values():
            scalars.update(ys.values())
    for driver in table.host.bots.values():
        for kept_seat in driver.rounds.values():
            scalars.add(kept_seat.secrets.mask)
            scalars.update(kept_seat.secrets.rekeys)
    for _, msg in table.to_host:
        if isinstance(msg, SealStep):
            for name in ("elements", "commitments"):
                elements.update(msg.body.get(name, ()))
            for _, y in msg.body.get("scalars", ()):
                scalars.add(int.from_bytes(y, "big"))
    return elements, scalars


def hidden_hand(table: Table) -> dict[tuple[int, int], int]:
    """(round, position) -> card of the player's hand still hidden (not played)."""
    state = table.host.state
    out = {}
    for slot in state.hands[HUMAN]:
        if slot >= SLOT_BASE:
            sealed = state.ledger.round_of(slot)
            p = slot - sealed.first
            out[(sealed.index, p)] = table.seats[HUMAN].driver.rounds[sealed.index].hand[p]
    return out


def search(
    table: Table,
    extra: dict[tuple[int, int], int],
    only: Mapping[int, Iterable[int]] | None = None,
) -> set[int]:
    """The cards the host's material names. `only`: the rounds to search and, in each, the
    positions whose linked elements to try (a title that seals the same cards in several
    rounds, Auf Achse's stages, is searched one round at a time, and a position's linked
    elements can only unmask to that position's card)."""
    elements, scalars = host_material(table)
    found: set[int] = set()
    small = {1} | scalars | {inverse(k) for k in scalars}
    for number, kept in table.host.relay.rounds.items():
        if only is not None and number not in only:
            continue
        book = kept.round.book
        loose = [x for lst in (*kept.round.masked, *kept.round.rekeyed) for x in lst]
        bot = table.host.bots[BOT].rounds[number].secrets
        for k in {1, bot.mask, inverse(bot.mask)}:
            found |= {c for x in mul_many(loose, k) if (c := book.card(x)) is not None}
        positions = range(kept.round.size) if only is None else sorted(only[number])
        for j in positions:
            touching = [bot.mask, bot.rekeys[j]]
            touching += [ys[j] for ys in kept.round.scalars.values() if j in ys]
            touching += [y for (n, p), y in extra.items() if (n, p) == (number, j)]
            linked = [lst[j] for lst in kept.round.rekeyed]
            linked.append(mul(kept.round.rekeyed[-1][j], inverse(bot.rekeys[j])))
            for k in products(touching) | small:
                for x in mul_many(linked, k):
                    card = book.card(x)
                    if card is not None:
                        found.add(card)
    assert elements and scalars
    return found


def _table(moves: int) -> Table:
    table = Table(2, [HUMAN], seed=3)
    table.start()
    rng = random.Random(5)
    for _ in range(moves):
        seat = table.seats[HUMAN]
        if table.host.outcome is not None or not seat.legal_actions():
            break
        table.send(HUMAN, seat.act(rng.choice(seat.legal_actions())))
    return table


def test_the_host_names_no_card_of_the_players_hidden_hand() -> None:
    for moves in (0, 6):
        table = _table(moves)
        hidden = hidden_hand(table)
        assert hidden
        found = search(table, {})
        assert not found & set(hidden.values()), f"after {moves} moves"
        bots = {c for kept in table.host.bots[BOT].rounds.values() for c in kept.hand.values()}
        assert bots <= found  # what the host may know, the search does find
        assert set(table.host.mirror.knowledge.cards.values()).isdisjoint(hidden.values())


def test_the_search_names_a_hidden_card_once_it_holds_the_players_scalar() -> None:
    table = _table(0)
    hidden = hidden_hand(table)
    (number, p), card = next(iter(hidden.items()))
    y = table.seats[HUMAN].driver.rounds[number].secrets.rekeys[p]
    assert card in search(table, {(number, p): y})
