"""The host's journal on disk: one JSON object per line.

An action's record is written and flushed to the operating system before its events leave
the host, so that no action anyone has seen is lost if the host process dies. The host has it
synced to the disk a few milliseconds after the updates are sent (`HostSettings`), and when
the journal is closed: the sync costs more than the rest of the action (`bench/journal.py`),
and neither the players nor the next action should wait for it. A power cut in between can
lose those last actions, which their players had seen: the host that resumes tells them they
are taken back, as it does for a torn record.

The sync is never made on the event loop: each journal has a thread of its own for it
(`disk_worker.py`), which `sync_soon` asks and `after_sync` waits for (a record that must be on
the disk before anything after it happens, such as a game's start, holds what follows until
that thread says so). A sync can take tens of milliseconds on a busy disk; on the loop, every
action then in flight waited for it. `append` and `make_durable` sync on the calling thread,
for a program that has no loop running (a test, `close`).

A crash can still leave the last line half-written, or (a power cut) the last records'
blocks zero-filled. Such a torn end is dropped when the journal is read, and cut off the file before anything is appended to it (`JournalWriter`
does it when it opens the file), so that a second crash never leaves a damaged line in the
middle. A last line that lost only its newline is a whole record: it is kept, and the newline
is put back.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Any

from protocol.disk_worker import DiskWorker, Done


class JournalError(Exception):
    """A journal file that cannot be read back."""


def _complete(data: bytes) -> tuple[int, bool]:
    """(bytes of `data` that hold complete records, whether the last of them lacks its newline).

    A power cut before a sync can leave the last records' blocks zero-filled, with whole lines
    after them from the same few milliseconds: a NUL byte (never in a JSON text) starts the
    torn end of the journal, like a half-written last line."""
    nul = data.find(b"\0")
    if nul >= 0:
        data = data[: data.rfind(b"\n", 0, nul) + 1]
        return len(data), False
    if not data or data.endswith(b"\n"):
        return len(data), False
    start = data.rfind(b"\n") + 1
    try:
        whole = isinstance(json.loads(data[start:]), dict)
    except ValueError:
        whole = False
    return (len(data), True) if whole else (start, False)


class JournalWriter:
    def __init__(self, path: Path, *, sync: bool = True) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.sync = sync
        created = not path.exists()
        self.repaired = self._repair(path)
        """Bytes of a torn last record cut off when the file was opened (0: none)."""
        self._file: IO[str] = path.open("a", encoding="utf-8")
        os.chmod(path, 0o600)
        self._worker = DiskWorker(f"journal {path.name}")
        if created and sync:  # the new file's name must survive a power cut too (before any
            self._worker.submit(lambda: _sync_folder(path.parent))  # of its records, in order)

    @staticmethod
    def _repair(path: Path) -> int:
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return 0
        keep, newline = _complete(data)
        if keep == len(data) and not newline:
            return 0
        with path.open("r+b") as f:
            f.truncate(keep)
            if newline:
                f.seek(keep)
                f.write(b"\n")
            f.flush()
            os.fsync(f.fileno())
        return len(data) - keep

    def append(self, record: dict[str, Any]) -> None:
        """Write `record` and make it durable now, on this thread (not on an event loop)."""
        self.write(record)
        self.make_durable()

    def write(self, record: dict[str, Any]) -> None:
        """Write `record` through to the operating system: it outlives this process."""
        self._file.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._file.flush()

    def sync_soon(self, done: Done | None = None) -> None:
        """Have what was written synced to the disk by the journal's thread (then `done(error)`
        called there): this returns at once. One sync covers every record written before it
        starts, so a burst of records waiting for one is synced once."""
        if self.sync:
            self._worker.submit(self._sync, key="sync", done=done)

    def after_sync(self, done: Done) -> bool:
        """Have what was written synced by the journal's thread, then `done(error)` called in
        that thread; False (and `done` is not called) when nothing needs syncing (`sync`
        off), so that the caller goes on at once."""
        if not self.sync:
            return False
        self._worker.submit(self._sync, key="sync", done=done)
        return True

    def make_durable(self) -> None:
        """Sync what was written to the disk now, on this thread: it outlives a power cut too."""
        if self.sync:
            self._worker.wait()  # the file's name first, if the thread has not synced it yet
            self._sync()

    def _sync(self) -> None:
        _sync_data(self._file.fileno())

    def close(self) -> None:
        """Finish the syncs asked for, sync what is left and close the file (it blocks: on an
        event loop, call it in a worker thread)."""
        if self._file.closed:
            return
        try:
            self._worker.stop()
            self.make_durable()
        finally:
            self._file.close()


_sync_data = getattr(os, "fdatasync", os.fsync)


def _sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def read_journal(path: Path) -> list[dict[str, Any]]:
    """All complete records; a torn last line is dropped, any other damage is an error."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise JournalError(f"cannot read journal {str(path)!r}: {exc.strerror}") from None
    keep, _ = _complete(data)
    records = []
    for number, line in enumerate(data[:keep].split(b"\n"), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            raise JournalError(f"journal {str(path)!r} line {number} is damaged") from None
        if not isinstance(record, dict):
            raise JournalError(f"journal {str(path)!r} line {number} is not a record")
        records.append(record)
    if not records:
        raise JournalError(f"journal {str(path)!r} is empty")
    return records
