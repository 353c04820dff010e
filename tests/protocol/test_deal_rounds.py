"""The deal's commit-then-reveal order, with plain calls: the host's round and a client's witness."""

from __future__ import annotations

import random

import pytest

from netcards.fairdeal import commitment, part_problems, pledge
from protocol.deal_round import DealRefusal, DealRound
from protocol.deal_witness import DealTampered, DealWitness

H = commitment(b"\x01" * 32)


def rand(seed: int) -> random.Random:
    return random.Random(seed)


def honest_round(seats: tuple[int, ...] = (0, 1)) -> tuple[DealRound, dict[int, DealWitness]]:
    """Both sides of a whole round that went well, up to the parts being revealed."""
    host = DealRound(seats)
    witnesses = {s: DealWitness() for s in seats}
    for s, w in witnesses.items():
        mine = w.on_commit(H, seats, s, rand(s).randbytes)
        assert mine is not None
        host.pledge(s, mine)
    assert host.all_pledged
    published = host.close_pledges()
    for s, w in witnesses.items():
        part = w.on_pledges(published, s)
        assert part is not None
        host.reveal(s, part)
    assert host.all_revealed
    return host, witnesses


def test_an_honest_round_is_witnessed_and_our_part_is_in() -> None:
    host, witnesses = honest_round()
    for s, w in witnesses.items():
        w.on_start(H, host.parts)
        assert w.started and w.contribution == host.parts[s]
        assert w.problems(s) == [] and w.caveats() == []


def test_the_host_refuses_pledges_and_parts_out_of_order_or_not_matching() -> None:
    host = DealRound({0, 1})
    with pytest.raises(DealRefusal, match="no pledge was asked"):
        host.pledge(5, b"x" * 32)
    host.pledge(0, pledge(0, b"a" * 32))
    with pytest.raises(DealRefusal, match="pledged already"):
        host.pledge(0, pledge(0, b"b" * 32))
    with pytest.raises(DealRefusal, match="no seed part was asked"):
        host.reveal(0, b"a" * 32)  # before the pledges are published
    assert host.close_pledges() == {0: pledge(0, b"a" * 32)}, "seat 1 was too late: left out"
    with pytest.raises(DealRefusal, match="no pledge was asked"):
        host.pledge(1, pledge(1, b"c" * 32))
    with pytest.raises(DealRefusal, match="not the one you pledged"):
        host.reveal(0, b"z" * 32)
    assert host.missing() == [0] and not host.all_revealed
    with pytest.raises(DealRefusal, match="no seed part was asked"):
        host.reveal(1, b"c" * 32)
    host.reveal(0, b"a" * 32)
    assert host.all_revealed and host.missing() == []


def test_a_new_host_part_after_the_reveals_is_refused() -> None:
    host, witnesses = honest_round()
    with pytest.raises(DealTampered, match="commitment in 'start' is not the one"):
        witnesses[0].on_start(commitment(b"\x02" * 32), host.parts)


def test_a_changed_commitment_between_rounds_is_refused() -> None:
    w = DealWitness()
    w.on_commit(H, (0,), 0, rand(0).randbytes)
    with pytest.raises(DealTampered, match="changed its commitment"):
        w.on_commit(commitment(b"\x02" * 32), (0,), 0, rand(0).randbytes)


def test_an_invented_contributor_is_refused_in_pledges_and_in_start() -> None:
    host, witnesses = honest_round()
    with pytest.raises(DealTampered, match="invented contributor"):
        witnesses[0].on_start(H, {**host.parts, 2: b"\x09" * 32})
    w = DealWitness()
    mine = w.on_commit(H, (0, 1), 0, rand(0).randbytes)
    assert mine is not None
    with pytest.raises(DealTampered, match=r"seat\(s\) \[3\], which were never asked"):
        w.on_pledges({0: mine, 2: pledge(2, b"\x09" * 32)}, 0)


