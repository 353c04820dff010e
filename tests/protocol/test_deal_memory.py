"""What a client's deal notes make of a deal made again: on a new link, after a refused seat,
against a new table, and as a spectator. Plain calls; the cheating hosts over real sockets are
in tests/network/test_redeal_memory.py."""

from __future__ import annotations

import random

import pytest

from netcards.fairdeal import commitment, pledge
from protocol.deal_witness import DealTampered, DealWitness

H = commitment(b"\x01" * 32)
OTHER_TABLE = commitment(b"\x02" * 32)


def rand(seed: int) -> random.Random:
    return random.Random(seed)


def revealed(seat: int = 0) -> DealWitness:
    """A player whose part is out: it pledged, saw the pledges and revealed."""
    w = DealWitness()
    mine = w.on_commit(H, (0, 1), seat, rand(seat).randbytes)
    assert mine is not None
    assert w.on_pledges({seat: mine, 1 - seat: pledge(1 - seat, b"b" * 32)}, seat) is not None
    return w


def test_a_spectator_counts_a_deal_made_again_after_the_pledges_were_published() -> None:
    w = DealWitness()
    w.on_commit(H, (0, 1), None, rand(0).randbytes)
    w.on_commit(H, (0, 1), None, rand(0).randbytes)  # called off before any part was out
    assert w.problems(None) == []
    w.on_pledges({0: pledge(0, b"a" * 32)}, None)
    w.on_commit(H, (0, 1), None, rand(0).randbytes)
    (problem,) = w.problems(None)
    assert "made again 1 time(s) after the players' seed parts had been published" in problem


def test_the_same_round_sent_again_to_a_new_link_is_not_a_new_deal() -> None:
    w = revealed()
    pledges = dict(w.pledges or {})
    w = DealWitness.from_data(w.to_data())  # a restarted program
    w.on_link(resumed=True)
    assert w.on_commit(H, (0, 1), 0, rand(9).randbytes) is None, "no new pledge"
    assert w.on_pledges(pledges, 0) is None, "nothing to reveal again"
    w.on_start(H, {0: w.my_part or b"", 1: b"b" * 32})
    assert w.started and w.problems(0) == []


def test_other_pledges_after_a_repeated_commit_are_a_deal_made_again() -> None:
    w = revealed()
    w.on_link(resumed=True)
    w.on_commit(H, (0, 1), 0, rand(9).randbytes)
    assert w.on_pledges({1: pledge(1, b"c" * 32)}, 0) is None
    assert any("after our seed part had been revealed" in p for p in w.problems(0))


def test_a_refused_seat_does_not_wipe_the_notes_and_a_new_table_is_a_deal_made_again() -> None:
    w = DealWitness.from_data(revealed().to_data())
    w.on_link(resumed=False)  # bad_token, then a new seat
    assert w.on_commit(OTHER_TABLE, (0, 1, 2), 2, rand(3).randbytes) is not None
    assert w.host_commitment == OTHER_TABLE
    assert any("made again 1 time(s) after our seed part" in p for p in w.problems(2))


def test_a_new_commitment_on_a_link_that_took_our_seat_back_is_refused() -> None:
    w = revealed()
    w.on_link(resumed=True)
    with pytest.raises(DealTampered, match="changed its commitment"):
        w.on_commit(OTHER_TABLE, (0, 1), 0, rand(3).randbytes)


def test_notes_of_a_table_that_never_saw_our_part_give_way_to_a_new_one() -> None:
    w = DealWitness()
    w.on_commit(H, (0,), 0, rand(0).randbytes)  # pledged, nothing published
    w.on_link(resumed=False)
    w.on_commit(OTHER_TABLE, (0,), 0, rand(1).randbytes)
    assert w.problems(0) == [] and w.host_commitment == OTHER_TABLE


def test_a_game_abandoned_for_a_new_table_is_a_deal_made_again() -> None:
    w = revealed()
    w.on_start(H, {0: w.my_part or b"", 1: b"b" * 32})
    with pytest.raises(DealTampered, match="after the game had started"):
        w.on_commit(H, (0, 1), 0, rand(3).randbytes)
    w.on_link(resumed=False)
    w.on_commit(OTHER_TABLE, (0, 1), 0, rand(3).randbytes)
    assert any("made again 1 time(s) after our seed part" in p for p in w.problems(0))


def test_a_table_dealt_anew_after_our_user_left_on_purpose_is_no_re_deal() -> None:
    """Leaving is our user's choice, never the host's: the round or game left behind is over for
    us, and the next table at that address is a new one, not a deal thrown away."""
    w = revealed()
    w.on_left()
    w = DealWitness.from_data(w.to_data())  # the app quit: the mark is on disk
    w.on_link(resumed=False)
    assert w.on_commit(OTHER_TABLE, (0, 1), 0, rand(5).randbytes) is not None, "we pledge anew"
    assert w.problems(0) == []
    assert not w.left, "only the deal that followed our leaving is excused"
    w.on_pledges({0: w.my_pledge or b"", 1: pledge(1, b"d" * 32)}, 0)
    w.on_link(resumed=False)
    w.on_commit(commitment(b"\x03" * 32), (0, 1), 0, rand(6).randbytes)
    assert any("after our seed part had been revealed" in p for p in w.problems(0))


def test_a_dropped_link_is_no_leaving_on_purpose() -> None:
    w = revealed()
    w.on_link(resumed=False)
    w.on_commit(OTHER_TABLE, (0, 1), 0, rand(5).randbytes)
    assert any("after our seed part had been revealed" in p for p in w.problems(0))
