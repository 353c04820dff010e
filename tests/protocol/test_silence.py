"""A client gives up on a host that goes silent, and only on one that does."""

from __future__ import annotations

import asyncio
import os
import socket
import time
from pathlib import Path

import pytest

from netcards.table import Table
from protocol.client import ClientSettings, Failed, LinkDown, TableClient
from protocol.host import TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts
from protocol.silence import SilenceWatch
from tests.network.processes import Relay


async def test_a_read_that_waits_past_the_limit_fails_with_the_reason() -> None:
    reader = asyncio.StreamReader()
    watch = SilenceWatch(reader, lambda: 0.2, "the host went silent")
    started = time.monotonic()
    with pytest.raises(TimeoutError, match="the host went silent"):
        await watch.read(100)
    assert 0.2 <= time.monotonic() - started < 2
    watch.close()


async def test_data_that_keeps_coming_is_never_silence_however_long_the_whole() -> None:
    reader = asyncio.StreamReader()
    watch = SilenceWatch(reader, lambda: 0.4, "silent")

    async def talk() -> None:
        for _ in range(12):  # 0.6 s in all, never 0.4 s without a word
            await asyncio.sleep(0.05)
            reader.feed_data(b"x")
        reader.feed_eof()

    talker = asyncio.create_task(talk())
    heard = b""
    while data := await watch.read(100):
        heard += data
    await talker
    assert heard == b"x" * 12
    watch.close()


async def test_time_away_from_the_read_is_not_silence() -> None:
    """A client busy elsewhere (a prompt for its user) has not been waiting on the host."""
    reader = asyncio.StreamReader()
    watch = SilenceWatch(reader, lambda: 0.2, "silent")
    reader.feed_data(b"a")
    assert await watch.read(100) == b"a"
    await asyncio.sleep(0.5)  # not reading: the watch's timer comes and goes meanwhile
    reader.feed_data(b"b")
    assert await watch.read(100) == b"b"
    watch.close()


@pytest.mark.parametrize(
    ("first", "then", "at_least", "below"),
    [
        # The client's limit grows once the handshake is done (10 s, then 20): a read under
        # the new limit is given all of it.
        (0.2, 0.6, 0.55, 3),
        # A timer set for a longer limit: the next read under a shorter one sets it again.
        (30.0, 0.2, 0.2, 2),
    ],
)
async def test_a_read_is_given_the_limit_of_its_time(
    first: float, then: float, at_least: float, below: float
) -> None:
    reader = asyncio.StreamReader()
    limits = [first]
    watch = SilenceWatch(reader, lambda: limits[0], "silent")
    reader.feed_data(b"a")
    await watch.read(100)  # the timer is armed with the first limit
    limits[0] = then
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        await watch.read(100)
    assert at_least <= time.monotonic() - started < below
    watch.close()


async def test_a_host_that_never_answers_is_reported_as_silent(tmp_path: Path) -> None:
    """Something listens at the address but says nothing: not a table, and the user is told
    why instead of waiting forever."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    client = TableClient(
        f"127.0.0.1:{port}",
        "Ann",
        KnownHosts(tmp_path / "known_hosts"),
        settings=ClientSettings(connect_timeout=0.3),
    )
    try:
        await asyncio.wait_for(client.run(), 10)
        notices = []
        while not client.updates.empty():
            notices.append(client.updates.get_nowait())
        failed = [n for n in notices if isinstance(n, Failed)]
        assert failed and failed[-1].code == "not_a_table", failed
        assert "said nothing" in failed[-1].reason and "check the port" in failed[-1].reason
    finally:
        listener.close()


async def test_a_host_that_goes_silent_mid_session_is_left_and_retried(tmp_path: Path) -> None:
    """The link freezes after the join (the host's machine went to sleep): the client notices
    after its silence limit, not before, and tries again."""
    table = Table.create("via-gladiola", 2, {}, name="Club", host_part=os.urandom(32))
    host = TableHost(table, IdentityKey(bytes(range(32))))
    await host.start()
    relay = Relay(host.port)
    client = TableClient(
        f"127.0.0.1:{relay.port}",
        "Ann",
        KnownHosts(tmp_path / "known_hosts"),
        settings=ClientSettings(silence_timeout=0.6, retry_delays=(5.0,)),
    )
    runner = asyncio.create_task(client.run())
    try:
        for _ in range(500):
            if client.lobby is not None:
                break
            await asyncio.sleep(0.01)
        assert client.lobby is not None
        while not client.updates.empty():
            client.updates.get_nowait()
        relay.freeze()
        frozen = time.monotonic()
        while True:
            notice = await asyncio.wait_for(client.updates.get(), 10)
            if isinstance(notice, LinkDown):
                break
        assert 0.5 <= time.monotonic() - frozen < 3  # counted from the last byte, just before
        assert notice.reason == "the host went silent" and notice.retrying
    finally:
        runner.cancel()
        relay.thawed.set()
        relay.close()
        await host.close()
