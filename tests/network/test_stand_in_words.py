"""The log tells a player's own moves from those a bot made in their seat: the host's stand-in
while they were away (back in the same program, or in a program started again), and the turn
clock's bot while they were there. The host's updates name only the seat that acted; the
client knows which of them answered its own actions."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from netcards.table import Table
from protocol.client import ClientSettings, TableClient
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts
from protocol.own_moves import OwnMoves
from protocol.seat_tokens import SeatTokens
from ui import i18n
from ui.games.via_gladiola import ViaGladiolaScreen

ANN = 0


async def until(what: str, condition: Callable[[], bool], timeout: float = 30) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def open_table(**settings: Any) -> TableHost:
    """Via Gladiola for Ann (seat 0, who plays first) and a bot."""
    table = Table.create(
        "via-gladiola", 2, {"first_player": ANN}, name="Club", host_part=os.urandom(32)
    )
    table.add_bot("heuristic", 1)
    host = TableHost(table, IdentityKey(bytes(range(32))), settings=HostSettings(**settings))
    await host.start("127.0.0.1", 0)
    return host


class Ann:
    """Ann's program: a client whose notes of her own moves are kept as the app keeps them."""

    def __init__(self, port: int, tmp: Path, token: bytes | None = None) -> None:
        self.address = f"127.0.0.1:{port}"
        self.tokens = SeatTokens(tmp / "seats")
        self.client = TableClient(
            self.address,
            "Ann",
            KnownHosts(tmp / "hosts"),
            token=token,
            moves=OwnMoves.restore(self.tokens.load_moves(self.address, "Ann")),
            keep_moves=lambda m: self.tokens.save_moves(self.address, "Ann", m.to_data()),
            # Away long enough for the stand-in to play her turns before she is back.
            settings=ClientSettings(retry_delays=(2.0,)),
        )
        self.runner = asyncio.create_task(self.client.run())

    async def play(self) -> None:
        """Ann's own move, once it is her turn (the first legal one)."""
        client = self.client
        await until("Ann's turn", lambda: client.my_turn and bool(client.legal_actions()))
        await client.act(client.legal_actions()[0])
        await until("the host's answer", lambda: not client.awaiting)

    def drop(self) -> None:
        """The link is cut under her (no goodbye)."""
        assert self.client._writer is not None
        self.client._writer.transport.abort()

    async def close(self) -> None:
        """The program ends (its link, if it has one, goes with it)."""
        self.runner.cancel()
        if self.client._writer is not None:
            self.drop()


def seats_moves(host: TableHost) -> list[int]:
    """The seqs of the moves made in Ann's seat, by anyone, as the host applied them."""
    return [n for n, (seat, _) in enumerate(host.table.actions, 1) if seat == ANN]


def log_lines(client: TableClient) -> dict[int, list[str]]:
    """Ann's log as her screen words it, step by step (seq -> its lines)."""
    screen = ViaGladiolaScreen(SimpleNamespace(client=client))  # type: ignore[arg-type]
    by_bot = screen.stand_in_events()
    lines: dict[int, list[str]] = {}
    index = 0
    for seq, events in client.steps:
        for event in events:
            line = screen.log_line(event, index in by_bot)
            if line and event.get("seat") == ANN and event["kind"] in screen.move_kinds:
                lines.setdefault(seq, []).append(line)
            index += 1
    return lines


def assert_words(client: TableClient, own: set[int], stand_in: set[int]) -> None:
    lines = log_lines(client)
    assert own and stand_in and own | stand_in <= set(lines)
    for seq in own:
        assert all(line.startswith("You ") for line in lines[seq]), (seq, lines[seq])
    for seq in stand_in:
        assert all(line.startswith("Your stand-in ") for line in lines[seq]), (seq, lines[seq])


async def test_moves_the_stand_in_made_while_ann_was_away_are_the_stand_ins(
    tmp_path: Path,
) -> None:
    i18n.use("en")
    host = await open_table(grace=0.1, bot_delay=0.2)
    programs: list[Ann] = []
    try:
        first = Ann(host.port, tmp_path)
        programs.append(first)
        client = first.client
        await until("Ann seated", lambda: client.token is not None)
        await client.set_ready(True)
        await first.play()
        await first.play()
        own = set(seats_moves(host))
        assert len(own) == 2

        # Her link drops; after the grace period the stand-in plays her turns.
        first.drop()
        await until("the stand-in's move", lambda: len(seats_moves(host)) > len(own))
        await until("Ann back", lambda: client.moves.by_bot and client.my_turn, 15)
        stand_in = set(seats_moves(host)) - own
        assert_words(client, own, stand_in)

        # She plays again, drops again, and this program dies while the stand-in plays.
        await first.play()
        own = set(seats_moves(host)) - stand_in
        first.drop()
        before = set(seats_moves(host))
        await until("the stand-in again", lambda: len(seats_moves(host)) > len(before))
        await first.close()
        stand_in = set(seats_moves(host)) - own
        assert max(own) > min(stand_in) and max(stand_in) > max(own)

        # Started again, with her seat token and what the first program kept on disk.
        again = Ann(host.port, tmp_path, token=client.token)
        programs.append(again)
        await until("Ann back again", lambda: again.client.my_turn, 15)
        assert again.client.moves.mine.isdisjoint(stand_in)
        assert_words(again.client, own, stand_in)
    finally:
        for program in programs:
            program.runner.cancel()
        await host.close()


async def test_a_move_the_turn_clock_made_for_ann_is_the_stand_ins(tmp_path: Path) -> None:
    i18n.use("en")
    host = await open_table(turn_clock=1.5, bot_delay=0.05)
    ann = Ann(host.port, tmp_path)
    try:
        client = ann.client
        await until("Ann seated", lambda: client.token is not None)
        await client.set_ready(True)
        await ann.play()
        own = set(seats_moves(host))
        # Ann does not play: her time runs out and the clock's bot plays her turn.
        await until("the clock's move", lambda: len(seats_moves(host)) > len(own))
        clocked = set(seats_moves(host)) - own
        await until("the update", lambda: client.seq >= max(clocked))
        assert_words(client, own, clocked)
        saved = ann.tokens.load_moves(ann.address, "Ann")
        assert saved is not None and saved["last_own_seq"] == max(own)
    finally:
        await ann.close()
        await host.close()
