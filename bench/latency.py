"""Loopback latency: from a player's action to every seat having the resulting update.

A headless host process runs a table whose seats are all remote clients; a process of its own
runs five bot-driven player clients on one event loop, and another the spectators. For every
action we time the moment the acting client sends it until the last of the five seats has
decoded the update it caused.

The same measure runs with the host's journal on the disk and in memory (a memory file system,
`/dev/shm`), in fresh processes taking turns, so that what the disk costs the table shows in
the same sitting: the host syncs its journal a few milliseconds after each burst of actions,
and a sync that held up the event loop would show here as a p99 far above the memory one.
`--against DIR` runs the same measure with the code of another checkout (the players', the
spectators' and the host's), in turns with this one, as `bench/sidebyside.py` does for the
other benchmarks. Each figure is printed as the best of the runs and their spread.

Beside them, measured once at the end with this checkout's code, two floors:

- a bare msgpack echo over loopback TCP with the same payload sizes: what any protocol on this
  machine pays for one message there and back;
- the protocol's own shape with nothing else in it: an action sealed to a host process, which
  seals one msgpack update to each of the five seats (their own ChaCha20-Poly1305 keys), all
  read and opened on one event loop here. No game, no journal, no checks, raw asyncio
  protocols: what five encrypted seats cost in Python before the table does anything.

    python -m bench.latency [--games 10] [--runs 3] [--spectators 0,20] [--against DIR]
                            [--journal disk,memory] [--disk-dir D] [--memory-dir D] [--no-floors]
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgpack
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

SCRIPT = str(Path(__file__).resolve())
HERE = Path(SCRIPT).parent.parent
"""This checkout (the folder that holds `bench/`)."""
LISTENING = re.compile(r"listening \S+:(\d+) fingerprint")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def cpu_seconds(pid: int) -> float | None:
    """The CPU time process `pid` has used so far, all its threads (Linux's schedstat, in
    nanoseconds), or None where it cannot be read."""
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
        return sum(int((t / "schedstat").read_text().split()[0]) for t in tasks) / 1e9
    except (OSError, ValueError, IndexError):
        return None


def file_system(folder: Path) -> str:
    """The type of the file system `folder` is on (Linux's /proc/mounts), or '?'."""
    try:
        mounts = Path("/proc/mounts").read_text().splitlines()
    except OSError:
        return "?"
    best, kind = "", "?"
    where = str(folder.resolve())
    for line in mounts:
        parts = line.split()
        if len(parts) < 3:
            continue
        mount = parts[1]
        inside = where == mount or where.startswith(mount.rstrip("/") + "/")
        if inside and len(mount) >= len(best):
            best, kind = mount, parts[2]
    return kind


async def echo_floor(samples: int, size: int) -> list[float]:
    """Round trips of a `size`-byte msgpack message through a loopback echo server process."""
    code = (
        "import socket\n"
        "s = socket.create_server(('127.0.0.1', 0)); print(s.getsockname()[1], flush=True)\n"
        "c, _ = s.accept()\n"
        "while d := c.recv(1 << 20): c.sendall(d)\n"
    )
    server = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    port = int(server.stdout.readline())
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    payload = msgpack.packb({"type": "update", "view": {"blob": b"x" * size}})
    frame = len(payload).to_bytes(4, "big") + payload
    times = []
    for _ in range(samples):
        started = time.perf_counter()
        writer.write(frame)
        await writer.drain()
        header = await reader.readexactly(4)
        msgpack.unpackb(await reader.readexactly(int.from_bytes(header, "big")))
        times.append(time.perf_counter() - started)
    writer.close()
    server.kill()
    return times


FLOOR_VIEW = {
    "hand": [[value, value % 5] for value in range(3, 40, 5)],
    "walk": [[value, value % 3] for value in range(0, 36, 3)],
    "hands": [8, 8, 8, 8, 8],
    "pile": 30,
    "day": 2,
    "turn": 1,
}
"""About the size of a Via Gladiola update (350-400 bytes packed)."""


def floor_keys(seat: int) -> tuple[ChaCha20Poly1305, ChaCha20Poly1305]:
    """A seat's (to the host, to the seat) keys in the sealed floor; any fixed keys do."""
    return ChaCha20Poly1305(bytes([seat]) * 32), ChaCha20Poly1305(bytes([seat + 128]) * 32)


class FloorLink(asyncio.Protocol):
    """One end of a floor connection: frames in, each body opened with the next nonce."""

    def __init__(self, seat: int, sealer: ChaCha20Poly1305, opener: ChaCha20Poly1305) -> None:
        self.seat, self.sealer, self.opener = seat, sealer, opener
        self.sent = self.read = 0
        self.buffer = bytearray()
        self.transport: Any = None
        self.on_message: Any = None

    def connection_made(self, transport: Any) -> None:
        self.transport = transport

    def send(self, message: Any) -> None:
        body = self.sealer.encrypt(self.sent.to_bytes(12, "little"), msgpack.packb(message), None)
        self.sent += 1
        self.transport.write(len(body).to_bytes(4, "big") + body)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while len(self.buffer) >= 4:
            size = int.from_bytes(self.buffer[:4], "big")
            if len(self.buffer) < 4 + size:
                return
            body = bytes(self.buffer[4 : 4 + size])
            del self.buffer[: 4 + size]
            nonce = self.read.to_bytes(12, "little")
            self.read += 1
            self.on_message(self, msgpack.unpackb(self.opener.decrypt(nonce, body, None)))


def floor_host() -> None:
    """The floor's host process: every action it opens becomes one sealed update per seat."""
    links: list[FloorLink] = []

    def fan_out(_link: FloorLink, action: Any) -> None:
        for link in links:
            link.send({"type": "update", "seq": action["seq"], "seat": link.seat, **FLOOR_VIEW})

    def accept() -> FloorLink:
        to_host, to_seat = floor_keys(len(links))
        link = FloorLink(len(links), to_seat, to_host)
        link.on_message = fan_out
        links.append(link)
        return link

    async def serve() -> None:
        server = await asyncio.get_running_loop().create_server(accept, "127.0.0.1", 0)
        print(server.sockets[0].getsockname()[1], flush=True)
        await asyncio.Event().wait()

    asyncio.run(serve())


async def sealed_floor(samples: int, seats: int) -> list[float]:
    """Round trips from an action sealed to the floor host until every seat has opened and
    unpacked its update; the seats act in turn, each as soon as the last update is read."""
    server = subprocess.Popen(
        [sys.executable, "-P", SCRIPT, "--floor-host"],
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(HERE)),
    )
    assert server.stdout is not None
    port = int(server.stdout.readline())
    loop = asyncio.get_running_loop()
    times: list[float] = []
    got: dict[int, int] = {}
    started = [0.0]
    finished = asyncio.Event()
    links: list[FloorLink] = []

    def act(seq: int) -> None:
        started[0] = time.perf_counter()
        links[seq % seats].send({"type": "act", "seq": seq, "action": {"walk": 12}})

    def on_update(_link: FloorLink, update: Any) -> None:
        seq = update["seq"]
        got[seq] = got.get(seq, 0) + 1
        if got[seq] < seats:
            return
        del got[seq]
        times.append(time.perf_counter() - started[0])
        if len(times) < samples:
            act(seq + 1)
        else:
            finished.set()

    for seat in range(seats):
        to_host, to_seat = floor_keys(seat)
        link = FloorLink(seat, to_host, to_seat)
        link.on_message = on_update
        links.append(link)
        await loop.create_connection(lambda: links[-1], "127.0.0.1", port)
        await asyncio.sleep(0.01)  # the host numbers the seats in the order they connect
    act(0)
    await asyncio.wait_for(finished.wait(), 60)
    server.kill()
    return times


