"""A host that tries to choose the deal is caught by every honest client, over real sockets.

The host here is a `TableHost` patched to cheat, in the test's process; the players are real
`netcards bot` processes with the honest client. Each cheat is one the old protocol let
through with "deal verified": a new host part chosen after the players revealed theirs, a
contribution for a seat that never pledged, the host's own seat choosing its part last, and a
deal called off after the reveals to get another one; and, beyond the deal, a draw pile
reordered in the middle of play, which only the replay at the end can show. Every client refuses the deal before
playing a card of it, or, where only the reveal at the end can show it, says "deal NOT
verified" with the reason; an honest host is verified.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from netcards.fairdeal import pledge
from netcards.table import Table
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.messages import Commit, Join, Message, Pledge, Ready, Seated, Start
from protocol.seat_tokens import SeatTokens
from protocol.settings import data_dir
from protocol.table_session import Member, TableSession
from tests.network.processes import Proc, bot, read_trace, spawn, wait_for
from tests.network.raw import Raw, connect

HOST_SEAT = 2
"""In these tables seat 2 belongs to the host: its bot, or its own player."""


class CheatSession(TableSession):
    cheat = "honest"

    def _deal(self) -> None:
        round_ = self.round
        if round_ is None or not round_.all_revealed or self.cheat == "honest":
            super()._deal()
            return
        table = self.table
        if self.cheat == "late_host_part":  # a new secret part, after seeing the players' parts
            table.host_part = os.urandom(32)
        elif self.cheat == "late_host_part_same_commitment":  # ... announced with the old hash
            kept = table.commit
            table.host_part = os.urandom(32)
            make_start = self._start_message
            self._start_message = lambda seat: replace(make_start(seat), commitment=kept)  # type: ignore[method-assign]
        elif self.cheat in ("invented_contributor", "host_seat_last"):
            # A part for its bot seat that never pledged, or its own player's part replaced,
            # chosen now that every other part is known.
            self._patch_parts(lambda parts: {**parts, HOST_SEAT: os.urandom(32)})
        elif self.cheat == "redeal_after_reveal":
            self.cheat = "honest"  # once: call the deal off, then deal again
            self._call_off("pretending someone left")
            self._maybe_deal()
            return
        super()._deal()

    def _catch_up(self, peer: Member) -> None:
        if self.cheat == "rewrite_on_rejoin" and self.table.phase == "playing":
            self.table.host_part = os.urandom(32)  # told only to a player who comes back
        super()._catch_up(peer)

    def _after_action(self, events: list[Any]) -> None:
        if self.cheat == "swap_draw_pile" and len(self.table.actions) == 3:
            self.table.state.draw.reverse()  # the host reorders the pile in the middle of play
        super()._after_action(events)

    def _close_pledges(self) -> None:
        if self.cheat == "invented_pledge" and self.round is not None:
            self.round.pledges[HOST_SEAT] = pledge(HOST_SEAT, os.urandom(32))
        super()._close_pledges()

    def _patch_parts(self, change: Callable[[dict[int, bytes]], Mapping[int, bytes]]) -> None:
        real = self.table.use_contributions
        self.table.use_contributions = lambda parts: real(change(dict(parts)))  # type: ignore[method-assign]


class Cheat(TableHost):
    session_class = CheatSession

    @property
    def cheat(self) -> str:
        assert isinstance(self.session, CheatSession)
        return self.session.cheat

    @cheat.setter
    def cheat(self, value: str) -> None:
        assert isinstance(self.session, CheatSession)
        self.session.cheat = value


async def play(tmp_path: Path, cheat: str, own_player: bool) -> tuple[Cheat, list[Proc]]:
    """A 3-seat table: two bot processes, and seat 2 the host's (its bot or its own player)."""
    table = Table.create("via-gladiola", 3, {}, name="t", host_part=os.urandom(32))
    owner = os.urandom(32)
    if own_player:
        table.claim_seat("Host", owner.hex(), seat=HOST_SEAT)
        table.seats[HOST_SEAT].connected = False
    else:
        table.add_bot("random", HOST_SEAT)
    server = Cheat(
        table,
        IdentityKey.generate(os.urandom),
        settings=HostSettings(pledge_timeout=20, contribute_timeout=20),
        owner_token=owner if own_player else None,
    )
    server.cheat = cheat
    port = await server.start()
    players = []
    if own_player:  # the host's own player sits down (and is ready) before the others come
        players.append(_own_player(tmp_path, port, owner))
        await asyncio.to_thread(
            wait_for, lambda: table.seats[HOST_SEAT].connected, 60, "the host's own player"
        )
        table.set_ready(HOST_SEAT, True)
    players += [bot(tmp_path, port, name, "--level", "random") for name in ("Ann", "Bea")]
    try:
        for proc in players:
            await asyncio.to_thread(proc.wait)
    finally:
        await server.close()
    return server, players


