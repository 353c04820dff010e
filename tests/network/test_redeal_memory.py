"""A host that throws a deal away after seeing the players' parts cannot make a client forget it.

The host here is a `TableHost` patched to make the deal again once every part is revealed
(when its own bot would lose it, say), in the ways that used to wipe the client's memory: it
answers the players' seat tokens with `bad_token` (so they sit down again as new players), it
crashes and a fresh table comes up on the same port with the same identity (which knows no
seat either, and has a part of its own), or it calls the deal off. The players are real
`netcards bot` processes, and a spectator the shipped client on a real socket. Every one of
them says "deal NOT verified" with the reason; an honest host is verified; and a player whose
own program dies between its reveal and the start still holds the host to that deal.
"""

from __future__ import annotations

import asyncio
import os
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from netcards.fairdeal import pledge
from netcards.table import Table
from protocol.client import ClientSettings, TableClient
from protocol.errors import ErrorCode
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts
from protocol.messages import Commit, Contribute, Join, Message, Pledge, Pledges, Ready, Seated
from protocol.seat_tokens import SeatTokens
from protocol.settings import data_dir
from protocol.table_session import TableSession
from protocol.table_session.effects import DEAL_TIMER
from tests.network.processes import Proc, bot, spawn, wait_for
from tests.network.raw import Raw, connect

HOST_SEAT = 2
"""Seat 2 is the host's bot, for whom it would choose the deal."""

OURS = r"the deal was made again 1 time\(s\) after our seed part had been revealed"
THEIRS = r"the deal was made again 1 time\(s\) after the players' seed parts had been published"
SECOND_ROUND_PLEDGE_TIMEOUT = 2.0
"""Seconds the round dealt again waits for pledges. The first round gives the bot processes
a generous 20 s to pledge; in the second one a player that already revealed its part pledges
nothing (its notes say it is the round it was in), so the host only waits out this time."""


class RedealSession(TableSession):
    """The table's decisions, patched to deal again once every part is revealed."""

    trick = "honest"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.saw_the_parts = asyncio.Event()

    def _deal(self) -> None:
        round_ = self.round
        if round_ is None or not round_.all_revealed or self.trick == "honest":
            super()._deal()
            return
        trick, self.trick = self.trick, "honest"  # once: the next deal is "better"
        self.saw_the_parts.set()
        if trick == "deal_off":
            self._call_off("pretending someone left")
        elif trick == "bad_token":  # quietly forget every seat and deal again to the newcomers
            self._cancel_timer(DEAL_TIMER)
            self.round = None
            # The newcomers take the round made again for the one they were in and pledge
            # nothing in it: all it waits for is its pledge time, which need not be long.
            self.settings = replace(self.settings, pledge_timeout=SECOND_ROUND_PLEDGE_TIMEOUT)
            for member in list(self.members.values()):
                if member.seat is not None and member.joined:
                    self.table.disconnect(member.seat)
                    member.seat = member.token = None
                    why = "this seat token is not valid here"
                    self._refuse(member, ErrorCode.BAD_TOKEN, why, fatal=True)
        elif trick == "crash":  # the test kills this host now; a fresh one takes the port
            self.round = None


class Redealer(TableHost):
    session_class = RedealSession

    @property
    def session_of_tricks(self) -> RedealSession:
        assert isinstance(self.session, RedealSession)
        return self.session


def fresh_table() -> Table:
    table = Table.create("via-gladiola", 3, {}, name="t", host_part=os.urandom(32))
    table.add_bot("random", HOST_SEAT)
    return table


async def crash(server: TableHost) -> None:
    """The host's process dies: every connection cut, nothing said."""
    for peer in list(server.peers.values()):
        peer.writer.transport.abort()
    await server.close()


def spectator(tmp_path: Path, port: int) -> TableClient:
    return TableClient(
        f"127.0.0.1:{port}",
        "Eve",
        KnownHosts(tmp_path / "eve_known_hosts"),
        spectator=True,
        settings=ClientSettings(retry_delays=(0.2,)),
    )


