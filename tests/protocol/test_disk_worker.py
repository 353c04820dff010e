"""The disk thread: jobs in the order they were asked for, a newer job of a key standing for one
still waiting last, failures reported, and waiting for it from an event loop without blocking."""

from __future__ import annotations

import asyncio
import threading
import time

from protocol.disk_worker import DiskWorker


def test_jobs_run_in_order_on_a_thread_of_their_own() -> None:
    worker = DiskWorker("test")
    done: list[tuple[int, int]] = []
    for n in range(20):
        worker.submit(lambda n=n: done.append((n, threading.get_ident())))
    assert worker.wait(timeout=5)
    assert [n for n, _ in done] == list(range(20))
    assert {thread for _, thread in done} != {threading.get_ident()}
    assert worker.stop(5)


def test_a_newer_job_of_a_key_replaces_only_one_waiting_last() -> None:
    """Two saves of one file in a row: the second's content is written once. A save, then
    something else, then a save: the order holds, the second save is not moved before it."""
    worker = DiskWorker("test")
    gate = threading.Event()
    ran: list[str] = []
    worker.submit(gate.wait)  # busy: what follows waits in the queue
    worker.submit(lambda: ran.append("save 1"), key="file")
    worker.submit(lambda: ran.append("save 2"), key="file")  # covers save 1
    worker.submit(lambda: ran.append("forget"))
    worker.submit(lambda: ran.append("save 3"), key="file")  # after the forget
    gate.set()
    worker.wait(timeout=5)
    assert ran == ["save 2", "forget", "save 3"]
    worker.stop(5)


def test_a_job_started_is_not_replaced() -> None:
    worker = DiskWorker("test")
    started, gate = threading.Event(), threading.Event()
    ran: list[str] = []

    def first() -> None:
        started.set()
        gate.wait()
        ran.append("first")

    worker.submit(first, key="sync")
    assert started.wait(5)
    worker.submit(lambda: ran.append("second"), key="sync")  # the first may have missed it
    gate.set()
    worker.wait(timeout=5)
    assert ran == ["first", "second"]
    worker.stop(5)


def test_a_failing_job_is_reported_and_the_next_ones_run() -> None:
    worker = DiskWorker("test")
    errors: list[BaseException | None] = []

    def fail() -> None:
        raise OSError(28, "No space left on device")

    worker.submit(fail, done=errors.append)
    worker.submit(lambda: None, done=errors.append)
    worker.wait(timeout=5)
    assert isinstance(errors[0], OSError) and errors[1] is None
    assert isinstance(worker.errors[-1], OSError)
    worker.stop(5)


async def test_settled_waits_for_the_jobs_before_it_without_blocking_the_loop() -> None:
    worker = DiskWorker("test")
    await worker.settled()  # idle: at once
    ran: list[str] = []

    def slow() -> None:
        time.sleep(0.2)
        ran.append("slow")

    worker.submit(slow)
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.01)

    ticker = asyncio.create_task(tick())
    await asyncio.wait_for(worker.settled(), 5)
    ticker.cancel()
    assert ran == ["slow"] and ticks >= 10
    worker.stop(5)


def test_stopping_finishes_every_job_asked_for() -> None:
    worker = DiskWorker("test")
    ran: list[int] = []
    for n in range(5):
        worker.submit(lambda n=n: (time.sleep(0.01), ran.append(n)))
    assert worker.stop(5)
    assert ran == [0, 1, 2, 3, 4]
