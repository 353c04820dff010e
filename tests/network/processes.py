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
from collections.abc import Callable
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


def host(
    folder: Path, *args: str, name: str = "host", env: dict[str, str] | None = None
) -> tuple[Proc, int, str]:
    """Start `netcards host --headless`; returns it once it listens, with its port and fingerprint.
    It listens on loopback only, unless `args` say where."""
    bind = () if "--bind" in args else ("--bind", "127.0.0.1")
    proc = spawn(folder, name, "host", "--headless", "--discovery-port", "0", *bind, *args, env=env)
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


def bot(folder: Path, port: int, name: str, *args: str, env: dict[str, str] | None = None) -> Proc:
    return spawn(folder, name, "bot", f"127.0.0.1:{port}", "--name", name, *args, env=env)


def own_dirs(folder: Path) -> dict[str, str]:
    """The environment of a program of another user (or another computer): config and data
    folders of its own under `folder`, so its own identity key, pins and seat tokens."""
    return {
        **os.environ,
        "NETCARDS_CONFIG_DIR": str(folder / "config"),
        "NETCARDS_DATA_DIR": str(folder / "data"),
    }


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


def free_udp_base(span: int = 8) -> int:
    """A base port with `span` free UDP ports after it, on loopback."""
    for _attempt in range(50):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.bind(("127.0.0.1", 0))
            base = probe.getsockname()[1]
        if base + span >= 65536:
            continue
        try:
            held = []
            for port in range(base, base + span):
                sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                held.append(sock)
                sock.bind(("127.0.0.1", port))
        except OSError:
            continue
        finally:
            for sock in held:
                sock.close()
        return base
    raise AssertionError("no free range of UDP ports")


class Relay:
    """A loopback TCP relay between players and the host, both ways, keeping every byte that
    passes (what anyone on the network between them would see); it listens on `port` (0: any
    free one). `tamper(connection, upstream)` may return a function that changes the bytes of
    one direction of one connection (numbered from 0 in the order they came; `upstream` is
    player to host) before they pass on. It can also `freeze`: then nothing passes either way,
    as when a player's machine goes to sleep."""

    def __init__(
        self,
        target_port: int,
        tamper: Callable[[int, bool], Callable[[bytes], bytes] | None] | None = None,
        *,
        port: int = 0,
    ) -> None:
        import threading

        self.thawed = threading.Event()
        self.thawed.set()
        self.target = target_port
        self.tamper = tamper
        self.listener = socket.create_server(("127.0.0.1", port))
        self.port = int(self.listener.getsockname()[1])
        self.captured = bytearray()
        self.flows: dict[tuple[int, bool], bytearray] = {}
        """What passed on each connection one way: `flows[connection, upstream]`."""
        self.lock = threading.Lock()
        self.threads: list[threading.Thread] = []
        self.running = True
        self.connections = 0
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
            number, self.connections = self.connections, self.connections + 1
            for a, b, up in ((client, upstream, True), (upstream, client, False)):
                change = self.tamper(number, up) if self.tamper else None
                flow = self.flows.setdefault((number, up), bytearray())
                t = threading.Thread(target=self._pipe, args=(a, b, change, flow), daemon=True)
                t.start()
                self.threads.append(t)

    def _pipe(
        self,
        src: socket.socket,
        dst: socket.socket,
        change: Callable[[bytes], bytes] | None,
        flow: bytearray,
    ) -> None:
        try:
            while data := src.recv(65536):
                self.thawed.wait()
                with self.lock:
                    self.captured += data
                    flow += data
                dst.sendall(change(data) if change else data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def freeze(self) -> None:
        self.thawed.clear()

    def close(self) -> None:
        self.running = False
        self.listener.close()


def tamper_with_frame(index: int, how: str = "flip") -> Callable[[bytes], bytes]:
    """Bytes of one direction passed on frame by frame, whole, except frame `index` (0 is the
    first frame): `flip` one bit of its last byte (damaged on the wire), `replay` it (sent
    twice), `drop` it, or `swap` it with the next one (reordered)."""
    seen = bytearray()
    state = {"frame": 0, "at": 0}  # the frame that starts at offset `at` of `seen`
    held: list[bytes] = []  # a frame kept back to be sent after the next one

    def change(data: bytes) -> bytes:
        seen.extend(data)
        out = bytearray()
        while len(seen) >= state["at"] + 4:
            length = int.from_bytes(seen[state["at"] : state["at"] + 4], "big")
            end = state["at"] + 4 + length
            if len(seen) < end:
                break
            frame = bytearray(seen[state["at"] : end])
            if state["frame"] == index:
                if how == "flip":
                    frame[-1] ^= 0x01
                elif how == "replay":
                    out += frame
                elif how == "drop":
                    frame.clear()
                elif how == "swap":
                    held.append(bytes(frame))
                    frame.clear()
            out += frame
            if held and state["frame"] == index + 1:
                out += held.pop()
            state["frame"] += 1
            state["at"] = end
        return bytes(out)

    return change
