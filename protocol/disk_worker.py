"""A thread that does a program's slow file work (syncs to the disk, files written whole), in
the order it was asked for, so that the event loop never waits for the disk.

A sync (`fsync`) waits for the disk itself: 0.1 ms on a quiet SSD, tens of milliseconds on a
busy or slow one. Done on the event loop it stops every table and screen of the program for that
long. So the journal (`journal_file.py`) and the files beside a seat token (`seat_tokens.py`)
hand it to a `DiskWorker`: their bytes are written to the operating system at once where a
crash of the program must not lose them (the system keeps them through that), and the worker
makes them survive a power cut a moment later. Whoever must not speak before a file is on the
disk (a seat's seed before its signing key leaves, a deal's notes before our part does) waits
for the worker without blocking the loop: `settled()` on an event loop, `after(callback)`
anywhere else.

Jobs run one at a time in the order they were submitted; a job given a `key` takes the place of
a job of the same key still waiting at the end of the queue (the newer content of one file, or
one more sync of one journal, stands for both), never of one with other jobs after it, so the
order of everything else holds. A job that fails is reported to the callbacks of its place and
kept as `errors` (the callers treat a file they could not write as they did when they wrote it
themselves: the game goes on).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import threading
import weakref
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

Done = Callable[[BaseException | None], None]
"""Called in the worker's thread once a job is done, with what it raised (None: it went well)."""


@dataclass
class _Job:
    ticket: int
    work: Callable[[], None]
    key: Hashable | None
    done: list[Done] = field(default_factory=list)


class DiskWorker:
    """One daemon thread, started when first needed, running file jobs in order."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._cond = threading.Condition()
        self._jobs: deque[_Job] = deque()
        self._submitted = 0
        self._finished = 0
        self._thread: threading.Thread | None = None
        self._stopping = False
        self.errors: list[BaseException] = []
        """What failed jobs raised, oldest first (the last few)."""
        _LIVE.add(self)

    def submit(
        self, work: Callable[[], None], *, key: Hashable | None = None, done: Done | None = None
    ) -> int:
        """Run `work` after everything submitted before it; its ticket (see `wait`)."""
        with self._cond:
            if self._stopping:
                raise RuntimeError(f"the {self.name} disk worker is stopped")
            last = self._jobs[-1] if self._jobs else None
            if key is not None and last is not None and last.key == key:
                last.work = work  # not started yet: the newer work covers both
                if done is not None:
                    last.done.append(done)
                return last.ticket
            self._submitted += 1
            self._jobs.append(_Job(self._submitted, work, key, [done] if done else []))
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name=f"netcards {self.name} disk", daemon=True
                )
                self._thread.start()
            self._cond.notify()
            return self._submitted

    def after(self, done: Done) -> None:
        """Call `done` (in the worker's thread, or here at once when idle) once everything
        submitted so far is done; its argument is None."""
        with self._cond:
            if self._finished == self._submitted:
                idle = True
            else:
                idle = False
                self._submit_marker(done)
        if idle:
            done(None)

    def _submit_marker(self, done: Done) -> None:
        """(Holding the lock.) A job that does nothing, for its callback's place in the order."""
        self._submitted += 1
        self._jobs.append(_Job(self._submitted, _nothing, None, [done]))
        self._cond.notify()

    def idle(self) -> bool:
        with self._cond:
            return self._finished == self._submitted

    def wait(self, ticket: int | None = None, timeout: float | None = None) -> bool:
        """Block this thread until job `ticket` (default: everything submitted so far) is done;
        False if `timeout` seconds passed first. Never call it on an event loop's thread while
        the loop has work: that is what the worker is for (use `settled`)."""
        with self._cond:
            target = self._submitted if ticket is None else ticket
            return self._cond.wait_for(lambda: self._finished >= target, timeout)

    async def settled(self) -> None:
        """Wait, without blocking the event loop, until everything submitted so far is done."""
        with self._cond:
            if self._finished == self._submitted:
                return
            loop = asyncio.get_running_loop()
            future: asyncio.Future[None] = loop.create_future()

            def wake(_error: BaseException | None) -> None:
                with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                    loop.call_soon_threadsafe(_resolve, future)

            self._submit_marker(wake)
        await future

    def stop(self, timeout: float | None = None) -> bool:
        """Finish every job submitted, then end the thread; False if it did not in time."""
        with self._cond:
            self._stopping = True
            self._cond.notify()
            thread = self._thread
        if thread is None:
            return True
        thread.join(timeout)
        return not thread.is_alive()

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: bool(self._jobs) or self._stopping)
                if not self._jobs:
                    return  # stopping, and nothing left
                job = self._jobs[0]
                job.key = None  # started: a newer job of its key waits behind it
            error: BaseException | None = None
            try:
                job.work()
            except Exception as exc:  # reported; the worker goes on with the next job
                error = exc
            with self._cond:
                self._jobs.popleft()
                self._finished = job.ticket
                if error is not None:
                    self.errors = [*self.errors[-9:], error]
                self._cond.notify_all()
            for done in job.done:
                with contextlib.suppress(Exception):  # a callback's failure is not the job's
                    done(error)


def _nothing() -> None:
    pass


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


_LIVE: weakref.WeakSet[DiskWorker] = weakref.WeakSet()


@atexit.register
def _finish_all() -> None:
    """A program that ends normally finishes the file work it asked for first (a few
    milliseconds; bounded, so that a dead disk cannot hold the exit for ever)."""
    for worker in list(_LIVE):
        worker.wait(timeout=5.0)


_SHARED = DiskWorker("seat files")  # its thread starts with its first job


def shared() -> DiskWorker:
    """The program's worker for the small files beside its seat tokens."""
    return _SHARED
