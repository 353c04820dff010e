"""Who is shed when strangers crowd the door: plain calls of the host's admission policy."""

from __future__ import annotations

from protocol.admission import Waiting, make_room, spectator_refusal


def crowd(addresses: list[str]) -> list[Waiting]:
    return [Waiting(n, a, float(n)) for n, a in enumerate(addresses)]


def test_a_newcomer_fits_while_there_is_room() -> None:
    assert make_room([], "127.0.0.1", limit=2, per_address=1) is None
    assert make_room(crowd(["a"]), "b", limit=2, per_address=1) is None


def test_an_address_over_its_share_sheds_its_own_oldest_first() -> None:
    waiting = crowd(["a", "b", "a", "a"])
    assert make_room(waiting, "a", limit=10, per_address=3) == waiting[0]
    assert make_room(waiting, "b", limit=10, per_address=3) is None


def test_a_full_room_sheds_the_oldest_of_the_most_crowded_address() -> None:
    waiting = crowd(["flood", "friend", "flood", "flood", "other"])
    assert make_room(waiting, "newcomer", limit=5, per_address=5) == waiting[0]
    assert make_room(waiting, "friend", limit=5, per_address=5) == waiting[0]
    even = crowd(["a", "b"])
    assert make_room(even, "c", limit=2, per_address=2) == even[0], "a tie: the oldest goes"


def test_spectators_are_capped_in_total_and_per_address() -> None:
    assert spectator_refusal(["a", "b"], "c", limit=3, per_address=2) is None
    assert "from your address" in (spectator_refusal(["a", "a"], "a", limit=3, per_address=2) or "")
    assert "3 spectators already" in (
        spectator_refusal(["a", "b", "c"], "d", limit=3, per_address=2) or ""
    )
