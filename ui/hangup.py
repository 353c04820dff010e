"""Leaving once the terminal is gone, even when the hang-up signal never came.

A terminal that closes sends SIGHUP, which ends the program. A program started with SIGHUP
ignored (under `nohup`, or by a parent that ignores it) hears nothing: its terminal then reads
as end of file at once, every time, and the toolkit's input thread goes round that loop at
full speed for ever, a core burnt by a window nobody sees. So the app asks its terminal, once
a second, whether it is still there, and if not, ends as the signal would have ended it: at
once, as the table expects of a player whose terminal closed (it keeps the seat for them and
a bot stands in). Leaving through the toolkit's own exit is no way out here: it waits for the
input thread, which waits for it.
"""

from __future__ import annotations

import errno
import os
import signal
import termios

CHECK_EVERY = 1.0
"""Seconds between two looks at the terminal."""

GONE = frozenset({errno.EIO, errno.ENXIO, errno.EBADF})
"""What asking a hung-up terminal (or a closed descriptor) for its settings fails with."""


def hung_up(fd: int) -> bool:
    """Whether the terminal on `fd` has gone: its other side closed, its line hung up."""
    try:
        termios.tcgetattr(fd)
    except termios.error as exc:
        return bool(exc.args) and exc.args[0] in GONE
    return False


def hang_up_now() -> None:
    """End this process by SIGHUP, its default action restored."""
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGHUP)
