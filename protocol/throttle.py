"""Slowing down whoever keeps failing to authenticate (a wrong table password, a wrong SSH login).

Online guessing is only as fast as the door lets it be. Each key (usually a peer's address)
gets `free` attempts judged at once; after that many failures it must wait before its next
attempt is judged (`base` seconds after the last failure), twice
as long after every further failure up to a cap, and after many failures it is refused outright
for a while. A success forgets the key. Nothing here reads a clock: the caller passes `now`
(any monotonic seconds), so the policy is tested with plain numbers and shared by every door.

Memory is bounded: at most `max_keys` keys are remembered, a key is forgotten `refuse_for`
seconds after its last failure, and when the table is full the key whose last failure is oldest
(preferring keys that are not refused) makes room. An attacker with more addresses than
`max_keys` can therefore wash out old records; it still pays the free allowance per address.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass


@dataclass
class _Record:
    failures: int
    last: float


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
        if free < 0 or refuse_after <= free or max_keys < 1:
            raise ValueError("need 0 <= free < refuse_after and max_keys >= 1")
        if base <= 0 or cap < base or refuse_for < cap:
            raise ValueError("need 0 < base <= cap <= refuse_for")
        self.free = free
        self.base = base
        self.cap = cap
        self.refuse_after = refuse_after
        self.refuse_for = refuse_for
        self.max_keys = max_keys
        self._records: OrderedDict[str, _Record] = OrderedDict()

    def __len__(self) -> int:
        return len(self._records)

    def penalty(self, failures: int) -> float:
        """How long a key with `failures` failures waits after its last one (not counting refusal)."""
        if failures < self.free:
            return 0.0
        return min(self.cap, self.base * 2.0 ** min(failures - self.free, 62))

    def failures(self, key: str, now: float) -> int:
        record = self._current(key, now)
        return 0 if record is None else record.failures

    def delay(self, key: str, now: float) -> float:
        """Seconds this key must wait before its next attempt is judged (0.0 while its failures
        are within the free allowance); while the key is refused, the time left of the refusal."""
        record = self._current(key, now)
        if record is None:
            return 0.0
        wait = self.refuse_for if self._is_refused(record) else self.penalty(record.failures)
        return max(0.0, record.last + wait - now)

    def refused(self, key: str, now: float) -> bool:
        """True while the key is temporarily refused (too many failures, recently)."""
        record = self._current(key, now)
        return record is not None and self._is_refused(record)

    def failure(self, key: str, now: float) -> None:
        record = self._current(key, now)
        if record is None:
            self._make_room(now)
            record = self._records[key] = _Record(0, now)
        record.failures += 1
        record.last = max(record.last, now)
        self._records.move_to_end(key)

    def success(self, key: str) -> None:
        self._records.pop(key, None)

    # -- internals --------------------------------------------------------------------------------

    def _is_refused(self, record: _Record) -> bool:
        return record.failures >= self.refuse_after

    def _current(self, key: str, now: float) -> _Record | None:
        record = self._records.get(key)
        if record is not None and now - record.last >= self.refuse_for:
            del self._records[key]
            return None
        return record

    def _make_room(self, now: float) -> None:
        """Forget expired keys (oldest first), then, if still full, the oldest key not refused."""
        while self._records:
            key, record = next(iter(self._records.items()))
            if now - record.last < self.refuse_for:
                break
            del self._records[key]
        if len(self._records) < self.max_keys:
            return
        victim = next(
            (k for k, r in self._records.items() if not self._is_refused(r)),
            next(iter(self._records)),
        )
        del self._records[victim]
