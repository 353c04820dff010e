"""`wire.unpack` checks less than `check_plain` (its hooks and limits did the rest): it must
still refuse exactly what `check_plain` refuses, with the same code."""

from __future__ import annotations

import math
import random
from typing import Any

import msgpack
import pytest

from protocol import wire
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


def wide_nested(levels: int) -> Any:
    """Like `nested`, but every level is an array or map of 20 items: their headers are the
    16- and 32-bit forms (0xdc-0xdf), not the fixed ones."""
    data: Any = 1
    for level in range(levels):
        wide_map = {"x": data, **{f"k{i}": i for i in range(19)}}
        data = wide_map if level % 2 else [data, *range(19)]
    return data


@pytest.mark.parametrize("levels", [MAX_DEPTH, MAX_DEPTH + 1])
def test_the_depth_limit_holds_for_large_containers_too(levels: int) -> None:
    payload = msgpack.packb(wide_nested(levels))
    assert by_unpack(payload) == by_check_plain(payload)
    assert (by_unpack(payload) is None) == (levels <= MAX_DEPTH)


def test_most_messages_are_not_walked_but_floats_and_deep_data_are(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    walked: list[Any] = []
    monkeypatch.setattr(wire, "_check_unpacked", lambda obj, depth: walked.append(obj))
    update = {"type": "update", "seq": 3, "view": {"hand": [1, 2, 3], "top": 140}, "to_act": [1]}
    unpack(msgpack.packb(update))
    assert walked == []  # no float, few containers: nothing the walk could find
    unpack(msgpack.packb({**update, "odd": 0.5}))
    unpack(msgpack.packb(nested(MAX_DEPTH + 1)))
    assert len(walked) == 2
