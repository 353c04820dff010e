"""`wire.unpack` checks less than `check_plain` (its hooks and limits did the rest): it must
still refuse exactly what `check_plain` refuses, with the same code."""

from __future__ import annotations

import math
import random
from typing import Any

import msgpack
import pytest

from protocol.errors import ErrorCode, RemoteProtocolError
from protocol.limits import MAX_DEPTH
from protocol.wire import check_plain, unpack

ODD_FLOATS = (math.nan, math.inf, -math.inf)


def nested(levels: int, leaf: Any = 1) -> Any:
    data = leaf
    for level in range(levels):
        data = {"x": data} if level % 2 else [data]
    return data


def random_plain(rng: random.Random, depth: int) -> Any:
    roll = rng.random()
    if depth > 0 and roll < 0.35:
        return {f"k{i}": random_plain(rng, depth - 1) for i in range(rng.randrange(4))}
    if depth > 0 and roll < 0.7:
        return [random_plain(rng, depth - 1) for _ in range(rng.randrange(4))]
    return rng.choice(
        [None, True, 7, -(2**63), 2**64 - 1, "text", b"bin", 1.5, *ODD_FLOATS[: rng.randrange(4)]]
    )


def by_unpack(payload: bytes) -> ErrorCode | None:
    try:
        unpack(payload)
    except RemoteProtocolError as exc:
        return exc.code
    return None


def by_check_plain(payload: bytes) -> ErrorCode | None:
    try:
        check_plain(msgpack.unpackb(payload), RemoteProtocolError)
    except RemoteProtocolError as exc:
        return exc.code
    return None


@pytest.mark.parametrize("levels", [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, MAX_DEPTH + 2])
def test_the_depth_limit_is_where_check_plain_puts_it(levels: int) -> None:
    payload = msgpack.packb(nested(levels))
    expected = by_check_plain(payload)
    assert by_unpack(payload) == expected
    assert (expected is None) == (levels <= MAX_DEPTH)


@pytest.mark.parametrize("odd", ODD_FLOATS)
def test_a_float_that_is_not_finite_is_refused_wherever_it_is(odd: float) -> None:
    for data in (odd, [odd], {"a": [1, {"b": odd}]}, nested(MAX_DEPTH - 1, odd)):
        with pytest.raises(RemoteProtocolError) as info:
            unpack(msgpack.packb(data))
        assert info.value.code is ErrorCode.OUT_OF_RANGE


def test_random_data_gets_the_same_verdict_from_both() -> None:
    rng = random.Random(17)
    refused = 0
    for _ in range(3000):
        data = random_plain(rng, rng.randrange(MAX_DEPTH + 4))
        if rng.random() < 0.3:
            data = nested(rng.randrange(MAX_DEPTH - 3, MAX_DEPTH + 2), data)
        payload = msgpack.packb(data)
        expected = by_check_plain(payload)
        assert by_unpack(payload) == expected, data
        refused += expected is not None
    assert 300 < refused < 2700, "both kinds of data were tried"
