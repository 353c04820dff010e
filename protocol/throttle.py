"""A per-address failure throttle: a few free mistakes, then a growing wait, then a refusal.

Whoever guesses passwords needs many tries; an honest person mistypes once or twice. So the
first `free` failures cost nothing, each later one doubles the wait before the next attempt is
judged (from `base` up to `cap` seconds), and after `refuse_after` failures the key is refused
outright for `refuse_for` seconds. A success forgets the key. Time is passed in (no clock here)
and the table of keys is bounded, so a flood of addresses cannot grow it without limit.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass


@dataclass
class _Record:
    failures: int = 0
    last: float = 0.0
    refused_until: float = 0.0


class FailureThrottle:
    def __init__(
        self,
        *,
        free: int = 3,
        base: float = 1.0,
        cap: float = 60.0,
        refuse_after: int = 20,
        refuse_for: float = 600.0,
        max_keys: int = 4096,
    ) -> None:
        self.free = free
        self.base = base
        self.cap = cap
        self.refuse_after = refuse_after
        self.refuse_for = refuse_for
        self.max_keys = max_keys
        self._records: OrderedDict[str, _Record] = OrderedDict()

    def _current(self, key: str, now: float) -> _Record | None:
        record = self._records.get(key)
        if record is not None and record.refused_until and now >= record.refused_until:
            del self._records[key]  # served its time: a clean slate
            return None
        return record

    def delay(self, key: str, now: float) -> float:
        """Seconds this key must wait before its next attempt is judged (0.0 while its
        failures are at most `free`)."""
        record = self._current(key, now)
        if record is None or record.failures <= self.free:
            return 0.0
        backoff = min(self.cap, self.base * 2.0 ** (record.failures - self.free - 1))
        return max(0.0, record.last + backoff - now)

    def refused(self, key: str, now: float) -> bool:
        """True while the key is temporarily refused."""
        record = self._current(key, now)
        return record is not None and now < record.refused_until

    def failure(self, key: str, now: float) -> None:
        record = self._current(key, now)
        if record is None:
            record = self._records[key] = _Record()
            while len(self._records) > self.max_keys:
                self._records.popitem(last=False)
        self._records.move_to_end(key)
        record.failures += 1
        record.last = now
        if record.failures >= self.refuse_after:
            record.refused_until = now + self.refuse_for

    def success(self, key: str) -> None:
        self._records.pop(key, None)
