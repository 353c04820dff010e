"""Every cheat at a sealed round is caught and its author named: a wrong scalar, a swapped or
copied card (refused at its step by its proof and, had nobody checked, named by the audit), a
lying commitment or audit, a forged or altered step, and a relay (or a seat) that shows
different seats different steps."""

from __future__ import annotations

import dataclasses

import pytest

from protocol.sealed.audit import audit, check_claims
from protocol.sealed.cards import CardBook
from protocol.sealed.deck import SealedRound
from protocol.sealed.errors import Caught, DeckTampered
from protocol.sealed.group import N, commit, inverse, mul
from protocol.sealed.signing import SignedStep, Step, sign
from protocol.sealed.transcript import Transcript, compare
from tests.protocol.sealed_table import TABLE, Table, new_table, open_to, seal, y_bytes

DECK = list(range(10))
SEATS = (0, 1, 2, 3)
BOOK = CardBook.of(b"cheats", DECK)


def table(seed: bytes = b"cheats") -> Table:
    return new_table(BOOK, SEATS, seed, len(DECK))


def test_a_wrong_scalar_at_an_opening_is_refused_and_names_its_seat() -> None:
    t = table()
    r = seal(t, DECK)
    y = t.secrets[2].rekeys[4]
    for wrong in (y + 1, t.secrets[2].rekeys[5], t.secrets[1].rekeys[4], N - y):
        with pytest.raises(Caught) as caught:
            r.on_scalars(2, {4: wrong})
        assert (caught.value.seat, caught.value.kind) == (2, "wrong_scalar")
    r.on_scalars(2, {4: y})


@pytest.mark.parametrize("cheat", [0, 2, 3])
def test_a_card_swapped_while_masking_is_refused_at_once_and_named_by_the_audit(
    cheat: int,
) -> None:
    t = table()

    def swap(pass_name: str, seat: int, out: list[bytes]) -> list[bytes]:
        if pass_name == "mask" and seat == cheat:
            out[6] = mul(out[6], 2)
        return out

    with pytest.raises(Caught) as caught:
        seal(t, DECK, tamper=swap)
    assert (caught.value.seat, caught.value.kind) == (cheat, "bad_proof")
    r = seal(t, DECK, tamper=swap, proved=False)
    with pytest.raises(DeckTampered):
        open_to(t, r, 1, range(len(DECK)))
    finding = audit(r, t.secrets)
    assert finding is not None
    assert (finding.seat, finding.kind) == (cheat, "substituted")


@pytest.mark.parametrize(("cheat", "seen"), [(0, "is at positions 5 and 3"), (2, "no card")])
def test_a_card_copied_at_the_rekey_is_refused_at_once_and_named_by_the_audit(
    cheat: int, seen: str
) -> None:
    """The copy is re-keyed with its new position's scalar, so the two elements differ: no
    check of the list alone sees it, its proof does. Had nobody checked the proof: copied by
    the first seat to re-key, the same card turns up at two positions; copied later, the copy
    still carries the earlier seats' scalars of its old position and unmasks to no card."""
    t = table()
    ys = t.secrets[cheat].rekeys

    def copy(pass_name: str, seat: int, out: list[bytes]) -> list[bytes]:
        if pass_name == "rekey" and seat == cheat:
            out[3] = mul(out[5], ys[3] * inverse(ys[5]) % N)
        return out

    with pytest.raises(Caught) as caught:
        seal(t, DECK, tamper=copy)
    assert (caught.value.seat, caught.value.kind) == (cheat, "bad_proof")
    r = seal(t, DECK, tamper=copy, proved=False)
    with pytest.raises(DeckTampered, match=seen):
        open_to(t, r, 0, [5, 3])
    finding = audit(r, t.secrets)
    assert finding is not None
    assert (finding.seat, finding.kind) == (cheat, "duplicated")


def test_the_audit_names_the_first_cheat_and_not_the_honest_seats_after_it() -> None:
    t = table()

    def two_cheats(pass_name: str, seat: int, out: list[bytes]) -> list[bytes]:
        if (pass_name, seat) in (("mask", 1), ("rekey", 0)):
            out[0], out[1] = out[1], out[0]
        return out

    r = seal(t, DECK, tamper=two_cheats, proved=False)
    finding = audit(r, t.secrets)
    assert finding is not None
    assert (finding.seat, finding.kind) == (1, "wrong_mask")
    honest_mask = dataclasses.replace(
        t.secrets[1],
        permutation=tuple(
            t.secrets[1].permutation[{0: 1, 1: 0}.get(j, j)] for j in range(len(DECK))
        ),
    )
    finding = audit(r, {**t.secrets, 1: honest_mask})
    assert finding is not None
    assert (finding.seat, finding.kind) == (0, "substituted")


