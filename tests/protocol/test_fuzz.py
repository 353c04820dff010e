"""Random and mutated bytes never produce anything but documented protocol errors.

A small, fast version of bench/fuzz_protocol.py (which runs far more inputs).
"""

from __future__ import annotations

import random

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol.errors import ErrorCode
from protocol.messages import encode
from protocol.wire import pack
from tests.protocol.fuzzing import (
    decode_outcome,
    feed_outcome,
    fresh_client,
    fresh_host,
    handshake_transcript,
    mutate,
    open_client,
    open_host,
    split,
)
from tests.protocol.support import one_of_each

CODES = {c.value for c in ErrorCode} | {"ok", "need_data", "closed"}
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
VALID = [pack(encode(m)) for m in one_of_each()]
TRANSCRIPT = handshake_transcript(1)

plain = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats()
    | st.text(max_size=20)
    | st.binary(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=8) | st.integers(-5, 5), inner, max_size=4)
    ),
    max_leaves=20,
)


@FAST
@given(st.binary(max_size=300))
def test_decoder_on_random_bytes(payload: bytes) -> None:
    assert decode_outcome(payload) in CODES


@FAST
@given(st.sampled_from(VALID), st.randoms(use_true_random=False))
def test_decoder_on_mutated_messages(payload: bytes, rng: random.Random) -> None:
    assert decode_outcome(mutate(payload, rng)) in CODES


@FAST
@given(plain, st.sampled_from([encode(m) for m in one_of_each()]), st.text(max_size=10))
def test_decoder_on_random_structures(value: object, base: dict[str, object], key: str) -> None:
    data = dict(base)
    data[key or "type"] = value
    assert decode_outcome(msgpack.packb(data, use_bin_type=True)) in CODES
    assert decode_outcome(msgpack.packb(value, use_bin_type=True)) in CODES


@FAST
@given(st.binary(max_size=400), st.booleans(), st.integers(0, 3))
def test_fresh_connections_on_random_streams(data: bytes, eof: bool, seed: int) -> None:
    rng = random.Random(seed)
    assert feed_outcome(fresh_host(seed), split(data, rng), eof) in CODES
    assert feed_outcome(fresh_client(seed), split(data, rng), eof) in CODES


@FAST
@given(st.randoms(use_true_random=False), st.booleans())
def test_mutated_handshakes(rng: random.Random, eof: bool) -> None:
    to_host, to_client = TRANSCRIPT
    assert feed_outcome(fresh_host(1), split(mutate(to_host, rng), rng), eof) in CODES
    assert feed_outcome(fresh_client(1), split(mutate(to_client, rng), rng), eof) in CODES


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
)
@given(st.randoms(use_true_random=False), st.booleans())
def test_mutated_session_streams(rng: random.Random, eof: bool) -> None:
    pair, frames = open_client(rng.randrange(3))
    stream = mutate(b"".join(frames), rng)
    assert feed_outcome(pair.client, split(stream, rng), eof) in CODES
    pair, frames = open_host(rng.randrange(3))
    stream = mutate(b"".join(frames), rng)
    assert feed_outcome(pair.host, split(stream, rng), eof) in CODES
