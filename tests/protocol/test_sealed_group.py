"""The group of the sealed deck: multiplication on secp256k1 commutes, inverts, refuses what is
not an element, adds as a group, and card elements are distinct and tied to their game."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.sealed.cards import card_elements
from protocol.sealed.group import (
    BadElement,
    BadScalar,
    G,
    N,
    P,
    base_times,
    combination,
    commit,
    encode,
    hash_to_group,
    inverse,
    is_x_coordinate,
    load,
    mul,
    mul_each,
    mul_many,
    negate,
    times,
    total,
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
def test_k_and_n_minus_k_are_told_apart(k: int) -> None:
    """Whole points, not x-coordinates: -k is another scalar, its commitment another point
    with the same x (the proofs need every scalar to act as itself)."""
    assert mul(X, k) != mul(X, N - k)
    assert commit(k) != commit(N - k)
    assert commit(k)[1:] == commit(N - k)[1:]
    assert mul(mul(X, k), inverse(N - k)) == encode(negate(load(X)))


@settings(max_examples=10, deadline=None)
@given(scalars, scalars)
def test_points_add_as_a_group(a: int, b: int) -> None:
    x = load(X)
    assert encode(total([times(x, a), times(x, b)])) == encode(times(x, a + b))
    assert total([times(x, a), times(x, -a)]) is None  # the identity
    assert encode(combination([(a, x)], b)) == encode(total([times(x, a), base_times(b)]))
    assert times(x, N) is None and base_times(0) is None
    assert encode(None) == bytes(33)


def test_batch_helpers_agree_with_one_at_a_time() -> None:
    xs = [hash_to_group(bytes([i])) for i in range(4)]
    assert mul_many(xs, 12345) == [mul(x, 12345) for x in xs]
    assert mul_each(xs, [3, 5, 7, 11]) == [
        mul(x, k) for x, k in zip(xs, [3, 5, 7, 11], strict=True)
    ]


def test_commit_is_the_generator_times_the_scalar() -> None:
    # secp256k1's generator (SEC 2, section 2.4.1), compressed.
    gx = 0x79BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798
    assert commit(1) == G == b"\x02" + gx.to_bytes(32, "big")
    assert commit(6) == mul(commit(2), 3)


def test_what_is_not_an_x_coordinate_is_refused() -> None:
    x = 0
    while is_x_coordinate(x):
        x += 1
    for bad in (
        b"\x02" + x.to_bytes(32, "big"),
        b"\x03" + P.to_bytes(32, "big"),
        b"\x04" + X[1:],
        bytes(33),
        X[:32],
        X + b"\x00",
        b"",
    ):
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
        assert x[0] == 2 and is_x_coordinate(int.from_bytes(x[1:], "big"))
        load(x)


def test_card_elements_are_distinct_and_belong_to_one_game() -> None:
    one = card_elements(b"game 1", list(range(109)))
    assert len(set(one)) == 109
    other = card_elements(b"game 2", list(range(109)))
    assert not set(one) & set(other)
    assert card_elements(b"game 1", [5, 0]) == [one[5], one[0]]
    with pytest.raises(ValueError, match="twice"):
        card_elements(b"game 1", [1, 1])
