"""The journal's promise, and the event loop never waiting for the disk.

Every action is written to the operating system before any of its updates leaves (so it
outlives the host process), and synced to the disk a few milliseconds later by the journal's
own thread, never by the event loop: a sync can take tens of milliseconds on a busy disk, and
every action in flight would wait for it. A record that must be on the disk before anything
after it (a game's start, the close) holds what follows until that thread has synced it, while
the loop goes on.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from protocol.host import Peer
from protocol.journal_file import JournalWriter
from protocol.messages import Update
from tests.network.test_fanout_cost import bots_table, watched_to_the_end


async def test_each_action_is_written_before_its_update_leaves_and_synced_soon_after_off_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each action is written, then sent, then synced (by the journal's thread, not the
    loop's): a sync after its updates left covers it; the last one once the table is closed.
    (The bots may make the first moves before both spectators have joined: those go to fewer
    of them.)"""
    journal = JournalWriter(tmp_path / "game.journal")
    server = bots_table(bot_delay=0.05)
    server.journal = journal
    loop_thread = threading.get_ident()
    steps: list[tuple[str, int]] = []  # (what happened, the update number then)
    sync_threads: set[int] = set()
    write, sync = journal.write, journal._sync

    def writing(record: dict[str, Any]) -> None:
        write(record)
        on_disk = journal.path.read_text()  # flushed: another process can read it already
        assert on_disk.endswith(json.dumps(record, separators=(",", ":")) + "\n")
        steps.append((f"write {record['type']}", server.seq))

    def syncing() -> None:
        sync_threads.add(threading.get_ident())
        steps.append(("sync", server.seq))
        sync()

    monkeypatch.setattr(journal, "write", writing)
    monkeypatch.setattr(journal, "_sync", syncing)
    send = server._send

    def sending(peer: Peer, message: Any) -> None:
        if isinstance(getattr(message, "message", message), Update):
            steps.append(("send", server.seq))
        send(peer, message)

    monkeypatch.setattr(server, "_send", sending)
    async with watched_to_the_end(server, tmp_path, 2):
        pass
    actions = [seq for what, seq in steps if what == "write action"]
    assert actions == list(range(1, server.seq + 1))
    sends = []
    for seq in actions:
        at = [
            i for i, (what, n) in enumerate(steps) if n == seq and what in ("write action", "send")
        ]
        in_order = [steps[i][0] for i in at]
        sends.append(in_order.count("send"))
        assert in_order == ["write action", *["send"] * sends[-1]], (seq, steps)
        # A sync after its updates left, made when the table was at this action or later.
        assert any(what == "sync" and n >= seq for what, n in steps[at[-1] :]), (seq, steps)
    assert sends[-1] == 2 and sends == sorted(sends)
    assert steps[-1] == ("sync", server.seq), "the last action is on the disk once closed"
    assert sync_threads and loop_thread not in sync_threads, "no sync on the event loop"


async def test_a_game_start_waits_for_the_disk_off_the_loop_and_nothing_overtakes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The start's record is synced before anything that follows it is done; while the disk
    takes its time (0.3 s here), the loop runs other work, and what the inputs taken
    meanwhile call for (a spectator joining) waits behind the start, in order."""
    journal = JournalWriter(tmp_path / "game.journal")
    server = bots_table(bot_delay=0.0)
    server.journal = journal
    syncs: list[tuple[float, float]] = []  # (began, ended)
    sync = journal._sync

    def slow_sync() -> None:
        began = time.monotonic()
        if not syncs:
            time.sleep(0.3)  # the start's
        sync()
        syncs.append((began, time.monotonic()))

    monkeypatch.setattr(journal, "_sync", slow_sync)
    sent: list[float] = []
    send = server._send

    def sending(peer: Peer, message: Any) -> None:
        sent.append(time.monotonic())
        send(peer, message)

    monkeypatch.setattr(server, "_send", sending)
    ticks: list[float] = []

    async def ticking() -> None:
        while True:
            ticks.append(time.monotonic())
            await asyncio.sleep(0.01)

    ticker = asyncio.create_task(ticking())
    try:
        async with watched_to_the_end(server, tmp_path, 1) as watchers:
            assert watchers[0].outcome is not None or server.finished.is_set()
    finally:
        ticker.cancel()
    began, ended = syncs[0]
    assert ended - began >= 0.3
    assert len([t for t in ticks if began < t < ended]) >= 10, "the loop ran on meanwhile"
    assert sent and min(sent) >= ended, "nothing of the game was sent before its start's sync"
    records = [json.loads(line) for line in journal.path.read_text().splitlines()]
    assert records[0]["type"] == "start" and records[-1]["type"] == "closed"
    assert len([r for r in records if r["type"] == "action"]) == server.seq > 0


def test_a_record_written_is_in_the_file_before_any_sync(tmp_path: Path) -> None:
    """What another process (the host resumed after a crash) reads: every record written,
    whether or not the journal's thread has synced it yet."""
    journal = JournalWriter(tmp_path / "game.journal")
    gate = threading.Event()
    journal._worker.submit(gate.wait)  # the thread is busy: nothing is synced for now
    for n in range(1, 4):
        journal.write({"type": "action", "n": n})
        journal.sync_soon()
    lines = (tmp_path / "game.journal").read_text().splitlines()
    assert [json.loads(line)["n"] for line in lines] == [1, 2, 3]
    gate.set()
    journal.close()