def _own_player(tmp_path: Path, port: int, owner: bytes) -> Proc:
    """The host's own player: an honest client holding the owner's seat token."""
    data = tmp_path / "own-data"
    SeatTokens(data / "seats").save(f"127.0.0.1:{port}", "Host", owner)
    return spawn(
        tmp_path, "Host", "bot", f"127.0.0.1:{port}", "--name", "Host", "--level", "random",
        env={**os.environ, "NETCARDS_DATA_DIR": str(data)},
    )  # fmt: skip


CAUGHT_BEFORE_THE_DEAL = {
    "late_host_part": "commitment in 'start' is not the one it committed to",
    # In words a person reads, seats count from 1 (HOST_SEAT counts from 0, as on the wire).
    "invented_contributor": f"seat {HOST_SEAT + 1} has a seed part but made no pledge",
    "invented_pledge": f"published a pledge for seat(s) [{HOST_SEAT + 1}], which were never asked",
    "host_seat_last": f"seat {HOST_SEAT + 1}'s seed part is not the one it pledged",
}


@pytest.mark.parametrize("cheat", sorted(CAUGHT_BEFORE_THE_DEAL))
async def test_a_cheating_host_is_refused_before_the_deal_is_used(
    tmp_path: Path, cheat: str
) -> None:
    server, players = await play(tmp_path, cheat, own_player=cheat == "host_seat_last")
    for proc in players:
        out = proc.stdout()
        assert "deal NOT verified: " in out and CAUGHT_BEFORE_THE_DEAL[cheat] in out, (
            proc.name + ":\n" + out + proc.stderr()
        )
        assert "result " not in out, f"{proc.name} played the rigged deal"
        assert proc.popen.returncode != 0
    assert all(seat == HOST_SEAT for seat, _ in server.table.actions), "no player acted"


@pytest.mark.parametrize(
    ("cheat", "reason"),
    [
        ("late_host_part_same_commitment", "the host's seed part does not match its commitment"),
        ("redeal_after_reveal", r"the deal was made again 1 time\(s\) after our seed part"),
        ("swap_draw_pile", "differs from the replay|is illegal"),
    ],
)
async def test_what_only_the_end_can_show_is_reported_by_the_end_of_game_check(
    tmp_path: Path, cheat: str, reason: str
) -> None:
    _, players = await play(tmp_path, cheat, own_player=False)
    for proc in players:
        out = proc.stdout()
        assert "result " in out and "deal NOT verified: " in out, proc.name + ":\n" + out
        assert re.search(reason, out), proc.name + ":\n" + out + proc.stderr()


async def test_an_honest_host_is_verified_by_every_player_including_its_own(
    tmp_path: Path,
) -> None:
    server, players = await play(tmp_path, "honest", own_player=True)
    for proc in players:
        assert proc.popen.returncode == 0, proc.stdout() + proc.stderr()
        assert "deal verified" in proc.stdout()
    assert sorted(server.table.contributions()) == [0, 1, HOST_SEAT], "every player took part"