async def play(tmp_path: Path, trick: str) -> tuple[list[Proc], TableClient, str]:
    """Ann and Bea (bot processes) and the host's bot at a 3-seat table, Eve watching."""
    identity = IdentityKey.generate(os.urandom)
    settings = HostSettings(pledge_timeout=20, contribute_timeout=20, grace=1)
    redealer = Redealer(fresh_table(), identity, settings=settings)
    redealer.session_of_tricks.trick = trick
    server: TableHost = redealer
    port = await server.start()
    eve = spectator(tmp_path, port)
    watching = asyncio.create_task(eve.run())
    await asyncio.to_thread(wait_for, lambda: eve.connected, 30, "the spectator")
    players = [bot(tmp_path, port, name, "--level", "random") for name in ("Ann", "Bea")]
    try:
        if trick == "crash":
            await asyncio.wait_for(redealer.session_of_tricks.saw_the_parts.wait(), 60)
            await crash(server)
            server = TableHost(fresh_table(), identity, settings=settings)
            assert await server.start(port=port) == port
        for proc in players:
            await asyncio.to_thread(proc.wait)
        await asyncio.wait_for(watching, 60)
    finally:
        watching.cancel()
        await server.close()
        for proc in players:
            proc.kill()
    return players, eve, f"127.0.0.1:{port}"


@pytest.mark.parametrize("trick", ["bad_token", "crash", "deal_off"])
async def test_a_deal_made_again_after_the_reveals_is_never_verified(
    tmp_path: Path, trick: str
) -> None:
    players, eve, address = await play(tmp_path, trick)
    for proc in players:
        out = proc.stdout()
        assert "deal NOT verified: " in out, proc.name + ":\n" + out + proc.stderr()
        assert re.search(OURS, out), proc.name + ":\n" + out
        assert "deal verified" not in out.replace("deal NOT verified", "")
        assert SeatTokens(data_dir() / "seats").load_deal(address, proc.name) is None, "done"
    assert eve.verdict is not None and not eve.verdict.ok, "the spectator saw it too"
    assert any(re.search(THEIRS, p) for p in eve.verdict.problems), eve.verdict.problems


async def test_an_honest_host_is_verified_by_players_and_spectator(tmp_path: Path) -> None:
    players, eve, _ = await play(tmp_path, "honest")
    for proc in players:
        assert proc.popen.returncode == 0, proc.stdout() + proc.stderr()
        assert "deal verified\n" in proc.stdout() and "note:" not in proc.stdout()
    assert eve.verdict is not None and eve.verdict.ok, eve.verdict
    assert eve.verdict.caveats == [], "the spectator saw the deal being made"


async def test_a_player_restarted_between_its_reveal_and_the_start_remembers_it(
    tmp_path: Path,
) -> None:
    """Ann reveals her part and her program dies before the game starts (Rae, a raw client, holds
    her part back until then). The host has seen Ann's part; whatever it deals next is a deal
    made again, and the restarted Ann, reading her notes, says so."""
    settings = HostSettings(pledge_timeout=20, contribute_timeout=20, grace=1)
    server = TableHost(fresh_table(), IdentityKey.generate(os.urandom), settings=settings)
    port = await server.start()
    address = f"127.0.0.1:{port}"
    rae = await connect(port)
    try:
        await rae.handshake()
        await rae.send(Join("Rae", None, False))
        seated = await _next(rae, Seated)
        assert isinstance(seated, Seated) and seated.seat is not None
        await rae.send(Ready(True))
        ann = bot(tmp_path, port, "Ann", "--level", "random")
        part = os.urandom(32)
        await _next(rae, Commit, timeout=60)
        await rae.send(Pledge(pledge(seated.seat, part)))
        await _next(rae, Pledges, timeout=60)
        round_ = server.session.round
        assert round_ is not None
        await asyncio.to_thread(
            wait_for, lambda: len(round_.parts) == 1, 60, "Ann's part to reach the host"
        )
        settings.pledge_timeout = SECOND_ROUND_PLEDGE_TIMEOUT  # read when the next round opens
        ann.kill()  # her part is out, the game has not started
        notes = SeatTokens(data_dir() / "seats").load_deal(address, "Ann")
        assert notes is not None and notes["revealed"], "written before the part was sent"
        again = spawn(tmp_path, "Ann-again", "bot", address, "--name", "Ann", "--level", "random")
        part = os.urandom(32)  # Rae plays the next round honestly, then leaves her seat to a bot
        commit = await _next(rae, Commit, timeout=60)
        assert isinstance(commit, Commit) and seated.seat in commit.seats
        await rae.send(Pledge(pledge(seated.seat, part)))
        await _next(rae, Pledges, timeout=60)
        await rae.send(Contribute(part))
        await asyncio.to_thread(lambda: wait_for(lambda: server.table.phase != "lobby", 60))
        rae.close()
        await asyncio.to_thread(again.wait)
    finally:
        rae.close()
        await server.close()
    out = again.stdout()
    assert "result " in out, out + again.stderr()
    assert re.search("deal NOT verified: .*" + OURS, out), out + again.stderr()


async def _next(raw: Raw, kind: type[Message], timeout: float = 10) -> Message:
    while True:
        message = await raw.message(timeout)
        if isinstance(message, kind):
            return message
