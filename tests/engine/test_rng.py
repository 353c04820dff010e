"""The generator's outputs for a seed never change: replays, journals and every deal rest on them.

The fast generator (one keyed hasher per generator, blocks drawn in loops) is checked draw by
draw against the definition written out plainly here, and against a few values fixed once.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from netcards.rng import Rng, make_seed


class PlainRng:
    """The definition: block i is BLAKE2b(key, i as 8 bytes big-endian), 8 bytes, one per draw."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.counter = 0

    def below(self, n: int) -> int:
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            digest = hashlib.blake2b(
                self.counter.to_bytes(8, "big"), key=self.key, digest_size=8
            ).digest()
            self.counter += 1
            x = int.from_bytes(digest, "big")
            if x < limit:
                return x % n

    def shuffle(self, items: list[int]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: list[int], k: int) -> list[int]:
        pool = list(items)
        return [pool.pop(self.below(len(pool))) for _ in range(k)]


@pytest.mark.parametrize("seed", range(20))
def test_every_draw_is_the_plain_definitions(seed: int) -> None:
    key = make_seed(seed)
    fast, plain = Rng(key), PlainRng(key)
    script = random.Random(seed)
    for _ in range(60):
        what = script.randrange(4)
        if what == 0:
            n = script.choice([1, 2, 3, 7, 55, 109, 2**63 + 5, 2**64 - 1])
            assert fast.below(n) == plain.below(n)
        elif what == 1:
            items = list(range(script.randrange(0, 110)))
            mine, theirs = list(items), list(items)
            fast.shuffle(mine)
            plain.shuffle(theirs)
            assert mine == theirs
        elif what == 2:
            items = list(range(script.randrange(1, 20)))
            k = script.randrange(len(items) + 1)
            assert fast.sample(items, k) == plain.sample(items, k)
        else:
            fast = fast.copy()  # a copy goes on with the same stream
        assert fast.counter == plain.counter
    restored, probe = Rng.from_data(fast.to_data()), PlainRng(key)
    probe.counter = restored.counter
    assert [restored.below(1000) for _ in range(5)] == [probe.below(1000) for _ in range(5)]


def test_fixed_values_of_one_seed() -> None:
    rng = Rng(make_seed(2024))
    assert [rng.below(7) for _ in range(5)] == [0, 6, 0, 2, 5]
    cards = list(range(20))
    rng.shuffle(cards)
    assert cards == [16, 15, 8, 14, 17, 1, 11, 4, 18, 12, 10, 7, 0, 5, 2, 13, 6, 3, 9, 19]
    assert rng.sample(list(range(30)), 5) == [25, 11, 5, 26, 2]
    fork = rng.fork("x")
    assert [fork.below(1000) for _ in range(3)] == [358, 398, 790]
    assert rng.counter == 29
    assert rng.below(2**63 + 5) == 3439814744989775171


def test_a_sample_larger_than_its_pool_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot draw 3 items from 2"):
        Rng(make_seed(1)).sample([1, 2], 3)


def test_redrawn_blocks_in_a_batch_are_the_plain_definitions() -> None:
    """Bounds near 2**63 reject about half the blocks: the batched draws redraw like `below`."""
    key = make_seed(3)
    fast, plain = Rng(key), PlainRng(key)
    bounds = range(2**63 + 40, 2**63, -1)
    assert fast._indices(bounds) == [plain.below(n) for n in bounds]
    assert fast.counter == plain.counter > len(bounds)  # some blocks were redrawn
