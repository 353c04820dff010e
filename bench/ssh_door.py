"""The SSH door's cost: key press to screen update through the door against a direct
`netcards join` in the same run, the time from `ssh` to the lobby, and memory per guest.

A headless host process opens a table of five seats and its SSH door. This process plays the
terminals: four guests come through the door (asyncssh clients with a PTY of 80x24, whose output
a terminal emulator renders), and one player runs `netcards join` directly on a PTY of its own.
Everyone gets ready, and nobody plays: the only output after a key is that key's own redraw.
Both terminals answer Textual's query for synchronized output, so each update ends with a
marker, and a key's time is from the write of the key to the end of its update. The keys move
the cursor over the hand (right, left, right...): all in the app, no message to the table.

    python -m bench.ssh_door [--samples 200]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncssh
import pyte

from protocol.identity import ssh_public_line
from protocol.known_hosts import KnownHosts

LISTENING = re.compile(r"listening \S+:(\d+) fingerprint")
SSH_LINE = re.compile(r"^ssh \S+:(\d+) fingerprint (SHA256:\S+)$", re.M)
ASKS_SYNC = b"\x1b[?2026$p"
SUPPORTS_SYNC = b"\x1b[?2026;2$y"
SYNC_END = b"\x1b[?2026l"
RIGHT, LEFT = b"\x1b[C", b"\x1b[D"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found += [int(c) for c in text]
    return found


class Screen:
    """A terminal: renders output, answers the synchronized-output query, times updates."""

    def __init__(self, answer: Callable[[bytes], None]) -> None:
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.answer = answer
        self.updated = asyncio.Event()

    def output(self, data: bytes) -> None:
        if ASKS_SYNC in data:
            self.answer(SUPPORTS_SYNC)
        if SYNC_END in data:
            self.updated.set()
        self.stream.feed(data)

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def wait_for(self, pattern: str, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while not re.search(pattern, self.text()):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{pattern!r} never showed:\n{self.text()}")
            await asyncio.sleep(0.01)

    async def quiet(self, seconds: float = 0.3) -> None:
        """Until nothing has been drawn for `seconds` (the end of any redraw in progress)."""
        while True:
            self.updated.clear()
            try:
                await asyncio.wait_for(self.updated.wait(), seconds)
            except TimeoutError:
                return

    async def key_time(self, key: bytes, send: Callable[[bytes], None]) -> float:
        self.updated.clear()
        started = time.perf_counter()
        send(key)
        await asyncio.wait_for(self.updated.wait(), 10)
        return time.perf_counter() - started


class DoorTerminal(asyncssh.SSHClientSession[bytes]):
    def __init__(self) -> None:
        self.chan: Any = None
        self.view = Screen(self.send)

    def connection_made(self, chan: Any) -> None:
        self.chan = chan

    def send(self, data: bytes) -> None:
        self.chan.write(data)

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        if datatype is None:
            self.view.output(data)


async def through_door(port: int, name: str, known: Any) -> tuple[DoorTerminal, float]:
    started = time.perf_counter()
    conn = await asyncssh.connect(
        "127.0.0.1", port, username=name, known_hosts=known, client_keys=None,
        password="", agent_path=None, config=None,
    )  # fmt: skip
    term = DoorTerminal()
    await conn.create_session(
        lambda: term, term_type="xterm-256color", term_size=(80, 24),
        env={"LANG": "C.UTF-8"}, encoding=None,
    )  # fmt: skip
    await term.view.wait_for(rf"{name} \(you\)")
    return term, time.perf_counter() - started


async def direct(port: int, home: Path) -> tuple[Any, Screen, float]:
    from ui.ssh_door.guest_process import GuestProcess

    screen = Screen(lambda _data: None)
    env = {
        "PATH": os.environ.get("PATH", os.defpath), "TERM": "xterm-256color",
        "LANG": "C.UTF-8", "HOME": str(home),
        "NETCARDS_CONFIG_DIR": str(home / "config"), "NETCARDS_DATA_DIR": str(home / "data"),
        "NETCARDS_DISCOVERY_TARGET": "127.0.0.1",
    }  # fmt: skip
    argv = [sys.executable, "-c", "from ui.cli import main; main()",
            "join", f"127.0.0.1:{port}", "--name", "Direct"]  # fmt: skip
    process = GuestProcess(argv, env, home, 80, 24, screen.output)
    screen.answer = process.write
    started = time.perf_counter()
    await process.start()
    await screen.wait_for(r"Direct \(you\)")
    return process, screen, time.perf_counter() - started


async def main(samples: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="netcards-door-bench-"))
    env = dict(os.environ, NETCARDS_CONFIG_DIR=str(folder / "host"),
               NETCARDS_DATA_DIR=str(folder / "host"), NETCARDS_DISCOVERY_TARGET="127.0.0.1")  # fmt: skip
    err = (folder / "host.err").open("w")
    host = subprocess.Popen(
        [sys.executable, "-c", "from ui.cli import main; main()", "host", "--headless",
         "--game", "via-gladiola", "--players", "5", "--port", "0", "--discovery-port", "0",
         "--ssh", "0", "--grace", "600"],
        stdout=subprocess.PIPE, stderr=err, text=True, env=env,
    )  # fmt: skip
    assert host.stdout is not None
    try:
        first = host.stdout.readline()
        second = host.stdout.readline()
        port_match, ssh_match = LISTENING.search(first), SSH_LINE.search(second)
        assert port_match and ssh_match, first + second
        port, ssh_port = int(port_match.group(1)), int(ssh_match.group(1))
        from protocol.identity import IdentityKey

        identity = IdentityKey.load((folder / "host" / "host_key").read_text())
        known = asyncssh.import_known_hosts(
            f"[127.0.0.1]:{ssh_port} {ssh_public_line(identity.public_key)}\n"
        )
        home = folder / "direct"
        KnownHosts(home / "config" / "known_hosts").remember(
            f"127.0.0.1:{port}", identity.public_key
        )
        base_rss = rss_mib(host.pid)
        guests, starts = [], []
        for n in range(4):
            term, took = await through_door(ssh_port, f"guest{n + 1}", known)
            guests.append(term)
            starts.append(took)
        process, own, direct_start = await direct(port, home)
        per_guest = [rss_mib(pid) for pid in children(host.pid)]
        host_rss = rss_mib(host.pid)
        for term in guests:
            term.send(b"r")
        process.write(b"r")
        for view in [t.view for t in guests] + [own]:
            await view.wait_for("Your turn|Waiting for")
        door_view = guests[0].view
        for view in (door_view, own):
            await view.quiet()
        door_times, direct_times = [], []
        for i in range(samples):
            key = RIGHT if i % 2 == 0 else LEFT
            door_times.append(await door_view.key_time(key, guests[0].send))
            direct_times.append(await own.key_time(key, process.write))
            await asyncio.sleep(0.02)
        process.write(b"\x11")  # ctrl+q
        await process.hang_up(3)
    finally:
        host.terminate()
        try:
            host.wait(10)
        except subprocess.TimeoutExpired:
            host.kill()
            print("the host did not stop within 10 s of SIGTERM", file=sys.stderr)
        err.close()
        shutil.rmtree(folder, ignore_errors=True)

    def ms(values: list[float], p: float) -> str:
        return f"{1000 * percentile(values, p):6.2f}"

    print(f"key press -> screen update, {samples} keys each, one run:")
    print(f"  through the SSH door   p50 {ms(door_times, 50)} ms   p99 {ms(door_times, 99)} ms")
    print(f"  direct netcards join   p50 {ms(direct_times, 50)} ms   p99 {ms(direct_times, 99)} ms")
    added = statistics.median(door_times) - statistics.median(direct_times)
    print(f"  the door adds          p50 {1000 * added:6.2f} ms")
    print("start to the lobby:")
    print(f"  through the door: {', '.join(f'{s:.2f}' for s in starts)} s (ssh login included)")
    print(f"  direct join:      {direct_start:.2f} s")
    print("memory (RSS):")
    print(f"  host before guests {base_rss:.0f} MiB, with 4 guests {host_rss:.0f} MiB")
    print(f"  per guest app: {', '.join(f'{r:.0f}' for r in per_guest)} MiB")
    print(f"  host + 4 guests in all: {host_rss + sum(per_guest):.0f} MiB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=200)
    asyncio.run(main(parser.parse_args().samples))
