"""The host takes a move only against the update its player saw: older and future updates are
refused with their own codes, the refusal changes nothing, and the player's state is current."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from netcards.table import Table
from protocol.client import HostRefused, Notice, SeatTaken, TableClient, ViewChanged
from protocol.errors import LocalProtocolError
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts

REST = {"kind": "rest"}


async def next_of(client: TableClient, kind: type[Notice]) -> Notice:
    while True:
        notice = await asyncio.wait_for(client.updates.get(), 10)
        if isinstance(notice, SeatTaken):
            await client.set_ready(True)
        if isinstance(notice, kind):
            return notice


async def my_turn(client: TableClient) -> None:
    while not client.my_turn:
        await next_of(client, ViewChanged)


async def ann_against_a_bot(
    tmp_path: Path,
) -> tuple[Table, TableHost, TableClient, asyncio.Task[None]]:
    """Ann, a client on a real socket, at a two-seat Via Gladiola table that she starts."""
    table = Table.create("via-gladiola", 2, {"first_player": 0}, name="t", host_part=os.urandom(32))
    table.add_bot("heuristic", 1)
    server = TableHost(table, IdentityKey.generate(os.urandom), settings=HostSettings())
    port = await server.start()
    ann = TableClient(f"127.0.0.1:{port}", "Ann", KnownHosts(tmp_path / "hosts"))
    return table, server, ann, asyncio.create_task(ann.run())


async def test_stale_and_future_moves_are_refused_with_their_codes(tmp_path: Path) -> None:
    table, server, ann, runner = await ann_against_a_bot(tmp_path)
    try:
        await my_turn(ann)
        ann.seq += 3
        await ann.act(REST)
        refused = await next_of(ann, HostRefused)
        assert isinstance(refused, HostRefused) and refused.code == "future_seq"
        assert not refused.fatal and table.actions == []
        assert not ann.awaiting, "the client may act again"
        ann.seq = 0
        await ann.act(REST)
        await my_turn(ann)  # Ann rested, the bot played: Ann is asked again at update 2
        assert ann.seq == 2 and len(table.actions) == 2
        ann.seq = 0  # a move answering update 0 arrives late
        await ann.act(REST)
        refused = await next_of(ann, HostRefused)
        assert isinstance(refused, HostRefused) and refused.code == "stale_seq"
        assert len(table.actions) == 2, "the late move was not applied to the new decision"
        assert refused.detail == {"seq": 0, "latest": 2, "asked_at": 2}
    finally:
        runner.cancel()
        await server.close()


async def test_a_move_refused_on_our_side_leaves_no_answer_awaited(tmp_path: Path) -> None:
    """A move the protocol will not send (a `LocalProtocolError`: here a payload over the
    frame's limit) is not on its way: the client is not left awaiting an answer that never
    comes, which would hold the player's turn for good."""
    table, server, ann, runner = await ann_against_a_bot(tmp_path)
    try:
        await my_turn(ann)
        with pytest.raises(LocalProtocolError):
            await ann.act({"kind": "rest", "note": "x" * 200_000})
        assert not ann.awaiting, "no answer is coming"
        assert table.actions == []
    finally:
        runner.cancel()
        await server.close()
