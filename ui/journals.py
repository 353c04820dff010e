"""Where a new table's journal goes: one folder for the app's tables and headless ones alike,
named so that a plain `ls` lists them oldest first (the one to resume after a crash is last),
and after the game it holds.

A table is opened with one game and may start another: its owner changes the game in the lobby
(`o`), or "play again" reopens it with the game it was left with and the lobby changes it once
more. Someone picking a journal by its name to `--resume` must find the game they played, so a
journal named here is renamed when its game starts (`GameJournal`), if that game is another.
A journal whose path the user chose (`host --journal`, `--resume`) keeps it.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from protocol.journal_file import JournalWriter
from protocol.settings import data_dir

NAME = re.compile(r"^(?P<stamp>\d{8}-\d{6})-(?P<game>.+)-(?P<rest>\d+-[0-9a-f]{4})\.journal$")


def new_journal_path(game_id: str) -> Path:
    """The date and time first (sorted as text, they sort by time), then the game; the process
    and a few random bytes keep two tables opened in the same second apart."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return (
        data_dir() / "journals" / f"{stamp}-{game_id}-{os.getpid()}-{os.urandom(2).hex()}.journal"
    )


def named_for(path: Path, game_id: str) -> Path:
    """`path` (named by `new_journal_path`) for `game_id` instead: the same time and the same
    tail, so it sorts where it did. A name of another shape is left as it is."""
    found = NAME.match(path.name)
    if found is None:
        return path
    return path.with_name(f"{found['stamp']}-{game_id}-{found['rest']}.journal")


class GameJournal(JournalWriter):
    """A journal named by `new_journal_path` that takes the name of the game it holds when that
    game starts (its `start` record), and says so (`renamed`, with the new path). The file is
    renamed while open: the records go on into it, whatever its name. The rename is not synced
    to the disk: after a power cut the journal may keep its earlier name, never less."""

    def __init__(
        self, path: Path, *, renamed: Callable[[Path], None] | None = None, sync: bool = True
    ) -> None:
        super().__init__(path, sync=sync)
        self._renamed = renamed

    def write(self, record: dict[str, Any]) -> None:
        self._name_after(record)
        super().write(record)

    def append(self, record: dict[str, Any]) -> None:
        self._name_after(record)
        super().append(record)

    def _name_after(self, record: dict[str, Any]) -> None:
        game = record.get("game")
        if record.get("type") != "start" or not isinstance(game, str):
            return
        fresh = named_for(self.path, game)
        if fresh == self.path:
            return
        try:
            os.rename(self.path, fresh)
        except OSError:  # the journal keeps its name; its records matter, not its name
            return
        self.path = fresh
        if self._renamed is not None:
            self._renamed(fresh)