@pytest.mark.parametrize("kept_notes", [True, False], ids=["notes-kept", "notes-lost"])
async def test_a_restarted_player_holds_the_host_to_the_deal_it_saw(
    tmp_path: Path, kept_notes: bool
) -> None:
    """A player's program dies mid-game and starts again. With the notes it kept next to its
    seat token it refuses a host that now shows it another commitment; a program that lost
    its notes can only check the replay, and says so."""
    table = Table.create("via-gladiola", 3, {}, name="t", host_part=os.urandom(32))
    table.add_bot("random", HOST_SEAT)
    server = Cheat(table, IdentityKey.generate(os.urandom), settings=HostSettings(grace=1))
    server.cheat = "rewrite_on_rejoin" if kept_notes else "honest"
    port = await server.start()
    address = f"127.0.0.1:{port}"
    trace = tmp_path / "ann.jsonl"
    try:
        ann = bot(
            tmp_path, port, "Ann", "--level", "random", "--delay", "0.05", "--log", str(trace)
        )
        bea = bot(tmp_path, port, "Bea", "--level", "random", "--delay", "0.05")
        await asyncio.to_thread(
            wait_for, lambda: len(read_trace(trace)) >= 12, 60, "the game to get going"
        )
        ann.kill()
        tokens = SeatTokens(data_dir() / "seats")
        assert tokens.load_deal(address, "Ann") is not None, "the notes were kept"
        if not kept_notes:
            token = tokens.load(address, "Ann")
            assert token is not None
            tokens.save(address, "Ann", token)  # the token alone, as an older release kept it
            tokens.forget_deal(address, "Ann")  # and the notes lost
        again = spawn(tmp_path, "Ann-again", "bot", address, "--name", "Ann", "--level", "random")
        await asyncio.to_thread(again.wait)
        await asyncio.to_thread(bea.wait)
    finally:
        await server.close()
    out = again.stdout()
    if kept_notes:
        assert "deal NOT verified: the host's commitment in 'start' is not the one" in out, out
        assert "result " not in out
        assert "deal NOT verified: the host's seed part does not match" in bea.stdout()
    else:
        assert "deal verified" in out and "note: we did not see the deal being made" in out, out


async def test_a_player_who_keeps_its_part_cannot_hold_the_table_back(tmp_path: Path) -> None:
    """A player pledges and never reveals: the round is called off and made again without it
    (the host says so), the game is played, and the honest player's check reports that the
    deal was made again after its part was known (whoever withheld could have chosen)."""
    table = Table.create("via-gladiola", 3, {}, name="t", host_part=os.urandom(32))
    table.add_bot("random", HOST_SEAT)
    lines: list[str] = []
    server = TableHost(
        table,
        IdentityKey.generate(os.urandom),
        settings=HostSettings(contribute_timeout=0.5, grace=0.3),
        log=lines.append,
    )
    port = await server.start()
    silent = await connect(port)
    try:
        await silent.handshake()
        await silent.send(Join("Silent", None, False))
        seated = await _next(silent, Seated)
        assert isinstance(seated, Seated) and seated.seat is not None
        await silent.send(Ready(True))
        ann = bot(tmp_path, port, "Ann", "--level", "random")
        first = await _next(silent, Commit)
        assert isinstance(first, Commit) and seated.seat in first.seats
        await silent.send(Pledge(pledge(seated.seat, os.urandom(32))))  # and never a part
        again = await _next(silent, Commit, timeout=30)  # the deal is made again...
        assert isinstance(again, Commit) and again.commitment == first.commitment, "its part"
        assert seated.seat not in again.seats, "...without the seat that kept its part"
        assert set(again.seats) == set(first.seats) - {seated.seat}
        await _next(silent, Start, timeout=30)
        silent.close()  # gone: a stand-in plays its seat
        await asyncio.to_thread(ann.wait)
    finally:
        silent.close()
        await server.close()
        if "ann" in locals():
            ann.kill()
    assert any("Silent did not reveal their seed part in time" in line for line in lines)
    out = ann.stdout()
    assert "result " in out, out + ann.stderr()
    assert "deal NOT verified: the deal was made again 1 time(s)" in out, out


async def _next(raw: Raw, kind: type[Message], timeout: float = 10) -> Message:
    while True:
        message = await raw.message(timeout)
        if isinstance(message, kind):
            return message
