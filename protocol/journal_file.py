"""The host's journal on disk: one JSON object per line, flushed (and synced) before the action's
events leave the host, so that no acknowledged action is lost if the host process dies."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Any


class JournalError(Exception):
    """A journal file that cannot be read back."""


class JournalWriter:
    def __init__(self, path: Path, *, sync: bool = False) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.sync = sync
        self._file: IO[str] = path.open("a", encoding="utf-8")
        os.chmod(path, 0o600)

    def append(self, record: dict[str, Any]) -> None:
        self._file.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._file.flush()
        if self.sync:
            os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def read_journal(path: Path) -> list[dict[str, Any]]:
    """All complete records; a last line cut short by a crash is dropped, anything else is an error."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise JournalError(f"cannot read journal {str(path)!r}: {exc.strerror}") from None
    lines = text.split("\n")
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            if number == len(lines):  # the unterminated last line of a crash
                break
            raise JournalError(f"journal {str(path)!r} line {number} is damaged") from None
        if not isinstance(record, dict):
            raise JournalError(f"journal {str(path)!r} line {number} is not a record")
        records.append(record)
    if not records:
        raise JournalError(f"journal {str(path)!r} is empty")
    return records
