"""The app as a person meets it: cold start to the first menu frame, memory, and key-press latency.

    python -m bench.app [--runs 10]

- cold start: a fresh process, from its launch to the menu's first frame (headless, 80x24);
- memory: the maximum resident set size (`/usr/bin/time -v`) of a process that starts the app
  and plays a whole practice game of Via Gladiola against bots;
- key press to the host's acknowledgement: in a practice game on loopback, from the moment the
  screen hands the move chosen by a key press to the client, to the update that carries our own
  move back (the test driver's own key-press bookkeeping is left out);
- a burst of keys: 100 characters arriving in one read (as a fast typist's or an SSH packet's),
  typed into the join form's address field; time from the read until the app has handled the
  last one, since the app takes keys one at a time (`ui/keys.py`).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

START = """
import os, time
t0 = float(os.environ["NC_T0"])
from ui.app import make_app
from ui.user_settings import UserSettings
app = make_app(settings=UserSettings(name="Ann"))
async def auto(pilot):
    await pilot.pause()
    print(f"{time.time() - t0:.4f}", flush=True)
    app.exit()
app.run(headless=True, auto_pilot=auto, size=(80, 24))
"""

PLAY = """
import asyncio, sys
sys.argv = ["bench"]
from bench.app import play_practice
print(asyncio.run(play_practice(turns=200))[0], flush=True)
"""


async def play_practice(turns: int) -> tuple[int, list[float]]:
    """A practice game of Via Gladiola through the app; returns (moves, press-to-ack times)."""
    from netcards.games.via_gladiola.actions import PlayGladiola, Walk
    from tests.ui.pilots import start_practice, wait_until
    from ui.app import make_app
    from ui.user_settings import UserSettings

    app = make_app(settings=UserSettings(name="Ann"), bot_delay=0)
    times: list[float] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 4)
        client = app.screen.client  # type: ignore[attr-defined]
        sent: list[float] = []
        act = client.act

        async def timed_act(action: Any) -> None:
            sent.append(time.perf_counter())
            await act(action)

        client.act = timed_act
        acked: list[float] = []
        on_message = client._on_message

        async def timed_message(message: Any) -> None:
            if getattr(message, "actor", None) == client.seat:
                acked.append(time.perf_counter())
            await on_message(message)

        client._on_message = timed_message
        for _ in range(turns):
            await wait_until(pilot, lambda: client.my_turn or client.outcome is not None, 60)
            if client.outcome is not None:
                break
            plays = [a for a in client.legal_actions() if isinstance(a, Walk | PlayGladiola)]
            hand = sorted(client.view["hand"])
            if plays:
                await pilot.press("home", *["right"] * hand.index(plays[0].card))
                key = "enter"
            else:
                key = "r"
            seq = client.seq
            await pilot.press(key)
            while client.awaiting or client.seq == seq:
                await asyncio.sleep(0.0002)
            times.append(acked[-1] - sent[-1])
    return len(times), times


async def burst_typing(keys: int = 100) -> float:
    """Seconds from one read of `keys` characters to the last of them in the address field."""
    from textual.widgets import Input

    from tests.ui.bursts import burst
    from ui.app import make_app
    from ui.user_settings import UserSettings

    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "j")
        await pilot.pause(0.5)
        field = app.screen.query_one("#address", Input)
        start = time.perf_counter()
        await burst(pilot, "7" * keys)
        while len(field.value) < keys:
            await asyncio.sleep(0.001)
        return time.perf_counter() - start


def cold_starts(runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        env = dict(os.environ, NC_T0=f"{time.time():.6f}")
        done = subprocess.run(
            [sys.executable, "-c", START], capture_output=True, text=True, env=env, check=True
        )
        out.append(float(done.stdout.strip().splitlines()[-1]))
    return out


def max_rss_mb(code: str) -> float:
    done = subprocess.run(
        ["/usr/bin/time", "-v", sys.executable, "-c", code],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    assert match, done.stderr
    return int(match.group(1)) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.environ.update(
            NETCARDS_CONFIG_DIR=f"{home}/config",
            NETCARDS_DATA_DIR=f"{home}/data",
            NETCARDS_DISCOVERY_TARGET="127.0.0.1",
        )
        starts = cold_starts(args.runs)
        menu_rss = max_rss_mb(START.replace('float(os.environ["NC_T0"])', "time.time()"))
        game_rss = max_rss_mb(PLAY)
        moves, acks = asyncio.run(play_practice(turns=200))
        bursts = [asyncio.run(burst_typing()) for _ in range(3)]
    ms = 1000.0
    print(f"cold start to the first menu frame ({args.runs} runs): "
          f"median {statistics.median(starts):.2f} s, max {max(starts):.2f} s")  # fmt: skip
    print(f"max RSS: menu only {menu_rss:.0f} MB; a whole 4-player practice game {game_rss:.0f} MB")
    ordered: list[Any] = sorted(acks)
    print(f"key press to the host's acknowledgement ({moves} moves): "
          f"p50 {ordered[len(ordered) // 2] * ms:.1f} ms, "
          f"p99 {ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * ms:.1f} ms")  # fmt: skip
    print(f"a burst of 100 keys in one read, all handled: median {statistics.median(bursts):.2f} s "
          f"({statistics.median(bursts) * 10:.1f} ms a key)")  # fmt: skip


if __name__ == "__main__":
    main()
