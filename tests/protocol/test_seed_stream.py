"""A seat's randomness from its kept seed (docs/sealed.md, section 8): the same seed makes the
same signing key and the same secrets, so a seat rebuilt from it signs the same steps again."""

from __future__ import annotations

import hashlib

import pytest

from protocol.sealed.round_driver import SeatDriver
from protocol.sealed.seed_stream import LABEL, SeedStream

SEED = bytes(range(32))


def test_the_stream_is_sha256_of_label_seed_and_counter_whatever_the_draw_sizes() -> None:
    blocks = b"".join(
        hashlib.sha256(LABEL + SEED + i.to_bytes(8, "big")).digest() for i in range(3)
    )
    stream = SeedStream(SEED)
    assert stream(5) + stream(40) + stream(1) == blocks[:46]


def test_a_seat_rebuilt_from_its_seed_has_the_same_key_and_another_seed_another() -> None:
    first, again = SeatDriver(0, 1, SeedStream(SEED)), SeatDriver(0, 1, SeedStream(SEED))
    other = SeatDriver(0, 1, SeedStream(bytes(32)))
    assert first.hello() == again.hello() != other.hello()


def test_a_fork_draws_apart_and_a_short_seed_is_refused() -> None:
    assert SeedStream(SEED).fork("choices")(32) != SeedStream(SEED)(32)
    with pytest.raises(ValueError):
        SeedStream(b"short")
