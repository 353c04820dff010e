"""One guest's app in a pseudo-terminal of its own: started for an SSH session, ended with it.

The door hands the guest's keystrokes to the child through the PTY's master side and sends
what the child draws back down the SSH channel. A window change is set on the PTY (TIOCSWINSZ)
and signalled (SIGWINCH), so the app redraws at the new size. The child runs in a session and
process group of its own, so ending it reaches everything it started: politely first (SIGHUP,
as when a terminal hangs up), then for certain (SIGKILL) a few seconds later. (The door also
makes the PTY the child's controlling terminal, so that the kernel hangs it up if we die.)
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import os
import signal
import struct
import termios
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

READ_SIZE = 65536
INPUT_LIMIT = 1 << 20
"""Keystrokes waiting for a child that does not read: past this, more are dropped."""

TERMINAL_RESET = (
    b"\x18"  # cancels an escape sequence the app was cut off in the middle of
    b"\x1b[?2026l"  # synchronized output off: else the terminal shows nothing more
    b"\x1b[0m"
    b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1015l\x1b[?1006l"  # no mouse reports
    b"\x1b[?2004l"  # bracketed paste off
    b"\x1b[?1004l"  # focus reports off
    b"\x1b[?2048l"  # in-band resize reports off
    b"\x1b[?7h"  # lines wrap again
    b"\x1b[<u"  # the kitty keyboard protocol, popped before leaving the alternate screen
    b"\x1b[?1049l"  # back to the normal screen, as it was before the app
    b"\x1b[?25h"  # the cursor shown
)
"""What the app leaves its terminal in, undone: the modes a full-screen app turns on. The app
undoes them itself when it ends by its own will; an app ended by a signal, maybe in the middle
of a frame, cannot, and the guest's own terminal would stay in them after `ssh` has gone (frozen
by synchronized output, mouse reports typed as text): the door sends this in its place."""


def set_window_size(fd: int, cols: int, rows: int) -> None:
    size = struct.pack("HHHH", max(1, min(rows, 1000)), max(1, min(cols, 1000)), 0, 0)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, size)


class GuestProcess:
    """A child process on a fresh PTY, its output handed to `on_output` as it comes."""

    def __init__(
        self,
        argv: Sequence[str],
        env: Mapping[str, str],
        cwd: Path,
        cols: int,
        rows: int,
        on_output: Callable[[bytes], None],
    ) -> None:
        self.argv = list(argv)
        self.env = dict(env)
        self.cwd = cwd
        self.size = (cols, rows)
        self.on_output = on_output
        self.process: asyncio.subprocess.Process | None = None
        self._master = -1
        self._pending = bytearray()
        self._reading = False
        self._eof = asyncio.Event()

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    async def start(self) -> None:
        master, slave = os.openpty()
        try:
            set_window_size(slave, *self.size)
            self.process = await asyncio.create_subprocess_exec(
                *self.argv,
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=self.env,
                cwd=self.cwd,
                start_new_session=True,
            )
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        os.set_blocking(master, False)
        self._master = master
        self.resume_output()

    # -- output: child -> guest ---------------------------------------------------------------------

    def pause_output(self) -> None:
        """The guest's channel is full: stop reading, so the child waits on its own terminal."""
        if self._reading and self._master >= 0:
            asyncio.get_running_loop().remove_reader(self._master)
        self._reading = False

    def resume_output(self) -> None:
        if not self._reading and self._master >= 0 and not self._eof.is_set():
            asyncio.get_running_loop().add_reader(self._master, self._readable)
            self._reading = True

    def _readable(self) -> None:
        try:
            data = os.read(self._master, READ_SIZE)
        except BlockingIOError:
            return
        except OSError as exc:  # EIO: every holder of the terminal's other side has gone
            if exc.errno not in (errno.EIO, errno.EBADF):
                raise
            data = b""
        if not data:
            self.pause_output()
            self._eof.set()
            return
        self.on_output(data)

    # -- input: guest -> child ----------------------------------------------------------------------

    def write(self, data: bytes) -> None:
        if self._master < 0:
            return
        if len(self._pending) + len(data) > INPUT_LIMIT:
            data = data[: max(0, INPUT_LIMIT - len(self._pending))]
        had_pending = bool(self._pending)
        self._pending += data
        if not had_pending:
            self._flush_input()

    def _flush_input(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._pending:
                written = os.write(self._master, self._pending)
                del self._pending[:written]
        except BlockingIOError:
            loop.add_writer(self._master, self._flush_input)
            return
        except OSError:
            self._pending.clear()
        with contextlib.suppress(ValueError, OSError):
            loop.remove_writer(self._master)

    def resize(self, cols: int, rows: int) -> None:
        """The guest's window changed: tell the terminal, then the app (its SIGWINCH handler
        reads the new size)."""
        self.size = (cols, rows)
        if self._master < 0:
            return
        with contextlib.suppress(OSError):
            set_window_size(self._master, cols, rows)
        self._signal(signal.SIGWINCH)

    # -- the end --------------------------------------------------------------------------------------

    def _signal(self, sig: signal.Signals) -> None:
        process = self.process
        if process is None or process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, sig)

    async def wait(self) -> int:
        """The child's exit status once it has ended and its last output is handed on
        (128 + N when a signal N ended it, as a shell would say)."""
        assert self.process is not None
        code = await self.process.wait()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._eof.wait(), 1.0)
        self._close()
        return code if code >= 0 else 128 - code

    async def hang_up(self, grace: float = 3.0) -> None:
        """End the child: SIGHUP, then SIGKILL if it is still there after `grace` seconds."""
        process = self.process
        if process is not None and process.returncode is None:
            self._signal(signal.SIGHUP)
            try:
                await asyncio.wait_for(process.wait(), grace)
            except TimeoutError:
                self._signal(signal.SIGKILL)
                await process.wait()
        if process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)  # anything it left in its group
        self._close()

    def _close(self) -> None:
        if self._master < 0:
            return
        loop = asyncio.get_running_loop()
        self.pause_output()
        with contextlib.suppress(ValueError, OSError):
            loop.remove_writer(self._master)
        os.close(self._master)
        self._master = -1
        self._pending.clear()
