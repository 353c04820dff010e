"""The turn clock at a sealed table (docs/sealed.md, section 7, "The turn clock"), over real
loopback sockets with the shipped `TableClient`.

No bot of the host may play a sealed seat, so when a connected player's time runs out, that
player's own program plays its stand-in's move: the game goes on and is verified at the end. A
program modified to ignore the clock is counted absent after `clock_answer` seconds, as one whose
connection is gone; then (and only then) the other players may end the game, and every honest
program's verdict names the absent seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
from pathlib import Path
from typing import Any

import pytest

from netcards.table import Table
from protocol.client import (
    Failed,
    HostRefused,
    SeatTaken,
    TableClient,
    TableClosed,
    ViewChanged,
)
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts
from tests.network.processes import host, own_dirs

CLOCK = 0.4
"""Seconds per decision: long enough for a prompt player on a busy machine, short to wait out."""


class IgnoresTheClock(TableClient):
    """A player's program modified to never play its stand-in's move: it hears its time ran
    out and does nothing, so that the table waits on it."""

    async def _sealed_time_up(self, level: object) -> None:
        return


HEARD: dict[int, list[Any]] = {}
"""Every notice each client's loop took (by the client's id): the host's refusals among them."""


async def heard(client: TableClient) -> Any:
    notice = await client.updates.get()
    HEARD.setdefault(id(client), []).append(notice)
    return notice


NEVER = None
"""`back_after` of a player who never comes back to the keys."""


async def player(
    client: TableClient, back_after: int | None = 0, seed: object = 1
) -> TableClosed | Failed | None:
    """A player until the game's check or the close: ready, then away from the keys (their
    program still runs) until their stand-in has played `back_after` moves (0: never away,
    `NEVER`: never back), then answering every decision at once."""
    rng = random.Random(seed)
    while True:
        notice = await heard(client)
        if isinstance(notice, TableClosed | Failed):
            return notice
        if isinstance(notice, SeatTaken):
            await client.set_ready(True)
        if client.sealed_verdict is not None and client.outcome is not None:
            return None
        back = back_after is not None and client.stand_in_moves >= back_after
        if back and isinstance(notice, ViewChanged) and client.my_turn:
            legal = client.legal_actions()
            if legal:
                with contextlib.suppress(ConnectionError):
                    await client.act(rng.choice(legal))


def table_of(title: str, players: int, bots: int) -> Table:
    table = Table.create(title, players, {}, name="t", host_part=os.urandom(32), sealed=True)
    if bots:
        table.add_bot("random", bots)
    return table


def settings(answer: float = 5.0) -> HostSettings:
    return HostSettings(grace=0.0, turn_clock=CLOCK, clock_answer=answer)


def clients(port: int, folder: Path, kinds: list[type[TableClient]]) -> list[TableClient]:
    return [
        kind(f"127.0.0.1:{port}", f"P{i}", KnownHosts(folder / f"hosts{i}"))
        for i, kind in enumerate(kinds)
    ]


async def stop(tasks: list[asyncio.Task[Any]]) -> None:
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(BaseException):
            await task


@pytest.mark.parametrize(
    ("title", "players"), [("via-gladiola", 2), ("velonimo", 3), ("auf-achse", 3)]
)
async def test_a_player_who_walks_away_has_their_own_program_play_and_the_deal_verifies(
    tmp_path: Path, title: str, players: int
) -> None:
    """Seat 0's user walks away: twice its clock runs out and its program plays its stand-in's
    move (everyone reads `clock_own` about seat 0), then its user is back; the whole game
    verifies."""
    server = TableHost(table_of(title, players, players - 2), IdentityKey.generate(os.urandom),
                       settings=settings())  # fmt: skip
    port = await server.start()
    walker, other = clients(port, tmp_path, [TableClient, TableClient])
    runners = [asyncio.create_task(c.run()) for c in (walker, other)]
    playing = [
        asyncio.create_task(player(walker, back_after=2)),
        asyncio.create_task(player(other, seed=title)),
    ]
    try:
        await asyncio.wait_for(server.finished.wait(), 240)
        await asyncio.wait_for(asyncio.gather(*playing), 30)
        assert walker.stand_in_moves >= 2, "the walker's own program played for it"
        for c in (walker, other):
            assert c.sealed_verdict == "deal verified", c.sealed_verdict
            said = [n for n in c.notices if n.code == "clock_own"]
            assert said and all(n.args["seat"] == walker.seat for n in said)
            assert not any(n.code == "unanswered" for n in c.notices)
        assert other.stand_in_moves == 0, "a prompt player's moves are its own"
        assert server.outcome is not None
    finally:
        await stop([*playing, *runners])
        await server.close()


