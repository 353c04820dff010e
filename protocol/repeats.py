"""A log line that repeats, said once per interval: the first one of a key (an address) in full,
then how many more came in that interval.

An address that knocks tens of thousands of times a second must not cost the host a log line
(a write to its stderr, and a line in the app's memory) each time: the log would grow without
bound and writing it would cost more than turning the connection away. Nothing here reads a
clock: the caller passes `now` (monotonic seconds), and calls `flush` now and then so that the
count of an address that went quiet is said too.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class _Window:
    since: float
    more: int = 0


class RepeatedLines:
    def __init__(
        self,
        log: Callable[[str], None],
        what: str,
        *,
        interval: float = 10.0,
        max_keys: int = 256,
    ) -> None:
        """`what` names the repeated event in the summary: "{n} more {what} from {key} in the
        last {t} s". At most `max_keys` keys are counted at once; beyond that the oldest
        window is closed (and its count said) early."""
        if interval <= 0 or max_keys < 1:
            raise ValueError("need interval > 0 and max_keys >= 1")
        self.log = log
        self.what = what
        self.interval = interval
        self.max_keys = max_keys
        self._windows: OrderedDict[str, _Window] = OrderedDict()  # oldest window first

    def __len__(self) -> int:
        return len(self._windows)

    def line(self, key: str, text: Callable[[], str], now: float) -> None:
        """Log `text()` if it is the first of `key` in its interval, else only count it (the
        text is only made when it is logged)."""
        window = self._windows.get(key)
        if window is not None:
            if now - window.since < self.interval:
                window.more += 1
                return
            self._close(key, window, now)
        while len(self._windows) >= self.max_keys:
            oldest, first = next(iter(self._windows.items()))
            self._close(oldest, first, now)
        self._windows[key] = _Window(now)
        self.log(text())

    def flush(self, now: float, *, everything: bool = False) -> None:
        """Say the count of every window whose interval is over (of all, at the end)."""
        while self._windows:
            key, window = next(iter(self._windows.items()))
            if not everything and now - window.since < self.interval:
                return
            self._close(key, window, now)

    def _close(self, key: str, window: _Window, now: float) -> None:
        del self._windows[key]
        if window.more:
            seconds = max(1, math.ceil(now - window.since))
            self.log(f"{window.more} more {self.what} from {key} in the last {seconds} s")
