"""A host whose deal is not the one its lobby announced is refused, over loopback sockets.

A modified host could say "sealed" in its lobby (and the LAN listing) and then deal as a
trusted dealer, who sees every hand. The shipped `TableClient` holds the table to what its
lobby said once the player sat down: a classic `commit` or `start` after a sealed lobby, a
sealed one after a lobby that was not, a lobby whose `sealed` flips, or a hand sent to a seat
of a sealed game, ends the client with a fatal error naming the host, and a deal refused at
its `commit` gets no pledge and no seed part of ours."""

from __future__ import annotations

import asyncio
import dataclasses
import os
from pathlib import Path
from typing import Any

import pytest

from netcards.table import Table
from protocol.client import DealChecked, Failed, SeatTaken, TableClient
from protocol.deal_round import DealRound
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts
from protocol.messages import Commit, Contribute, Lobby, Message, Pledge, Start
from protocol.table_session import Effect, TableSession


class Announcing(TableSession):
    """A table that may say of `sealed` something else than what it deals."""

    lobby_says: bool | None = None
    """`lobby.sealed` (None: the truth)."""
    flips: bool = False
    """Once a player is ready, the lobby says the opposite of what it said."""
    commit_says: bool | None = None
    start_says: bool | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.heard: list[Message] = []

    def lobby_message(self) -> Lobby:
        lobby = super().lobby_message()
        says = lobby.sealed if self.lobby_says is None else self.lobby_says
        if self.flips and any(s.ready and s.kind == "human" for s in self.table.seats):
            says = not says
        return dataclasses.replace(lobby, sealed=says)

    def _commit_message(self, round_: DealRound) -> Commit:
        commit = super()._commit_message(round_)
        return (
            commit
            if self.commit_says is None
            else dataclasses.replace(commit, sealed=self.commit_says)
        )

    def _start_message(self, seat: int | None) -> Start:
        start = super()._start_message(seat)
        return (
            start if self.start_says is None else dataclasses.replace(start, sealed=self.start_says)
        )

    def received(self, number: int, message: Message, now: float) -> list[Effect]:
        self.heard.append(message)
        return super().received(number, message, now)


class AnnouncingHost(TableHost):
    session_class = Announcing


async def refused(
    tmp_path: Path, sealed: bool, **lies: Any
) -> tuple[TableClient, Failed, Announcing]:
    """Ann joins a Via Gladiola table for two (a bot in the other seat), readies, and plays
    whatever comes; the host's session tells the lies asked for."""
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=os.urandom(32), sealed=sealed)
    table.add_bot("random", 1)
    server = AnnouncingHost(table, IdentityKey.generate(os.urandom), settings=HostSettings())
    session = server.session
    assert isinstance(session, Announcing)
    for name, value in lies.items():
        setattr(session, name, value)
    port = await server.start()
    ann = TableClient(f"127.0.0.1:{port}", "Ann", KnownHosts(tmp_path / "hosts"))
    runner = asyncio.create_task(ann.run())
    checked = False
    try:
        while True:
            notice = await asyncio.wait_for(ann.updates.get(), 30)
            if isinstance(notice, SeatTaken):
                await ann.set_ready(True)
            elif isinstance(notice, DealChecked):
                checked = not notice.verdict.ok
            elif isinstance(notice, Failed):
                break
        await asyncio.wait_for(ann.wait_done(), 10)
        await asyncio.sleep(0.2)  # anything Ann sent before she left has reached the host
    finally:
        runner.cancel()
        await server.close()
    assert checked, "the verdict says the deal was not verified"
    return ann, notice, session


def sent_of_the_deal(session: Announcing) -> list[Message]:
    return [m for m in session.heard if isinstance(m, Pledge | Contribute)]


@pytest.mark.parametrize(
    ("sealed", "lies", "said"),
    [
        (False, {"lobby_says": True}, "the table said sealed but deals as a trusted dealer"),
        (True, {"lobby_says": False}, "the table said it is not sealed but deals sealed"),
        (True, {"flips": True}, "the table said sealed, then that it is not"),
        (False, {"flips": True}, "the table said it is not sealed, then that it is"),
    ],
    ids=["sealed-lobby-classic-commit", "plain-lobby-sealed-commit", "flip-off", "flip-on"],
)
async def test_a_deal_unlike_the_lobby_is_refused_before_anything_of_it_is_sent(
    tmp_path: Path, sealed: bool, lies: dict[str, Any], said: str
) -> None:
    ann, failed, session = await refused(tmp_path, sealed, **lies)
    assert failed.code == "sealed_lie"
    assert said in failed.reason
    assert f"the host 127.0.0.1:{ann.port}" in failed.reason, "the host is named"
    assert ann.verdict is not None and not ann.verdict.ok
    assert said in ann.verdict.problems[0]
    assert sent_of_the_deal(session) == [], "no pledge, no seed part"
    assert ann.game is None and ann.view is None, "no game was started here"


async def test_a_sealed_commit_then_a_classic_start_is_refused(tmp_path: Path) -> None:
    """The host lies in its commit too: the pledge and the part went out for what was said to
    be a sealed game's public seed, and the classic `start` is refused before any hand."""
    ann, failed, _ = await refused(tmp_path, False, lobby_says=True, commit_says=True)
    assert failed.code == "sealed_lie"
    assert "the table said sealed but deals as a trusted dealer (its start is not sealed)" in (
        failed.reason
    )
    assert ann.game is None and ann.view is None and ann.sealed is None


async def test_a_hand_sent_to_a_seat_of_a_sealed_game_is_refused(tmp_path: Path) -> None:
    """Everything says sealed, but the host deals classically and sends Ann her hand: a host
    that knows it saw it, and the client refuses the snapshot instead of playing it."""
    ann, failed, _ = await refused(
        tmp_path, False, lobby_says=True, commit_says=True, start_says=True
    )
    assert failed.code == "sealed_lie"
    assert "the table said sealed but deals as a trusted dealer (it sent our hand)" in failed.reason
    assert ann.view is None, "the hand the host sent is not shown"


async def test_an_honest_sealed_table_is_not_refused_at_its_deal(tmp_path: Path) -> None:
    """The control: the same table, telling the truth, gets Ann's pledge and part and starts
    its sealed game."""
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=os.urandom(32), sealed=True)
    table.add_bot("random", 1)
    server = AnnouncingHost(table, IdentityKey.generate(os.urandom), settings=HostSettings())
    session = server.session
    assert isinstance(session, Announcing)
    port = await server.start()
    ann = TableClient(f"127.0.0.1:{port}", "Ann", KnownHosts(tmp_path / "hosts"))
    runner = asyncio.create_task(ann.run())
    try:
        while ann.sealed is None:
            notice = await asyncio.wait_for(ann.updates.get(), 30)
            assert not isinstance(notice, Failed), notice
            if isinstance(notice, SeatTaken):
                await ann.set_ready(True)
    finally:
        await ann.leave("done")
        runner.cancel()
        await server.close()
    assert [type(m) for m in sent_of_the_deal(session)] == [Pledge, Contribute]
