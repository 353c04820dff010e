"""LAN discovery on loopback only: a host answers, malformed datagrams are ignored."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace

import asyncio_dgram
import msgpack
import pytest

from protocol.discovery import (
    BadDatagram,
    Responder,
    TableInfo,
    decode_query,
    decode_reply,
    discover,
    encode_query,
    encode_reply,
)
from tests.network.processes import free_udp_base

INFO = TableInfo("Friday table", "via-gladiola", 4, 2, 47474, 1, "ABCD-EFGH")
NONCE = b"12345678"


def loop_time() -> float:
    return asyncio.get_running_loop().time()


async def test_discover_finds_a_host_on_loopback() -> None:
    responder = Responder(lambda: INFO)
    port = await responder.start("127.0.0.1", 0)
    try:
        found = await discover(target="127.0.0.1", port=port, timeout=0.5, nonce=NONCE)
    finally:
        await responder.close()
    assert [(t.host, t.info) for t in found] == [("127.0.0.1", INFO)]
    assert found[0].address == "127.0.0.1:47474"


async def test_discover_aims_at_the_configured_target_by_default() -> None:
    # The test environment sets NETCARDS_DISCOVERY_TARGET=127.0.0.1.
    responder = Responder(lambda: INFO)
    port = await responder.start("127.0.0.1", 0)
    try:
        found = await discover(port=port, timeout=0.5, nonce=NONCE)
    finally:
        await responder.close()
    assert len(found) == 1


async def test_a_query_with_a_field_too_many_gets_no_answer_over_the_wire() -> None:
    """Anything but an exact query is ignored (docs/protocol.md): no reply to be amplified."""
    responder = Responder(lambda: INFO)
    port = await responder.start("127.0.0.1", 0)
    asker = await asyncio_dgram.connect(("127.0.0.1", port))
    try:
        query = msgpack.unpackb(encode_query(NONCE))
        await asker.send(msgpack.packb({**query, "x": 1}))
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(asker.recv(), 0.5)
        await asker.send(msgpack.packb(query))
        data, _ = await asyncio.wait_for(asker.recv(), 5)
        assert decode_reply(data, NONCE) == INFO, "the exact query is still answered"
    finally:
        asker.close()
        await responder.close()


async def test_a_malformed_reply_is_ignored_and_a_good_one_kept() -> None:
    fake = await asyncio_dgram.bind(("127.0.0.1", 0))
    port = fake.sockname[1]

    async def answer() -> None:
        data, addr = await fake.recv()
        nonce = decode_query(data)
        await fake.send(b"\xc1garbage", addr)
        await fake.send(msgpack.packb({"t": "netcards!", "v": 1, "n": nonce, "name": 5}), addr)
        bad = TableInfo("x", "via-gladiola", 4, 9, 1, 1, "fp")  # more free seats than players
        await fake.send(encode_reply(nonce, bad), addr)
        await fake.send(encode_reply(b"other!!!", INFO), addr)
        await fake.send(encode_reply(nonce, INFO), addr)

    task = asyncio.create_task(answer())
    found = await discover(target="127.0.0.1", port=port, timeout=0.5, nonce=NONCE)
    await task
    fake.close()
    assert [t.info for t in found] == [INFO]


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\xff" * 2000,
        msgpack.packb([1, 2]),
        msgpack.packb({"t": "netcards?", "v": 2, "n": NONCE}),
        msgpack.packb({"t": "netcards?", "v": 1, "n": b"short"}),
        msgpack.packb({"t": "netcards?", "v": 1, "n": msgpack.ExtType(1, b"x")}),
        msgpack.packb({"t": "netcards?", "v": 1, "n": NONCE, "x": 1}),
    ],
)
def test_bad_queries_are_refused(data: bytes) -> None:
    with pytest.raises(BadDatagram):
        decode_query(data)


def test_replies_with_unprintable_names_or_extra_fields_are_refused() -> None:
    evil = TableInfo("x\x1b[2J", "via-gladiola", 4, 1, 1, 1, "fp")
    with pytest.raises(BadDatagram, match="unprintable"):
        decode_reply(encode_reply(NONCE, evil), NONCE)
    extra = msgpack.packb({**msgpack.unpackb(encode_reply(NONCE, INFO)), "more": 1})
    with pytest.raises(BadDatagram, match="unexpected"):
        decode_reply(extra, NONCE)
    assert decode_reply(encode_reply(NONCE, INFO), NONCE) == INFO
    assert decode_query(encode_query(NONCE)) == NONCE


async def test_two_hosts_on_one_machine_are_both_found(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NETCARDS_DISCOVERY_PORT", str(free_udp_base()))
    first = TableInfo("First", "via-gladiola", 3, 2, 47474, 1, "AAAA-AAAA")
    second = TableInfo("Second", "velonimo", 4, 3, 47476, 1, "BBBB-BBBB", password=True)
    responders = [Responder(lambda: first), Responder(lambda: second)]
    ports = [await r.start("127.0.0.1") for r in responders]
    try:
        found = await discover(timeout=0.5, nonce=NONCE)
    finally:
        for responder in responders:
            await responder.close()
    assert ports[0] != ports[1], "the second host answers on the next port of the range"
    assert [t.info for t in found] == [first, second]
    assert [t.info.password for t in found] == [False, True], "password tables say so"


def test_a_reply_from_a_host_that_does_not_say_whether_it_has_a_password_is_kept() -> None:
    older = {k: v for k, v in msgpack.unpackb(encode_reply(NONCE, INFO)).items() if k != "pw"}
    assert decode_reply(msgpack.packb(older), NONCE) == INFO
    with pytest.raises(BadDatagram, match="pw"):
        decode_reply(msgpack.packb({**older, "pw": "yes"}), NONCE)


def test_a_reply_says_whether_the_table_is_sealed() -> None:
    sealed = replace(INFO, sealed=True)
    assert msgpack.unpackb(encode_reply(NONCE, sealed))["sealed"] is True
    assert decode_reply(encode_reply(NONCE, sealed), NONCE) == sealed
    older = {k: v for k, v in msgpack.unpackb(encode_reply(NONCE, sealed)).items() if k != "sealed"}
    assert decode_reply(msgpack.packb(older), NONCE).sealed is False
    with pytest.raises(BadDatagram, match="sealed"):
        decode_reply(msgpack.packb({**older, "sealed": 1}), NONCE)


async def test_a_flood_of_queries_gets_at_most_fifty_answers_a_second() -> None:
    """docs/protocol.md: a host answers at most 50 queries a second, so a forged source
    address cannot turn it into a flood aimed at someone else."""
    responder = Responder(lambda: INFO)
    port = await responder.start("127.0.0.1", 0)
    asker = await asyncio_dgram.connect(("127.0.0.1", port))
    answers = 0
    try:
        started = loop_time()
        for _ in range(300):
            await asker.send(encode_query(NONCE))
        sent_in = loop_time() - started
        with contextlib.suppress(TimeoutError):
            while True:
                await asyncio.wait_for(asker.recv(), 0.3)
                answers += 1
    finally:
        asker.close()
        await responder.close()
    assert sent_in < 1, "the flood came within a second"
    assert 40 <= answers <= 50 + 50 * sent_in, (answers, sent_in)
