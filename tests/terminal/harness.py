"""The real `netcards` program in a real pseudo-terminal, its screen drawn by a terminal
emulator (pyte), driven by keys sent in bursts as a person over SSH sends them.

A burst is one write of several keys: the program reads them all at once, so any key that
acts before the keys typed ahead of it have is caught. Waiting is for text on the screen,
with a timeout, never a fixed sleep.
"""

from __future__ import annotations

import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

import pyte

KEYS = {
    "enter": "\r",
    "space": " ",
    "tab": "\t",
    "escape": "\x1b",
    "backspace": "\x7f",
    "up": "\x1b[A",
    "down": "\x1b[B",
    "right": "\x1b[C",
    "left": "\x1b[D",
    "home": "\x1b[H",
    "end": "\x1b[F",
    "pageup": "\x1b[5~",
    "pagedown": "\x1b[6~",
    "ctrl+o": "\x0f",
    "ctrl+q": "\x11",
    "ctrl+c": "\x03",
}
"""Key names as an xterm sends them; any other string is typed as it is."""

PROGRAM = [sys.executable, "-c", "from ui.cli import main; main()"]
LEFT_OUT = ("NO_COLOR", "COLORTERM", "TEXTUAL", "TERM_PROGRAM", "NETCARDS", "COLUMNS", "LINES")
"""Variables of the test run's own terminal that the program must not inherit (COLUMNS and
LINES would override the size of the terminal it runs in: a test runner's workers set them)."""


def _own_terminal() -> None:
    """In the child: a session of its own whose controlling terminal is the pseudo-terminal
    (so a resize reaches it as SIGWINCH, as in a real terminal)."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def _set_size(fd: int, columns: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


class Terminal:
    """One terminal window running `netcards ARGS` with its own config and data folders (or
    any other `command`: `ssh` to a table's door)."""

    def __init__(
        self,
        home: Path,
        *args: str,
        size: tuple[int, int] = (80, 24),
        env: dict[str, str] | None = None,
        command: list[str] | None = None,
    ) -> None:
        columns, rows = size
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        environ = {
            k: v for k, v in os.environ.items() if not k.startswith(LEFT_OUT) and k != "TERM"
        }
        environ.update(
            TERM="xterm-256color",
            LANG="C.UTF-8",
            NETCARDS_CONFIG_DIR=str(home / "config"),
            NETCARDS_DATA_DIR=str(home / "data"),
            NETCARDS_DISCOVERY_TARGET="127.0.0.1",
        )
        environ.update(env or {})
        master, child = os.openpty()
        _set_size(child, columns, rows)
        self.process = subprocess.Popen(
            [*(PROGRAM if command is None else command), *args],
            stdin=child,
            stdout=child,
            stderr=child,
            env=environ,
            preexec_fn=_own_terminal,  # noqa: PLW1509 (tests start it from the main thread)
        )
        os.close(child)
        self.fd = master

    def __enter__(self) -> Terminal:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        os.close(self.fd)

    # -- the screen --------------------------------------------------------------------------

    def pump(self, seconds: float = 0.0) -> None:
        """Draw what the program wrote, reading for `seconds` (at least all there is now).

        Reading all the time matters: a terminal that does not read blocks the program's
        writes, and with them its event loop."""
        deadline = time.monotonic() + seconds
        while True:
            ready, _w, _x = select.select([self.fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                return
            try:
                data = os.read(self.fd, 65536)
            except OSError:  # the program is gone
                return
            if not data:
                return
            self.stream.feed(data)

    def wait_exit(self, seconds: float = 10) -> int:
        """The program's exit status once it has ended, reading what it writes meanwhile: a
        program whose last frame nobody reads blocks on the write, and never gets to the key
        that quits it."""
        deadline = time.monotonic() + seconds
        while self.process.poll() is None:
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"still running {seconds} s after the key to quit:\n{self.text}"
                )
            self.pump(0.05)
        return self.process.returncode

    @property
    def text(self) -> str:
        self.pump()
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(self, *texts: str, seconds: float = 30) -> str:
        """Until one of `texts` is on the screen; returns the screen."""
        return self.wait_until(lambda screen: any(t in screen for t in texts), seconds, texts)

    def wait_until(
        self, ready: Callable[[str], bool], seconds: float = 30, what: object = "a screen"
    ) -> str:
        deadline = time.monotonic() + seconds
        while True:
            self.pump(0.02)
            screen = self.text
            if ready(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{what!r} never showed; the screen is:\n{screen}")
            if self.process.poll() is not None:
                raise AssertionError(
                    f"netcards exited ({self.process.returncode}) waiting for {what!r}:\n{screen}"
                )

    def colours(self, row: int) -> list[str]:
        """The foreground colour of each cell of a row, as the terminal was told it, on the
        screen as last read (by `text` or `pump`): reading more here would pair one moment's
        letters with the next moment's colours."""
        line = self.screen.buffer[row]
        return [line[x].fg for x in range(self.screen.columns)]

    # -- the keyboard and the window -------------------------------------------------------

    def keys(self, *keys: str) -> None:
        """All the keys in one write: a burst."""
        os.write(self.fd, "".join(KEYS.get(k, k) for k in keys).encode())

    def resize(self, columns: int, rows: int) -> None:
        self.screen.resize(rows, columns)
        _set_size(self.fd, columns, rows)
        self.process.send_signal(signal.SIGWINCH)