async def test_two_players_away_at_once_are_each_played_by_their_own_program(
    tmp_path: Path,
) -> None:
    """Auf Achse's choices are simultaneous: both players' clocks run out together, and each
    program plays its stand-in's choice, the other's commitment coming in meanwhile. Nobody is
    counted absent; the deal verifies."""
    server = TableHost(table_of("auf-achse", 3, 1), IdentityKey.generate(os.urandom),
                       settings=settings())  # fmt: skip
    port = await server.start()
    both = clients(port, tmp_path, [TableClient, TableClient])
    runners = [asyncio.create_task(c.run()) for c in both]
    playing = [asyncio.create_task(player(c, back_after=3)) for c in both]
    try:
        await asyncio.wait_for(server.finished.wait(), 240)
        await asyncio.wait_for(asyncio.gather(*playing), 30)
        for c in both:
            assert c.stand_in_moves >= 3, c.stand_in_moves
            assert c.sealed_verdict == "deal verified", c.sealed_verdict
            assert not any(n.code == "unanswered" for n in c.notices)
    finally:
        await stop([*playing, *runners])
        await server.close()


async def test_a_program_that_ignores_the_clock_is_counted_absent_and_the_others_end_the_game(
    tmp_path: Path,
) -> None:
    """Seat 0 runs a modified program that never plays when its time runs out. The host counts
    it absent after `clock_answer`; before that, ending the game is refused; then the other
    player ends it, and every honest verdict names seat 0 as the one that did not play."""
    server = TableHost(table_of("via-gladiola", 3, 1), IdentityKey.generate(os.urandom),
                       settings=settings(answer=0.5))  # fmt: skip
    port = await server.start()
    cheat, honest = clients(port, tmp_path, [IgnoresTheClock, TableClient])
    runners = [asyncio.create_task(c.run()) for c in (cheat, honest)]
    playing = [
        asyncio.create_task(player(cheat, NEVER)),
        asyncio.create_task(player(honest, NEVER)),
    ]
    try:
        # Before anyone is absent: refused, and nothing changes.
        while honest.sealed is None or honest.seat is None:
            await asyncio.sleep(0.01)
        await honest.end_game()
        await until(lambda: refused(honest, "nobody is absent"))
        assert not server.finished.is_set()
        # Both walked away: the honest one's program plays; the cheat's does not, and is
        # counted absent.
        await until(lambda: said(honest, "unanswered", cheat.seat), 60)
        assert server.session.absent_seats() == {cheat.seat}
        assert honest.absent_seats() == {cheat.seat}
        assert cheat.absent_seats() == set(), "a program does not count itself absent"
        await cheat.end_game()  # the absent seat may not end it
        await until(lambda: refused(cheat, "counted absent"))
        assert not server.finished.is_set()
        await honest.end_game()
        await asyncio.wait_for(server.finished.wait(), 10)
        ends = await asyncio.wait_for(asyncio.gather(*playing), 10)
        assert all(isinstance(e, TableClosed) for e in ends), ends
        verdict = honest.sealed_verdict or ""
        assert verdict.startswith("deal not checked: "), verdict
        assert "P0 (seat 1) did not play when its time ran out" in verdict, verdict
        ended = [n for n in honest.notices if n.code == "ended"]
        assert ended and ended[0].args["seat"] == honest.seat
        assert ended[0].args["absent"] == [cheat.seat]
        unchecked = server.session.sealed_unchecked() or []
        assert any("P0 (seat 1) did not play" in line for line in unchecked), unchecked
    finally:
        await stop([*playing, *runners])
        await server.close()


async def test_a_late_move_makes_the_seat_present_again(tmp_path: Path) -> None:
    """A program counted absent that plays after all is back: the others hear it, and ending
    the game is refused again."""
    server = TableHost(table_of("via-gladiola", 2, 0), IdentityKey.generate(os.urandom),
                       settings=settings(answer=0.3))  # fmt: skip
    port = await server.start()
    late, other = clients(port, tmp_path, [IgnoresTheClock, TableClient])
    runners = [asyncio.create_task(c.run()) for c in (late, other)]
    playing = [asyncio.create_task(player(late, NEVER))]
    waiting = asyncio.create_task(player(other, NEVER))
    try:
        await until(lambda: said(other, "unanswered", late.seat), 60)
        assert late.my_turn
        await late.act(late.legal_actions()[0])  # its user comes back and plays
        await until(lambda: said(other, "back", late.seat))
        assert server.session.absent_seats() == set()
        assert other.absent_seats() == set()
        await other.end_game()
        await until(lambda: refused(other, "nobody is absent"))
        assert not server.finished.is_set()
    finally:
        await stop([*playing, waiting, *runners])
        await server.close()


