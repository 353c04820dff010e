"""Real `netcards` processes on loopback, for the end-to-end network tests."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

NETCARDS = [sys.executable, "-c", "from ui.cli import main; main()"]
LISTENING = re.compile(r"^listening (\S+):(\d+) fingerprint (\S+)$", re.M)


@dataclass
class Proc:
    name: str
    popen: subprocess.Popen[bytes]
    out: Path
    err: Path

    def stdout(self) -> str:
        return self.out.read_text(errors="replace")

    def stderr(self) -> str:
        return self.err.read_text(errors="replace")

    def wait(self, timeout: float = 120) -> int:
        try:
            return self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()
            raise AssertionError(
                f"{self.name} did not finish in {timeout} s\n--- stdout\n{self.stdout()}"
                f"\n--- stderr\n{self.stderr()}"
            ) from None

    def kill(self) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGKILL)
            self.popen.wait()

    def result(self) -> dict[str, Any]:
        lines = [ln for ln in self.stdout().splitlines() if ln.startswith("result ")]
        assert len(lines) == 1, f"{self.name} printed {len(lines)} result lines:\n{self.stdout()}"
        return json.loads(lines[0].removeprefix("result "))  # type: ignore[no-any-return]


def spawn(folder: Path, name: str, *args: str, env: dict[str, str] | None = None) -> Proc:
    out, err = folder / f"{name}.out", folder / f"{name}.err"
    with out.open("ab") as o, err.open("ab") as e:
        popen = subprocess.Popen(
            [*NETCARDS, *args], stdout=o, stderr=e, env=dict(os.environ) if env is None else env
        )
    return Proc(name, popen, out, err)


def host(folder: Path, *args: str, name: str = "host") -> tuple[Proc, int, str]:
    """Start `netcards host --headless`; returns it once it listens, with its port and fingerprint."""
    proc = spawn(folder, name, "host", "--headless", "--discovery-port", "0", *args)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        match = LISTENING.search(proc.stdout())
        if match:
            return proc, int(match.group(2)), match.group(3)
        if proc.popen.poll() is not None:
            break
        time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"the host did not start:\n{proc.stdout()}\n{proc.stderr()}")


def bot(folder: Path, port: int, name: str, *args: str) -> Proc:
    return spawn(folder, name, "bot", f"127.0.0.1:{port}", "--name", name, *args)


def wait_for(predicate: Any, timeout: float = 60, what: str = "a condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def read_trace(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            break  # a line cut short by a kill
    return out


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Recorder:
    """A loopback TCP relay that keeps every byte passing through, both ways: the capture of
    what anyone on the network between the players and the host would see."""

    def __init__(self, target_port: int) -> None:
        import threading

        self.target = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.captured = bytearray()
        self.lock = threading.Lock()
        self.threads: list[threading.Thread] = []
        self.running = True
        accept = threading.Thread(target=self._accept, daemon=True)
        accept.start()

    def _accept(self) -> None:
        import threading

        while self.running:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target))
            for a, b in ((client, upstream), (upstream, client)):
                t = threading.Thread(target=self._pipe, args=(a, b), daemon=True)
                t.start()
                self.threads.append(t)

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                with self.lock:
                    self.captured += data
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.running = False
        self.listener.close()
