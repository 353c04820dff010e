"""How fast can a stranger guess a table's password online? A host on loopback with a password,
and an attacker that precomputes the key of each guess for every salt it sees (so a guess costs
it nothing but the connection, unless the salt is fresh), guessing as fast as the host lets it
from one address for a while.

Run: .venv/bin/python -m bench.guessing [--seconds N] [--no-throttle]

`--no-throttle` gives the host a throttle so lax that it never acts: the rate then shows what
the salt alone costs the attacker (and the host).

`--refused [--against DIR] [--terminal]` measures what the host pays for an address it already
refuses (too many wrong passwords lately): the host runs in a process of its own (with `DIR`'s
code beside this checkout's, when given) and logs to its stderr as a headless host does, a file
here (`--terminal`: a pseudo-terminal read as fast as it is written), while connections from
that address come as fast as a few loops can open them. It prints the host's CPU time per
refused connection and the bytes and lines its log took.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import pty
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import protocol.client_connection
from netcards.table import Table
from protocol.crypto import stretch_password
from protocol.errors import PeerError, WrongPassword
from protocol.host import TableHost
from protocol.identity import IdentityKey
from protocol.throttle import FailureThrottle

HERE = Path(__file__).resolve().parent.parent

REFUSING_HOST = """
import asyncio, json, os, sys, time
from netcards.table import Table
from protocol.host import TableHost
from protocol.identity import IdentityKey
from protocol.throttle import FailureThrottle


def log(line):
    sys.stderr.write(f"host: {line}\\n")  # as a headless host logs
    sys.stderr.flush()


async def main():
    throttle = FailureThrottle()
    for _ in range(throttle.refuse_after):  # 127.0.0.1 is refused for the next ten minutes
        throttle.failure("127.0.0.1", time.monotonic())
    table = Table.create("via-gladiola", 2, {}, name="bench", host_part=os.urandom(32))
    identity = IdentityKey.generate(os.urandom)
    host = TableHost(table, identity, password="the right one", throttle=throttle, log=log)
    port = await host.start()
    started = time.process_time()
    print(port, flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    spent = time.process_time() - started
    await host.close()
    print(json.dumps({"cpu": spent}))


asyncio.run(main())
"""


async def knock(port: int, until: float) -> int:
    """Open connections one after another until `until`; each is refused. How many were."""
    n = 0
    while time.perf_counter() < until:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        await reader.read()  # the refusal, then the host hangs up
        writer.close()
        n += 1
    return n


class Terminal:
    """A pseudo-terminal for the host's stderr, read as fast as it writes (as a terminal
    window would): what it wrote is `written`."""

    def __init__(self) -> None:
        self.reading, self.slave = pty.openpty()
        self.written = bytearray()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        with contextlib.suppress(OSError):
            while chunk := os.read(self.reading, 65536):
                self.written.extend(chunk)

    def close(self) -> bytes:
        os.close(self.slave)
        self._reader.join(5)
        os.close(self.reading)
        return bytes(self.written)


def refused(tree: Path, seconds: float, loops: int, terminal: bool) -> dict[str, float]:
    """One run against a host of `tree`'s code: connections refused, host CPU, log size."""
    with tempfile.TemporaryFile() as file:
        tty = Terminal() if terminal else None
        host = subprocess.Popen(
            [sys.executable, "-P", "-c", REFUSING_HOST],
            env=dict(os.environ, PYTHONPATH=str(tree)),
            cwd=tree,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=file if tty is None else tty.slave,
            text=True,
        )
        assert host.stdin is not None and host.stdout is not None
        port = int(host.stdout.readline())

        async def attack() -> int:
            until = time.perf_counter() + seconds
            return sum(await asyncio.gather(*(knock(port, until) for _ in range(loops))))

        count = asyncio.run(attack())
        host.stdin.write("stop\n")
        host.stdin.flush()
        result = json.loads(host.stdout.read().strip().splitlines()[-1])
        host.wait()
        file.seek(0)
        log = file.read() if tty is None else tty.close()
    return {"refused": count, "cpu": result["cpu"], "bytes": len(log), "lines": log.count(b"\n")}


def refused_report(seconds: float, loops: int, against: Path | None, terminal: bool) -> None:
    trees = [HERE] if against is None else [HERE, against.resolve()]
    names = ["this checkout"] + ([f"against {against}"] if against else [])
    where = "a terminal" if terminal else "a file"
    print(
        f"an address already refused, {loops} loops connecting for {seconds:g} s, log to {where}:"
    )
    for name, tree in zip(names, trees, strict=True):
        r = refused(tree, seconds, loops, terminal)
        print(
            f"  {name}: {r['refused']:.0f} connections refused; host CPU "
            f"{r['cpu']:.2f} s, {r['cpu'] / r['refused'] * 1e6:.0f} us each; host log "
            f"{r['bytes']:.0f} bytes in {r['lines']:.0f} lines"
        )


async def attempt(port: int, guess: str) -> str:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    conn = protocol.client_connection.ClientConnection(os.urandom, password=guess)
    writer.write(conn.data_to_send())
    try:
        while conn.handshake is None:
            data = await reader.read(65536)
            conn.receive_data(data)
            while type(conn.next_event()).__name__ != "NeedData":
                pass
            writer.write(conn.data_to_send())
        return "in"
    except WrongPassword:
        return "judged"
    except PeerError as exc:
        return exc.peer_code
    finally:
        writer.close()


async def main(seconds: float, throttled: bool) -> None:
    protocol.client_connection.stretch_password = functools.cache(stretch_password)  # type: ignore[attr-defined]
    lax = FailureThrottle(free=10**9, refuse_after=10**9 + 1)
    table = Table.create("via-gladiola", 2, {}, name="bench", host_part=os.urandom(32))
    host = TableHost(
        table,
        IdentityKey.generate(os.urandom),
        password="the right one",
        throttle=None if throttled else lax,
    )
    port = await host.start()
    outcomes: Counter[str] = Counter()
    start = time.perf_counter()
    n = 0
    while time.perf_counter() - start < seconds:
        outcomes[await attempt(port, f"guess {n % 10}")] += 1
        n += 1
    spent = time.perf_counter() - start
    await host.close()
    print(
        f"throttle {'on' if throttled else 'off'}: {n} attempts in {spent:.1f} s from one address"
    )
    print(f"  guesses judged:  {outcomes['judged']:>6}  ({outcomes['judged'] / spent:.2f}/s)")
    print(f"  turned away:     {outcomes['throttled']:>6}  (told to wait, no guess judged)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--no-throttle", action="store_true")
    parser.add_argument("--refused", action="store_true", help="the cost of refused connections")
    parser.add_argument("--loops", type=int, default=4, help="--refused: connecting loops")
    parser.add_argument("--against", type=Path, help="--refused: another checkout beside this one")
    parser.add_argument("--terminal", action="store_true", help="--refused: log to a terminal")
    args = parser.parse_args()
    if args.refused:
        refused_report(args.seconds, args.loops, args.against, args.terminal)
    else:
        asyncio.run(main(args.seconds, not args.no_throttle))
