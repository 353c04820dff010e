"""A sealed table's verdict is its players' own audit, never the host's word: a modified host
that sends the classic end-of-game `audit` (the trusted dealer's reveal) at a sealed table, here
as it closes the table halfway, must not have any program read `deal verified`. A sealed table
has no such audit (docs/sealed.md, section 7, "A sealed game"): its deal is checked only from
every seat's secrets, so the honest programs name the host.

Over real loopback sockets with the shipped `TableClient`."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from netcards.fairdeal import combine
from netcards.table import Table
from protocol.client import DealChecked, TableClient, TableClosed
from protocol.client_notices import Fatal
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts
from protocol.messages import History, HistoryStep
from tests.network.test_sealed_spectators import TITLES, _dealt


async def _verdict(client: TableClient) -> object:
    """The verdict the client's screen would show: the first `DealChecked` or `TableClosed`."""
    while True:
        notice = await client.updates.get()
        if isinstance(notice, DealChecked):
            return notice.verdict
        if isinstance(notice, TableClosed):
            return notice.verdict


@pytest.mark.parametrize("title", TITLES)
async def test_a_classic_audit_at_a_sealed_table_is_no_verdict_and_names_the_host(
    tmp_path: Path, title: str
) -> None:
    table = Table.create(title, 3, {}, name="t", host_part=os.urandom(32), sealed=True)
    table.add_bot("random", 2)
    server = TableHost(table, IdentityKey.generate(os.urandom), settings=HostSettings(grace=0.0))
    port = await server.start()
    ann = TableClient(f"127.0.0.1:{port}", "Ann", KnownHosts(tmp_path / "ann"))
    eve = TableClient(f"127.0.0.1:{port}", "Eve", KnownHosts(tmp_path / "eve"), spectator=True)
    bob = TableClient(f"127.0.0.1:{port}", "Bob", KnownHosts(tmp_path / "bob"))
    runners = [asyncio.create_task(c.run()) for c in (ann, bob, eve)]
    try:
        await asyncio.wait_for(_dealt(ann, bob), 60)
        # The modified host: as it closes the table mid-game, it sends the classic audit of a
        # trusted dealer's table (its seed part, the seed the parts make, the actions so far: none), as
        # if the table were not sealed. Every check of that audit holds: nothing was dealt.
        table.sealed = False
        table.seed = combine(table.host_part, table.contributions())
        await server.close()
        verdicts = [await asyncio.wait_for(_verdict(c), 30) for c in (ann, bob, eve)]
    finally:
        for c in (ann, bob, eve):
            await c.leave("done")
        for r in runners:
            r.cancel()
    for c, verdict in zip((ann, bob, eve), verdicts, strict=True):
        assert verdict is not None
        assert not verdict.ok, f"{c.name} read {verdict.headline}"
        assert verdict.headline.startswith("deal NOT verified: the host"), verdict.headline
        if c.seat is not None:
            assert c.sealed_verdict == verdict.headline


async def test_a_history_sent_to_a_sealed_seat_is_refused_and_never_read_into_its_log(
    tmp_path: Path,
) -> None:
    """A sealed seat's log is what its own engine saw happen. A modified host that sends it a
    classic `history` (a rejoining player's log at a trusted dealer's table) would put the
    host's word there, events that never happened, which `netcards bot` reads to choose: the
    program leaves, naming the host, as for a view the host sends."""
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=os.urandom(32), sealed=True)
    table.add_bot("random", 1)
    server = TableHost(table, IdentityKey.generate(os.urandom), settings=HostSettings(grace=0.0))
    port = await server.start()
    ann = TableClient(f"127.0.0.1:{port}", "Ann", KnownHosts(tmp_path / "ann"))
    runner = asyncio.create_task(ann.run())
    try:
        await asyncio.wait_for(_dealt(ann), 60)
        before = list(ann.log)
        made_up = {"kind": "walk", "seat": 1, "card": 7}
        with pytest.raises(Fatal) as fatal:
            await ann._on_message(History(0, 1, (HistoryStep(1, 1, (made_up,)),)))
    finally:
        await ann.leave("done")
        runner.cancel()
        await server.close()
    assert "deals as a trusted dealer (its history is not sealed)" in str(fatal.value)
    assert ann.log == before
    assert ann.verdict is not None and not ann.verdict.ok