async def test_a_player_whose_program_is_gone_can_be_ended_without_and_is_named(
    tmp_path: Path,
) -> None:
    """No clock at all: a player whose program leaves is waited for; the other player ends the
    game, and its verdict names the seat that left. A spectator may not end it."""
    table = table_of("velonimo", 3, 1)
    server = TableHost(table, IdentityKey.generate(os.urandom), settings=HostSettings(grace=0.0))
    port = await server.start()
    gone, stays = clients(port, tmp_path, [TableClient, TableClient])
    watcher = TableClient(f"127.0.0.1:{port}", "W", KnownHosts(tmp_path / "w"), spectator=True)
    runners = [asyncio.create_task(c.run()) for c in (gone, stays, watcher)]
    watching = asyncio.create_task(player(watcher, NEVER))
    playing = [asyncio.create_task(player(c, seed=i)) for i, c in enumerate([gone, stays])]
    try:
        while stays.sealed is None or not stays.log:
            await asyncio.sleep(0.01)
        playing[0].cancel()
        await gone.leave("I have to go")
        await until(lambda: said(stays, "left", gone.seat) or said(stays, "away", gone.seat))
        await watcher.end_game()
        await until(lambda: refused(watcher, "spectator"))
        assert not server.finished.is_set()
        await stays.end_game()
        await asyncio.wait_for(server.finished.wait(), 10)
        end = await asyncio.wait_for(playing[1], 10)
        assert isinstance(end, TableClosed)
        verdict = stays.sealed_verdict or ""
        assert verdict.startswith("deal not checked: "), verdict
        assert "P0 (seat 1)" in verdict or "seat 1 (P0)" in verdict, verdict
    finally:
        await stop([*playing, watching, *runners])
        await server.close()


def said(client: TableClient, code: str, seat: int | None) -> bool:
    return any(n.code == code and n.args.get("seat") == seat for n in client.notices)


def refused(client: TableClient, words: str) -> bool:
    return any(isinstance(n, HostRefused) and words in n.text for n in HEARD.get(id(client), []))


async def until(condition: Any, timeout: float = 10.0) -> None:
    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(wait(), timeout)


async def test_a_headless_sealed_host_with_a_clock_ends_when_a_player_ends_the_game(
    tmp_path: Path,
) -> None:
    """`netcards host --headless --sealed --turn-clock`: a player's program leaves, the other
    player ends the game, and the host's process prints the results so far and a verdict naming
    that seat, with no traceback, and exits with 1."""
    server, port, _ = host(
        tmp_path, "--game", "velonimo", "--players", "3", "--bots", "1", "--bot-level", "random",
        "--sealed", "--turn-clock", "30", "--port", "0", env=own_dirs(tmp_path / "host"),
    )  # fmt: skip
    gone, stays = clients(port, tmp_path, [TableClient, TableClient])
    runners = [asyncio.create_task(c.run()) for c in (gone, stays)]
    playing = [asyncio.create_task(player(c, seed=i)) for i, c in enumerate((gone, stays))]
    try:
        await until(lambda: stays.sealed is not None and bool(stays.log), 60)
        playing[0].cancel()
        await gone.leave("my train")
        await until(lambda: bool(stays.absent_seats()), 10)
        await stays.end_game()
        code = await asyncio.to_thread(server.wait, 30)
    finally:
        await stop([*playing, *runners])
        server.kill()
    out, err = server.stdout(), server.stderr()
    assert "Traceback" not in err, err
    assert code == 1, "ended before the game's end"
    assert "results so far:\n" in out, out
    assert "deal not checked: " in out, out
    verdict = out[out.index("deal not checked: ") :]
    assert "P0 (seat 1)" in verdict or "seat 1 (P0)" in verdict, verdict
    assert "P0 (seat 1)" in (stays.sealed_verdict or "") or "seat 1 (P0)" in (
        stays.sealed_verdict or ""
    )


async def test_a_time_up_a_modified_host_says_out_of_turn_plays_nothing(tmp_path: Path) -> None:
    """A modified host says a seat's time ran out while that seat has no decision to make (the
    deal is being sealed): its program makes no move, and later, asked to decide, it still
    has none of its stand-in's on the way (a host cannot make a seat move by the clock)."""
    server = TableHost(table_of("via-gladiola", 2, 1), IdentityKey.generate(os.urandom),
                       settings=HostSettings(grace=0.0))  # fmt: skip
    port = await server.start()
    (client,) = clients(port, tmp_path, [TableClient])
    runner = asyncio.create_task(client.run())
    playing = asyncio.create_task(player(client, NEVER))
    try:
        await until(lambda: client.sealed is not None and client.seat is not None, 30)
        assert not client.my_turn, "the deal is still being sealed"
        session = server.session
        session._notice("clock_own", seat=client.seat, name="P0", level="random")
        server._perform(session._take())
        await until(lambda: said(client, "clock_own", client.seat))
        await until(lambda: client.my_turn, 30)
        await asyncio.sleep(0.2)
        assert client.stand_in_moves == 0 and not client.awaiting, "no move was made for it"
        assert client.my_turn, "its decision is still its user's"
    finally:
        await stop([playing, runner])
        await server.close()
