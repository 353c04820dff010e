"""Children started as under `nohup` (SIGHUP ignored, which exec keeps) or with SIGHUP's default:
a program must end when its terminal goes either way."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

SIGHUP_MODES = ("default", "ignored")


@contextmanager
def sighup_for_children(mode: str) -> Iterator[None]:
    """SIGHUP `mode` in this process while children are started in the block, then as before."""
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN if mode == "ignored" else signal.SIG_DFL)
    try:
        yield
    finally:
        signal.signal(signal.SIGHUP, previous)