def test_lies_at_the_audit_name_the_liar() -> None:
    t = table()
    r = seal(t, DECK)
    open_to(t, r, 3, [0, 1])
    s = t.secrets[2]
    lies = {
        "mask": (dataclasses.replace(s, mask=s.mask + 1), "wrong_key"),
        "permutation": (
            dataclasses.replace(s, permutation=(*s.permutation[1:], s.permutation[0])),
            "wrong_mask",
        ),
        "rekeys": (
            dataclasses.replace(s, rekeys=(s.rekeys[0] + 1, *s.rekeys[1:])),
            "wrong_commitment",
        ),
        "no permutation": (dataclasses.replace(s, permutation=(0,) * len(DECK)), "bad_secrets"),
        "withheld": (None, "withheld"),
    }
    for what, (lie, kind) in lies.items():
        finding = audit(r, {**t.secrets, 2: lie})
        assert finding is not None, what
        assert (finding.seat, finding.kind) == (2, kind), what


def test_a_lying_commitment_is_caught_at_the_opening_and_at_the_audit() -> None:
    t = table()
    r = seal(t, DECK)
    lying = list(r.commitments[1])
    lying[2] = commit(12345)
    r.commitments[1] = tuple(lying)
    with pytest.raises(Caught) as caught:
        r.on_scalars(1, {2: t.secrets[1].rekeys[2]})
    assert (caught.value.seat, caught.value.kind) == (1, "wrong_scalar")
    finding = audit(r, t.secrets)
    assert finding is not None
    assert (finding.seat, finding.kind) == (1, "wrong_commitment")


def test_a_scalar_accepted_then_contradicted_by_the_revealed_secrets_is_named() -> None:
    """A seat that opened with a scalar other than the one it later reveals."""
    t = table()
    r = seal(t, DECK)
    open_to(t, r, 0, [4])
    r.scalars[3][4] = 7
    finding = audit(r, t.secrets)
    assert finding is not None
    assert (finding.seat, finding.kind) == (3, "wrong_scalar")


def test_a_false_claim_or_a_card_claimed_twice_names_the_claimant() -> None:
    t = table()
    r = seal(t, DECK)
    hand = open_to(t, r, 1, [0, 1])
    assert check_claims(r, t.secrets, {0: (1, hand[0]), 1: (1, hand[1])}) is None
    finding = check_claims(r, t.secrets, {0: (1, hand[1])})
    assert finding is not None
    assert (finding.seat, finding.kind) == (1, "false_claim")


def test_an_altered_or_forged_step_names_the_relay() -> None:
    t = table()
    t.relay = 3
    good = sign(t.keys[1], Step(TABLE, 0, "mask", 1, {"elements": list(BOOK.elements)}))
    t.deliver(good)
    step = good.step
    altered = [
        dataclasses.replace(step, body={"elements": list(BOOK.elements[::-1])}),
        dataclasses.replace(step, seat=2),
        dataclasses.replace(step, round=1),
        dataclasses.replace(step, table=b"another table"),
        dataclasses.replace(step, kind="rekey"),
    ]
    forged = [SignedStep(s, good.signature) for s in altered]
    forged.append(sign(t.keys[3], step))  # the relay signing in seat 1's name
    forged.append(SignedStep(step, good.signature[:-1] + bytes([good.signature[-1] ^ 1])))
    forged.append(SignedStep(dataclasses.replace(step, seat=9), good.signature))
    for bad in forged:
        with pytest.raises(Caught) as caught:
            t.deliver(bad)
        assert (caught.value.seat, caught.value.kind) == (3, "forged")


def test_a_relay_that_shows_seats_different_steps_is_named() -> None:
    t = table()
    t.relay = 0
    seal(t, DECK)
    assert compare(t.transcripts, 0) is None
    # Withheld from seat 2 only:
    extra = sign(t.keys[1], Step(TABLE, 0, "scalars", 1, {"scalars": [[0, y_bytes(5)]]}))
    t.deliver(extra, to=[0, 1, 3])
    finding = compare(t.transcripts, 0)
    assert finding is not None
    assert (finding.seat, finding.kind) == (0, "equivocated")
    # The same steps in another order:
    u = table(b"order")
    body = {"draw": 0, "digest": bytes(32)}
    steps = [sign(u.keys[s], Step(TABLE, 0, "draw_commit", s, body)) for s in (1, 2)]
    one, two = Transcript(TABLE), Transcript(TABLE)
    for signed in steps:
        one.add(signed)
    for signed in steps[::-1]:
        two.add(signed)
    finding = compare({1: one, 2: two}, 3)
    assert finding is not None
    assert finding.seat == 3


def test_a_seat_that_signs_two_different_lists_is_named_not_the_relay() -> None:
    t = table()
    step = Step(TABLE, 0, "mask", 2, {"elements": list(BOOK.elements)})
    other = dataclasses.replace(step, body={"elements": list(BOOK.elements[::-1])})
    t.deliver(sign(t.keys[2], step), to=[0, 1])
    t.deliver(sign(t.keys[2], other), to=[2, 3])
    finding = compare(t.transcripts, t.relay)
    assert finding is not None
    assert (finding.seat, finding.kind) == (2, "equivocated")


def test_a_round_refuses_scalars_before_it_is_sealed() -> None:
    r = SealedRound.of_cards(BOOK, SEATS, DECK)
    with pytest.raises(Caught) as caught:
        r.on_scalars(1, {0: 5})
    assert caught.value.seat == 1
