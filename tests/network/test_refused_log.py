"""An address refused for guessing that keeps knocking costs the host's log a line or two per
interval, not a line per connection, and the log still says how many were turned away."""

from __future__ import annotations

import asyncio
import os
import re
import time

from netcards.table import Table
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.throttle import FailureThrottle
from ui.app import HOST_LOG_LINES, NetcardsApp
from ui.user_settings import UserSettings

SUMMARY = re.compile(r"^(\d+) more refused from 127\.0\.0\.7 in the last \d+ s$")
TURNED_AWAY = re.compile(r"^turned 127\.0\.0\.7:\d+ away: too many wrong passwords")


async def refused_host(lines: list[str], **settings: float) -> TableHost:
    """A table with a password whose throttle already refuses 127.0.0.7."""
    throttle = FailureThrottle()
    for _ in range(throttle.refuse_after):
        throttle.failure("127.0.0.7", time.monotonic())
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=os.urandom(32))
    host = TableHost(
        table,
        IdentityKey.generate(os.urandom),
        password="tulip",
        throttle=throttle,
        settings=HostSettings(**settings),
        log=lines.append,
    )
    await host.start()
    return host


async def knock(port: int, times: int) -> None:
    for _ in range(times):
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", port, local_addr=("127.0.0.7", 0)
        )
        assert b"throttled" in await asyncio.wait_for(reader.read(), 10)
        writer.close()


def accounted(lines: list[str]) -> int:
    full = sum(1 for line in lines if TURNED_AWAY.match(line))
    more = sum(int(m.group(1)) for line in lines if (m := SUMMARY.match(line)))
    return full + more


async def test_many_refused_connections_are_one_line_then_a_summary_with_the_true_count() -> None:
    lines: list[str] = []
    host = await refused_host(lines)
    try:
        await asyncio.gather(*(knock(host.port, 100) for _ in range(4)))
        assert len(lines) == 1 and TURNED_AWAY.match(lines[0]), lines
    finally:
        await host.close()
    assert len(lines) == 2 and SUMMARY.match(lines[1]), lines
    assert lines[1].startswith("399 more refused from 127.0.0.7"), "the summary's count is true"


async def test_a_steady_stream_is_summarised_once_per_interval_and_nothing_is_lost() -> None:
    lines: list[str] = []
    host = await refused_host(lines, refusal_log_interval=0.25)
    try:
        started = time.monotonic()
        await asyncio.gather(*(knock(host.port, 150) for _ in range(4)))
        spent = time.monotonic() - started
        await asyncio.sleep(1.5)  # the host's next look at its counts says the last one
        said = len(lines)
        assert accounted(lines) == 600, lines
    finally:
        await host.close()
    assert len(lines) == said, "nothing was left to say at the close"
    intervals = spent / 0.25 + 2
    assert len(lines) <= 2 * intervals, (len(lines), spent)


def test_the_apps_log_keeps_its_last_lines_only() -> None:
    app = NetcardsApp(UserSettings(name="Ann"))
    for n in range(HOST_LOG_LINES * 5):
        app.host_log.append(f"line {n}")  # as the table it hosts logs (`open_table`'s `log`)
    assert len(app.host_log) == HOST_LOG_LINES
    assert app.host_log[-1] == f"line {HOST_LOG_LINES * 5 - 1}"
