"""Where a new table's journal goes: one folder for the app's tables and headless ones alike,
named so that a plain `ls` lists them oldest first (the one to resume after a crash is last)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from protocol.settings import data_dir


def new_journal_path(game_id: str) -> Path:
    """The date and time first (sorted as text, they sort by time), then the game; the process
    and a few random bytes keep two tables opened in the same second apart."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return (
        data_dir() / "journals" / f"{stamp}-{game_id}-{os.getpid()}-{os.urandom(2).hex()}.journal"
    )
