"""The group of the sealed deck: x-only P-256 multiplication commutes, inverts, refuses what is
not an element, and card elements are distinct and tied to their game."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.sealed.cards import card_elements
from protocol.sealed.group import (
    BadElement,
    BadScalar,
    N,
    P,
    commit,
    hash_to_group,
    inverse,
    is_x_coordinate,
    load,
    mul,
    mul_each,
    mul_many,
)

scalars = st.integers(min_value=1, max_value=N - 1)
X = hash_to_group(b"test element")


@settings(max_examples=15, deadline=None)
@given(scalars, scalars)
def test_masks_commute_and_come_off_in_any_order(a: int, b: int) -> None:
    ab = mul(mul(X, a), b)
    assert ab == mul(mul(X, b), a) == mul(X, a * b % N)
    assert mul(mul(ab, inverse(a)), inverse(b)) == X


@settings(max_examples=10, deadline=None)
@given(scalars)
def test_k_and_n_minus_k_act_alike_on_x_coordinates(k: int) -> None:
    assert mul(X, k) == mul(X, N - k)
    assert commit(k) == commit(N - k)
    assert mul(mul(X, k), inverse(N - k)) == X


def test_batch_helpers_agree_with_one_at_a_time() -> None:
    xs = [hash_to_group(bytes([i])) for i in range(4)]
    assert mul_many(xs, 12345) == [mul(x, 12345) for x in xs]
    assert mul_each(xs, [3, 5, 7, 11]) == [
        mul(x, k) for x, k in zip(xs, [3, 5, 7, 11], strict=True)
    ]


def test_commit_is_the_generator_times_the_scalar() -> None:
    gx = 0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296
    assert commit(1) == gx.to_bytes(32, "big")
    assert commit(6) == mul(commit(2), 3)


def test_what_is_not_an_x_coordinate_is_refused() -> None:
    x = 0
    while is_x_coordinate(x):
        x += 1
    for bad in (x.to_bytes(32, "big"), P.to_bytes(32, "big"), X[:31], X + b"\x00", b""):
        with pytest.raises(BadElement):
            load(bad)
        with pytest.raises(BadElement):
            mul(bad, 5)


@pytest.mark.parametrize("k", [0, N, -1, N + 1])
def test_scalars_outside_one_to_n_minus_one_are_refused(k: int) -> None:
    with pytest.raises(BadScalar):
        mul(X, k)
    with pytest.raises(BadScalar):
        inverse(k)


def test_hash_to_group_is_deterministic_and_lands_on_the_curve() -> None:
    for i in range(40):
        x = hash_to_group(i.to_bytes(2, "big"))
        assert x == hash_to_group(i.to_bytes(2, "big"))
        assert is_x_coordinate(int.from_bytes(x, "big"))
        load(x)


def test_card_elements_are_distinct_and_belong_to_one_game() -> None:
    one = card_elements(b"game 1", list(range(109)))
    assert len(set(one)) == 109
    other = card_elements(b"game 2", list(range(109)))
    assert not set(one) & set(other)
    assert card_elements(b"game 1", [5, 0]) == [one[5], one[0]]
    with pytest.raises(ValueError, match="twice"):
        card_elements(b"game 1", [1, 1])
