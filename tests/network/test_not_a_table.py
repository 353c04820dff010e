"""Joining an address where something else listens (a web server, a silent service) says that
it is not a netcards table, quickly and plainly, instead of blaming a firewall or printing the
size of a frame that was never one."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from protocol.client import ClientSettings, Failed, TableClient
from protocol.known_hosts import KnownHosts

HTTP_REFUSAL = b"HTTP/1.0 400 Bad request\r\nContent-Type: text/html\r\n\r\n<!DOCTYPE html>\n"


async def failure_against(answer: bytes | None, tmp_path: Path) -> Failed:
    """The first connection's failure against a server that answers `answer` to anything (and
    hangs up), or stays silent (None)."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(1)
        if answer is not None:
            writer.write(answer)
            await writer.drain()
            writer.close()
            return
        await asyncio.sleep(30)

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    client = TableClient(
        f"127.0.0.1:{port}",
        "Ann",
        KnownHosts(tmp_path / "hosts"),
        settings=ClientSettings(connect_timeout=1.0),
    )
    runner = asyncio.create_task(client.run())
    try:
        while not isinstance(notice := await asyncio.wait_for(client.updates.get(), 10), Failed):
            pass
        await asyncio.wait_for(runner, 5)
        return notice
    finally:
        runner.cancel()
        server.close()


@pytest.mark.parametrize(
    "answer", [HTTP_REFUSAL, b"\x00\x00\x00\x03abc", None], ids=["web", "not-msgpack", "silent"]
)
async def test_something_that_is_not_a_table_is_named_so(
    answer: bytes | None, tmp_path: Path
) -> None:
    failed = await failure_against(answer, tmp_path)
    assert failed.code == "not_a_table", failed
    assert "is not a netcards table" in failed.reason and "check the port" in failed.reason


async def test_a_port_where_nobody_listens_is_still_said_so(tmp_path: Path) -> None:
    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    server.close()
    await server.wait_closed()
    client = TableClient(f"127.0.0.1:{port}", "Ann", KnownHosts(tmp_path / "hosts"))
    runner = asyncio.create_task(client.run())
    try:
        while not isinstance(notice := await asyncio.wait_for(client.updates.get(), 10), Failed):
            pass
        assert notice.code == "no_listener"
    finally:
        runner.cancel()
