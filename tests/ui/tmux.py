"""Real terminals for end-to-end tests: each `netcards` in its own tmux session, driven with
`send-keys` (several keys in one call arrive in one burst, as when people type fast or over SSH)
and read back with `capture-pane`, exactly as a person would see the screen."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

NETCARDS = f"{sys.executable} -c 'from ui.cli import main; main()'"
BORDERS = str.maketrans(dict.fromkeys("█▌▐│┃", " "))


class Tmux:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.socket = str(folder / "tmux.sock")

    def run(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-S", self.socket, *args], capture_output=True, text=True, check=True
        )
        return done.stdout

    def window(
        self,
        name: str,
        home: Path,
        command: str,
        *,
        size: tuple[int, int] = (80, 24),
        env: dict[str, str] | None = None,
    ) -> None:
        """Run `netcards ...` (`command`) in a terminal of `size` with its own config and data
        folders, discovery on loopback, and `env` on top (TERM, LANG, NO_COLOR...)."""
        variables = {
            "NETCARDS_CONFIG_DIR": str(home),
            "NETCARDS_DATA_DIR": str(home),
            "NETCARDS_DISCOVERY_TARGET": "127.0.0.1",
            "TERM": "xterm-256color",
            "LANG": "C.UTF-8",
            **{k: v for k, v in os.environ.items() if k == "NETCARDS_DISCOVERY_PORT"},
            **(env or {}),
        }
        assignments = " ".join(f"{k}={shlex.quote(v)}" for k, v in variables.items())
        pid_file = self.folder / f"{name}.pid"
        inner = f"echo $$ > {shlex.quote(str(pid_file))}; exec env -u LC_ALL -u COLUMNS -u LINES {assignments} {command}"
        shell = f"sh -c {shlex.quote(inner)}; sleep 60"
        width, height = size
        self.run("new-session", "-d", "-s", name, "-x", str(width), "-y", str(height), shell)

    def pid(self, name: str) -> int:
        """The process id of the `netcards` running in `name`."""
        path = self.folder / f"{name}.pid"
        deadline = time.monotonic() + 10
        while not path.exists() or not path.read_text().strip():
            assert time.monotonic() < deadline, f"{name} never started"
            time.sleep(0.05)
        return int(path.read_text())

    def kill(self, name: str) -> None:
        """SIGKILL: the program dies without a word, as in a crash."""
        os.kill(self.pid(name), signal.SIGKILL)

    def keys(self, name: str, *keys: str) -> None:
        """Key names (Enter, Escape, C-q...) and text, all in one burst."""
        self.run("send-keys", "-t", f"{name}:", *keys)

    def screen(self, name: str) -> str:
        return self.run("capture-pane", "-p", "-t", f"{name}:")

    def wait_for(self, name: str, text: str, seconds: float = 30) -> str:
        """The screen once `text` shows on it (its words may be wrapped inside a box)."""
        wanted = " ".join(text.split())
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            screen = self.screen(name)
            if wanted in " ".join(screen.translate(BORDERS).split()):
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never showed in {name}:\n{self.screen(name)}")

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], check=False)
