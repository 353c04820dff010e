"""A full sealing round with real decks: every seat gets the cards its positions hold, each
card of the deck exactly once, the audit of an honest round finds nothing, and a reshuffle of
public cards seals them anew."""

from __future__ import annotations

import pytest

from netcards.registry import get_game
from protocol.sealed.audit import audit, check_claims, final_cards
from protocol.sealed.cards import CardBook
from protocol.sealed.deck import SealedRound
from protocol.sealed.errors import Caught
from protocol.sealed.group import commit, is_x_coordinate
from protocol.sealed.shuffle import SeatSecrets, mask_body
from protocol.sealed.transcript import compare
from tests.protocol.sealed_table import new_table, open_to, reveal, seal, stream


def auf_achse_deck(players: int) -> list[int]:
    game = get_game("auf-achse")
    return [card["id"] for card in game.cards(game.make_config(players))]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_sealed_deal_of_auf_achse(players: int) -> None:
    deck = auf_achse_deck(players)
    assert len(deck) == 109
    book = CardBook.of(b"auf-achse game 1", deck)
    seats = tuple(range(players))
    table = new_table(book, seats, bytes([players]), len(deck))
    r = seal(table, deck)
    assert r.phase == "sealed"
    hand_size = 6
    hands = {s: open_to(table, r, s, range(s * hand_size, (s + 1) * hand_size)) for s in seats}
    dealt = [c for hand in hands.values() for c in hand]
    assert len(set(dealt)) == len(dealt) == players * hand_size
    assert set(dealt) <= set(deck)
    # The deal is the permutations' doing: it is what the audit's full unmasking says.
    truth = final_cards(r, table.secrets)
    assert sorted(c for c in truth if c is not None) == sorted(deck)
    for s, hand in hands.items():
        assert hand == truth[s * hand_size : (s + 1) * hand_size]
    # A played card: its owner reveals its last scalar and every party reads the same card.
    played = reveal(table, r, seats[-1], (players - 1) * hand_size)
    assert played == hands[seats[-1]][0]
    assert audit(r, table.secrets) is None
    claims = {(s * hand_size + k): (s, c) for s, hand in hands.items() for k, c in enumerate(hand)}
    assert check_claims(r, table.secrets, claims) is None
    assert compare(table.transcripts, table.relay) is None


def test_the_seat_order_and_the_secrets_make_the_deal() -> None:
    deck = list(range(12))
    book = CardBook.of(b"g", deck)
    a = final_cards(seal(t := new_table(book, (0, 1, 2), b"a", 12), deck), t.secrets)
    b = final_cards(seal(u := new_table(book, (0, 1, 2), b"b", 12), deck), u.secrets)
    assert sorted(a) == sorted(b) == deck  # type: ignore[type-var]
    assert a != b


def test_a_reshuffle_seals_public_cards_in_a_new_round() -> None:
    deck = auf_achse_deck(3)
    book = CardBook.of(b"auf-achse game 2", deck)
    table = new_table(book, (0, 1, 2), b"first", len(deck))
    seal(table, deck)
    discards = [7, 30, 31, 64, 100]
    again = new_table(book, (1, 2, 0), b"second", len(discards))
    again.round_no = 1
    r = seal(again, discards)
    drawn = open_to(again, r, 2, range(len(discards)))
    assert sorted(drawn) == discards
    assert audit(r, again.secrets) is None


def test_a_card_outside_the_reshuffled_ones_is_refused_at_the_step() -> None:
    """A seat slipping the element of a card not being reshuffled is refused when it makes the
    step (its proof cannot hold), and, had nobody checked, it would be caught when the card
    opens and named by the audit."""
    from protocol.sealed.errors import DeckTampered
    from protocol.sealed.group import mul_many

    book = CardBook.of(b"g", list(range(20)))
    table = new_table(book, (0, 1), b"r", 3)

    def swap(pass_name: str, seat: int, out: list[bytes]) -> list[bytes]:
        if pass_name == "mask" and seat == 0:
            out[0] = mul_many([book.element(19)], table.secrets[0].mask)[0]
        return out

    with pytest.raises(Caught) as caught:
        seal(table, [1, 2, 3], tamper=swap)
    assert (caught.value.seat, caught.value.kind) == (0, "bad_proof")
    r = seal(table, [1, 2, 3], tamper=swap, proved=False)
    with pytest.raises(DeckTampered):
        open_to(table, r, 1, range(3))
    finding = audit(r, table.secrets)
    assert finding is not None
    assert (finding.seat, finding.kind) == (0, "substituted")


def test_steps_out_of_turn_or_malformed_name_their_seat() -> None:
    book = CardBook.of(b"g", list(range(4)))
    r = SealedRound.of_cards(book, (0, 1), [0, 1, 2, 3], b"t", 0)
    secrets = SeatSecrets.draw(4, stream(b"s"))
    honest = mask_body(r.context(0), r.current, secrets, stream(b"n"))

    def refused(seat: int, **changes: object) -> tuple[int, str]:
        with pytest.raises(Caught) as caught:
            r.on_mask(seat, {**honest, **changes})
        assert r.masked == [] and r.keys == {}, "a refused step changes nothing"
        return caught.value.seat, caught.value.kind

    assert refused(1) == (1, "out_of_turn")
    assert refused(0, elements=honest["elements"][:3]) == (0, "malformed")
    not_x = b"\x02" + next(x for x in range(100) if not is_x_coordinate(x)).to_bytes(32, "big")
    assert refused(0, elements=[*honest["elements"][:3], not_x]) == (0, "bad_element")
    elements = honest["elements"]
    assert refused(0, elements=[*elements[:3], elements[0]]) == (0, "duplicated")
    assert refused(0, input=bytes(32)) == (0, "wrong_input")
    assert refused(0, key=commit(secrets.mask + 1)) == (0, "bad_proof")
    swapped = [elements[1], elements[0], *elements[2:]]
    assert refused(0, elements=swapped) == (0, "bad_proof")
    r.on_mask(0, honest)
    assert r.keys == {0: commit(secrets.mask)}
