"""A player's files beside its seat token are written at once and synced by the program's disk
thread, never on the event loop, and what must be on the disk before a message leaves still
is: the deal notes before our pledge and our part, a sealed seat's seed before its signing key
(docs/sealed.md).

The disk is made slow here (each sync of those files takes 0.15 s): the loop goes on meanwhile,
and each message waits for its file, whole on the disk, without blocking anything else.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from netcards.table import Table
from protocol.client import TableClient
from protocol.deal_witness import DealWitness
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts
from protocol.messages import Contribute, Pledge, Sealed
from protocol.seat_tokens import SeatTokens
from tests.network.test_sealed_rejoin import Player, close, finish, open_table

SLOW = 0.15


class SlowDisk:
    """`os.fsync` of the seat files made slow, noting which thread synced which file when."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.synced: list[tuple[str, int, float]] = []  # (file name, thread, when it ended)
        real = os.fsync

        def fsync(fd: int) -> None:
            name = os.readlink(f"/proc/self/fd/{fd}")
            if "/seats" in name:  # a seat file, or the folder of one
                time.sleep(SLOW)
            real(fd)
            self.synced.append((Path(name).name, threading.get_ident(), time.monotonic()))

        monkeypatch.setattr(os, "fsync", fsync)

    def threads(self, suffix: str) -> set[int]:
        return {thread for name, thread, _ in self.synced if name.endswith(suffix)}


async def ticking(ticks: list[float]) -> None:
    while True:
        ticks.append(time.monotonic())
        await asyncio.sleep(0.01)


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="reads /proc")
async def test_the_deal_notes_are_on_the_disk_before_our_pledge_and_part_leave(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    disk = SlowDisk(monkeypatch)
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=os.urandom(32))
    table.add_bot("random", 1)
    server = TableHost(table, IdentityKey.generate(os.urandom), settings=HostSettings())
    await server.start()
    address = f"127.0.0.1:{server.port}"
    tokens = SeatTokens(tmp_path / "seats")
    client = TableClient(
        address,
        "Ann",
        KnownHosts(tmp_path / "hosts"),
        keep_deal=lambda deal: tokens.save_deal(address, "Ann", deal.to_data()),
    )
    on_disk_when_sent: list[tuple[str, Any, Any, bool]] = []
    send = client._send

    async def sending(message: Any) -> None:
        if isinstance(message, Pledge | Contribute):
            path = tokens._path(address, "Ann", ".deal")
            kept = json.loads(path.read_text()) if path.exists() else None
            synced = tokens.worker.idle()  # no sync of the notes still to come
            on_disk_when_sent.append((message.TYPE, kept, client.deal.to_data(), synced))
        await send(message)

    monkeypatch.setattr(client, "_send", sending)
    ticks: list[float] = []
    ticker = asyncio.create_task(ticking(ticks))
    runner = asyncio.create_task(client.run())
    try:
        while client.game is None:
            notice = await asyncio.wait_for(client.updates.get(), 30)
            if type(notice).__name__ == "SeatTaken":
                await client.set_ready(True)
    finally:
        ticker.cancel()
        runner.cancel()
        await server.close()
    assert [what for what, _, _, _ in on_disk_when_sent] == ["pledge", "contribute"]
    for what, kept, notes, synced in on_disk_when_sent:
        assert kept == notes, f"the notes on the disk when our {what} left were not the last"
        assert synced, f"our {what} left before the notes were synced"
    assert DealWitness.restore(on_disk_when_sent[-1][1]).revealed, "our part is noted as out"
    loop = threading.get_ident()
    deal_syncs = disk.threads(".deal")
    assert deal_syncs and loop not in deal_syncs, "the notes were synced off the event loop"
    first = min(when for name, _, when in disk.synced if name.endswith(".deal"))
    assert len([t for t in ticks if first - SLOW < t < first]) >= 5, "the loop ran on meanwhile"


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="reads /proc")
async def test_a_sealed_seats_seed_is_on_the_disk_before_its_signing_key_leaves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    disk = SlowDisk(monkeypatch)
    server = await open_table(tmp_path)
    ann = Player(tmp_path, server.port, "A")
    seed_file = ann.tokens.sealed_seed(ann.client.address, "A")
    first_sealed: list[dict[str, Any] | None] = []
    sent_at: list[float] = []
    send = ann.client._send

    async def sending(message: Any) -> None:
        if isinstance(message, Sealed) and not first_sealed:
            there = seed_file.path.exists()  # (raising here would look like a dropped link)
            first_sealed.append(json.loads(seed_file.path.read_text()) if there else None)
            sent_at.append(time.monotonic())
        await send(message)

    monkeypatch.setattr(ann.client, "_send", sending)
    bea = Player(tmp_path, server.port, "B")
    try:
        await finish([ann, bea], random.Random(7))
    finally:
        await close(server, [ann, bea])
    assert first_sealed and first_sealed[0] is not None
    assert first_sealed[0]["seed"] and first_sealed[0]["seat"] == ann.client.seat
    (sent,) = sent_at
    for synced in (seed_file.path.name, seed_file.path.parent.name):  # the seed, its name
        ended = [when for name, _, when in disk.synced if name == synced]
        assert ended and min(ended) <= sent, f"the signing key left before {synced} was synced"
    assert ann.client.sealed_verdict == bea.client.sealed_verdict == "deal verified"
    seed_syncs = disk.threads(".sealed")  # (the loop is busy with the deal's proofs
    assert seed_syncs and threading.get_ident() not in seed_syncs  # here: no ticks to count)
