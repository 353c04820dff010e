"""A reader that gives up on a peer that stays silent too long, without a timer per read.

`asyncio.timeout` around every read arms a timer and cancels it again: on a client that reads
an update every few hundred microseconds, that was a tenth of its work per update. Here one
timer wakes up about once per limit and looks at how long the current read has been waiting;
a read notes when it started, and sets the timer again only if the limit has shrunk below
what the timer was set for. A read that has waited `limit()` seconds fails with TimeoutError,
exactly as it did under `asyncio.timeout`; time spent away from the read (a prompt for the
user, say) is not silence.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class SilenceWatch:
    """Reads from `reader`; a read still waiting after `limit()` seconds raises TimeoutError."""

    def __init__(self, reader: asyncio.StreamReader, limit: Callable[[], float], what: str) -> None:
        self._reader = reader
        self._limit = limit
        self._what = what
        self._loop = asyncio.get_running_loop()
        self._waiting_since: float | None = None
        self._timer: asyncio.TimerHandle | None = None

    async def read(self, size: int) -> bytes:
        since = self._waiting_since = self._loop.time()
        due = since + self._limit()
        # The first read, or a limit that shrank since the timer was set.
        if self._timer is None or due < self._timer.when():
            self._arm(due)
        try:
            return await self._reader.read(size)
        finally:
            self._waiting_since = None

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _arm(self, when: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self._loop.call_at(when, self._check)

    def _check(self) -> None:
        now = self._loop.time()
        since = self._waiting_since
        limit = self._limit()
        self._timer = None
        if since is not None and now - since >= limit:
            self._reader.set_exception(TimeoutError(self._what))
            return
        self._arm((since if since is not None else now) + limit)