def test_a_part_swapped_after_the_reveals_is_refused() -> None:
    host, witnesses = honest_round((0, 1, 2))
    swapped = {**host.parts, 2: b"\x07" * 32}
    for w in witnesses.values():
        with pytest.raises(DealTampered, match="seat 3's seed part is not the one it pledged"):
            w.on_start(H, swapped)


def test_pledges_that_change_or_replace_ours_are_refused() -> None:
    w = DealWitness()
    mine = w.on_commit(H, (0, 1), 0, rand(0).randbytes)
    assert mine is not None
    with pytest.raises(DealTampered, match="not ours"):
        w.on_pledges({0: pledge(0, b"\x05" * 32)}, 0)
    w = DealWitness()
    mine = w.on_commit(H, (0, 1), 0, rand(0).randbytes)
    assert mine is not None
    assert w.on_pledges({0: mine}, 0) is not None
    assert w.on_pledges({0: mine}, 0) is None, "the same pledges again change nothing"
    with pytest.raises(DealTampered, match="changed the published pledges"):
        w.on_pledges({0: mine, 1: pledge(1, b"\x05" * 32)}, 0)


def test_messages_out_of_order_are_refused() -> None:
    with pytest.raises(DealTampered, match="before committing"):
        DealWitness().on_pledges({}, 0)
    w = DealWitness()
    w.on_commit(H, (0,), 0, rand(0).randbytes)
    with pytest.raises(DealTampered, match="started before the host published the pledges"):
        w.on_start(H, {})
    host, witnesses = honest_round()
    witnesses[0].on_start(H, host.parts)
    with pytest.raises(DealTampered, match="new deal after the game had started"):
        witnesses[0].on_commit(H, (0, 1), 0, rand(0).randbytes)


def test_left_out_or_redealt_after_the_reveal_is_reported_at_the_end() -> None:
    w = DealWitness()
    w.on_commit(H, (0, 1), 0, rand(0).randbytes)
    assert w.on_pledges({}, 0) is None, "our pledge was left out: our part stays ours"
    w.on_start(H, {})
    assert "left out of the deal" in w.problems(0)[0]

    w = DealWitness()
    mine = w.on_commit(H, (0,), 0, rand(0).randbytes)
    assert mine is not None
    assert w.on_pledges({0: mine}, 0) is not None
    again = w.on_commit(H, (0,), 0, rand(1).randbytes)  # called off after we revealed
    assert again is not None and again != mine, "a fresh part every round"
    assert w.redeals_after_reveal == 1
    assert "made again 1 time(s)" in w.problems(0)[0]


def test_a_spectator_who_came_late_can_only_check_the_replay() -> None:
    w = DealWitness()
    w.on_start(H, {0: b"\x01" * 32})
    assert not w.saw_the_deal and "only the replay" in w.caveats()[0]


def test_the_notes_survive_a_restart() -> None:
    host, witnesses = honest_round()
    witnesses[1].on_start(H, host.parts)
    again = DealWitness.from_data(witnesses[1].to_data())
    assert again == witnesses[1]
    with pytest.raises(DealTampered):
        again.on_start(commitment(b"\x02" * 32), host.parts)


def test_part_problems_name_every_fault() -> None:
    pledges = {0: pledge(0, b"a" * 32), 1: pledge(1, b"b" * 32)}
    assert part_problems(pledges, {0: b"a" * 32, 1: b"b" * 32}) == []
    assert part_problems(pledges, {0: b"a" * 32, 1: b"x" * 32, 3: b"c" * 32}) == [
        "seat 4 has a seed part but made no pledge (an invented contributor)",
        "seat 2's seed part is not the one it pledged",
    ]
    assert part_problems(pledges, {0: b"a" * 32}) == [
        "seat 2 pledged a seed part that was left out of the deal"
    ]
    assert pledge(1, b"a" * 32) != pledge(0, b"a" * 32), "a pledge names its seat"