async def one_game(
    game: str, players: int, spectators: int, home: Path, cpu: dict[str, float]
) -> tuple[list[float], list[float]]:
    """Every action's latency, and apart the game-end action's (it is among them too). The
    players' programs run until their deal is checked before the host goes: none is left
    reconnecting to it during the next game. Adds to `cpu` the CPU seconds the host's process
    and this one used from the first action sent to the last update read (the work of the
    game's actions, with neither the deal nor the end-of-game check)."""
    # The checkout's own code (see --against), imported here for that reason.
    from protocol.client import GameStarted, SeatTaken, TableClient, ViewChanged
    from protocol.known_hosts import KnownHosts

    try:
        from netcards.bots.registry import make_bot
    except ImportError:  # an older checkout kept it beside the bots' base class
        from netcards.bots.base import make_bot  # type: ignore[attr-defined,no-redef]

    host = subprocess.Popen(
        [sys.executable, "-P", "-c", "from ui.cli import main; main()", "host", "--headless",
         "--game", game, "--players", str(players), "--port", "0", "--discovery-port", "0",
         "--journal", str(home / "journals" / f"{time.time_ns()}.journal")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    assert host.stdout is not None
    match = LISTENING.search(host.stdout.readline())
    assert match, "the host did not start"
    address = f"127.0.0.1:{match.group(1)}"
    hosts = KnownHosts(home / "known_hosts")
    sent: dict[int, float] = {}
    seen: dict[int, int] = {}
    latencies: list[float] = []
    ends: list[float] = []
    done = asyncio.Event()
    clients: list[Any] = []
    marks: dict[str, tuple[float | None, float]] = {}

    def at(mark: str) -> None:
        marks[mark] = (cpu_seconds(host.pid), time.process_time())

    async def player(name: str) -> None:
        client = TableClient(address, name, hosts)
        clients.append(client)
        runner = asyncio.create_task(client.run())
        bot: Any = None
        while not done.is_set():
            notice = await client.updates.get()
            if isinstance(notice, SeatTaken):
                await client.set_ready(True)
            elif isinstance(notice, GameStarted) and notice.seat is not None:
                assert client.game is not None
                bot = make_bot("random", client.game, notice.config, notice.seat, os.urandom(32))
            elif isinstance(notice, ViewChanged):
                seq = client.seq
                over = bool((client.view or {}).get("over"))
                if notice.events:
                    seen[seq] = seen.get(seq, 0) + 1
                    if seen[seq] == players and seq in sent:
                        latencies.append(time.perf_counter() - sent.pop(seq))
                        if over:  # the game-end action, with its results and audit
                            ends.append(latencies[-1])
                if over:
                    if seen.get(seq) == players and not done.is_set():
                        done.set()
                        at("end")
                elif bot is not None and client.my_turn and client.view is not None:
                    action = bot.choose(client.view, client.legal_actions())
                    if not sent and not latencies:
                        at("start")
                    sent[client.seq + 1] = time.perf_counter()
                    await client.act(action)
        try:
            await asyncio.wait_for(runner, 30)  # its audit, then it ends by itself
        except (TimeoutError, asyncio.CancelledError):
            runner.cancel()

    # The spectators live in a process of their own, as on a real network, and are all seated
    # before the players sit down, so that their handshakes are not part of the measure.
    watchers = subprocess.Popen(
        [sys.executable, "-P", SCRIPT, "--watch", address, "--spectators", str(spectators)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert watchers.stdout is not None
    assert watchers.stdout.readline().strip() == "watching"
    tasks = [asyncio.create_task(player(f"P{i}")) for i in range(players)]
    await asyncio.wait_for(done.wait(), 300)
    await asyncio.wait(tasks, timeout=60)
    for task in tasks:
        task.cancel()
    host.kill()
    watchers.kill()
    host.wait()
    watchers.wait()
    (host_start, here_start), (host_end, here_end) = marks["start"], marks["end"]
    cpu["players"] = cpu.get("players", 0.0) + here_end - here_start
    if host_start is not None and host_end is not None:
        cpu["host"] = cpu.get("host", 0.0) + host_end - host_start
    return latencies, ends


SOURCE: contextvars.ContextVar[str] = contextvars.ContextVar("source", default="127.0.0.1")
"""The loopback address a spectator's connection comes from (its task's own copy)."""
SPECTATORS_PER_ADDRESS = 4
"""As many as a host takes from one address: the spectators come from several machines."""


async def watch(address: str, spectators: int) -> None:
    """The spectators' process: join, say so on stdout, then follow the game until killed.

    A host takes only a few spectators from one address, so they come from 127.0.0.2, .3 and
    so on, a few each, as from the machines of a real network (all of 127/8 is loopback)."""
    from protocol.client import TableClient
    from protocol.known_hosts import KnownHosts

    open_connection = asyncio.open_connection

    async def from_source(*args: Any, **kwargs: Any) -> Any:
        return await open_connection(*args, local_addr=(SOURCE.get(), 0), **kwargs)

    asyncio.open_connection = from_source
    hosts = KnownHosts(Path(os.environ.get("NETCARDS_CONFIG_DIR", ".")) / "watch_hosts")
    clients = [TableClient(address, f"S{i}", hosts, spectator=True) for i in range(spectators)]
    runners = []
    for i, client in enumerate(clients):
        SOURCE.set(f"127.0.0.{2 + i // SPECTATORS_PER_ADDRESS}")
        runners.append(asyncio.create_task(client.run()))  # the task keeps its source
    while any(c.lobby is None for c in clients):
        await asyncio.sleep(0.01)
    print("watching", flush=True)
    await asyncio.gather(*runners)


async def one_run(args: argparse.Namespace) -> None:
    """One run (a process of its own, this checkout's code or another's): `--games` games
    with the journal in `--run-in`; prints one JSON line of figures."""
    with tempfile.TemporaryDirectory(dir=args.run_in) as tmp:
        home = Path(tmp)
        os.environ["NETCARDS_CONFIG_DIR"] = str(home / "config")
        os.environ["NETCARDS_DATA_DIR"] = str(home / "data")
        latencies: list[float] = []
        ends: list[float] = []
        cpu: dict[str, float] = {}
        for _ in range(args.games):
            game_latencies, game_ends = await one_game(
                args.game, args.players, args.spectators, home, cpu
            )
            latencies += game_latencies
            ends += game_ends
    ms = 1000.0
    print(
        json.dumps(
            {
                "actions": len(latencies),
                "p50": percentile(latencies, 50) * ms,
                "p99": percentile(latencies, 99) * ms,
                "mean": statistics.fmean(latencies) * ms,
                "max": max(latencies) * ms,
                "ends_p99": percentile(ends, 99) * ms if ends else 0.0,
                "host_cpu_us": cpu.get("host", 0.0) / len(latencies) * 1e6,
                "players_cpu_us": cpu["players"] / len(latencies) * 1e6,
            }
        )
    )


def run(tree: Path, args: argparse.Namespace, spectators: int, folder: Path) -> dict[str, float]:
    """One run in a fresh process with `tree`'s code and the journal in `folder`."""
    command = [
        sys.executable, "-P", SCRIPT, "--one-run", "--run-in", str(folder), "--game", args.game,
        "--players", str(args.players), "--spectators", str(spectators),
        "--games", str(args.games),
    ]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run(command, env=env, cwd=tree, check=True, capture_output=True, text=True)
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def spread(values: list[float]) -> str:
    return f"{min(values):.3f} ({min(values):.3f}-{max(values):.3f})"


def side_by_side(args: argparse.Namespace) -> None:
    trees = [HERE] if args.against is None else [HERE, args.against.resolve()]
    names = ["this"] + (["against"] if args.against is not None else [])
    folders = {"disk": args.disk_dir, "memory": args.memory_dir}
    places = [p for p in args.journal.split(",") if p]
    cases = [int(n) for n in args.spectators.split(",")]
    print(f"{args.game}: {args.players} bot-driven seats, {args.games} games a run, "
          f"{args.runs} runs of each, in turns")  # fmt: skip
    for place in places:
        print(f"  journal {place}: {folders[place]} ({file_system(Path(folders[place]))})")
    if args.against is not None:
        print(f"  against: {args.against}")
    results: dict[tuple[int, str, str], list[dict[str, float]]] = {}
    for spectators in cases:
        for number in range(args.runs):
            # Turns: the order changes every run, so neither side always follows the other.
            order = [(t, p) for t in range(len(trees)) for p in places]
            if number % 2:
                order.reverse()
            for index, place in order:
                key = (spectators, names[index], place)
                result = run(trees[index], args, spectators, Path(folders[place]))
                results.setdefault(key, []).append(result)
                print(
                    f"  run {number + 1}: {spectators:>2} spectators, {names[index]:<7} "
                    f"journal {place:<6}: p50 {result['p50']:.3f} p99 {result['p99']:.3f} "
                    f"ms ({result['actions']:.0f} actions); CPU an action: host "
                    f"{result['host_cpu_us']:.0f} us, players {result['players_cpu_us']:.0f} us",
                    flush=True,
                )
    print()
    print("best (and spread) of the runs: latency in ms, CPU an action in us")
    print(
        f"{'spectators':>10}  {'code':<8}{'journal':<8}{'p50':>22}{'p99':>24}"
        f"{'game ends p99':>24}{'host CPU':>16}{'players CPU':>16}"
    )
    for (spectators, name, place), runs in results.items():
        print(
            f"{spectators:>10}  {name:<8}{place:<8}{spread([r['p50'] for r in runs]):>22}"
            f"{spread([r['p99'] for r in runs]):>24}{spread([r['ends_p99'] for r in runs]):>24}"
            f"{min(r['host_cpu_us'] for r in runs):>16.0f}"
            f"{min(r['players_cpu_us'] for r in runs):>16.0f}"
        )
    print()
    for spectators in cases:
        for name in names:
            disk, memory = (
                results.get((spectators, name, "disk")),
                results.get((spectators, name, "memory")),
            )
            if disk and memory:
                ratios = [d["p99"] / m["p99"] for d, m in zip(disk, memory, strict=True)]
                print(
                    f"{spectators:>2} spectators, {name}: p99 on disk / in memory, best "
                    f"{min(r['p99'] for r in disk) / min(r['p99'] for r in memory):.2f}x; "
                    f"run by run {', '.join(f'{r:.2f}x' for r in ratios)}"
                )
        for place in places:
            mine, theirs = (
                results.get((spectators, "this", place)),
                results.get((spectators, "against", place)),
            )
            if mine and theirs:
                ratios = [a["p50"] / b["p50"] for a, b in zip(mine, theirs, strict=True)]
                print(
                    f"{spectators:>2} spectators, journal {place}: p50 this / against, best "
                    f"{min(r['p50'] for r in mine) / min(r['p50'] for r in theirs):.2f}x; "
                    f"run by run {', '.join(f'{r:.2f}x' for r in ratios)}"
                )


async def floors(samples: int, seats: int) -> None:
    floor = await echo_floor(samples, 600)
    sealed = await sealed_floor(samples, seats)
    ms = 1000.0
    print()
    print(f"floors, this checkout, {samples} round trips each:")
    print(f"{'':<34}{'p50 ms':>9}{'p99 ms':>9}{'mean ms':>9}{'max ms':>9}")
    for label, values in (
        ("bare msgpack echo", floor),
        (f"sealed fan-out to {seats}, no game", sealed),
    ):
        print(
            f"{label:<34}{percentile(values, 50) * ms:>9.3f}"
            f"{percentile(values, 99) * ms:>9.3f}{statistics.fmean(values) * ms:>9.3f}"
            f"{max(values) * ms:>9.3f}"
        )
    print(
        f"the sealed fan-out to the bare echo: p50 "
        f"{percentile(sealed, 50) / percentile(floor, 50):.1f}x, "
        f"p99 {percentile(sealed, 99) / percentile(floor, 99):.1f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="via-gladiola")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument(
        "--spectators", default="0,20", help="the cases to measure, comma-separated"
    )
    parser.add_argument("--games", type=int, default=10, help="games a run: more, a steadier p99")
    parser.add_argument("--runs", type=int, default=3, help="runs of each case, in turns")
    parser.add_argument("--against", type=Path, help="another checkout to measure beside this one")
    parser.add_argument(
        "--journal", default="disk,memory", help="where the host's journal goes: disk, memory"
    )
    parser.add_argument("--disk-dir", default=tempfile.gettempdir(), help="a folder on the disk")
    parser.add_argument("--memory-dir", default="/dev/shm", help="a folder on a memory file system")
    parser.add_argument("--no-floors", action="store_true", help="skip the echo and fan-out")
    parser.add_argument("--one-run", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--run-in", help=argparse.SUPPRESS)
    parser.add_argument("--watch", help=argparse.SUPPRESS)
    parser.add_argument("--floor-host", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.floor_host:
        floor_host()
    elif args.watch:
        asyncio.run(watch(args.watch, int(args.spectators)))
    elif args.one_run:
        args.spectators = int(args.spectators)
        asyncio.run(one_run(args))
    else:
        side_by_side(args)
        if not args.no_floors:
            asyncio.run(floors(500, args.players))


if __name__ == "__main__":
    main()
