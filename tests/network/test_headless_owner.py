"""`host --headless --owner NAME`: the player who joins under that name owns the table and may
add bots and change options from afar; anyone else is refused."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from protocol.client import HostRefused, Notice, TableClient
from protocol.known_hosts import KnownHosts
from tests.network.processes import NETCARDS, host


async def until(client: TableClient, done: Callable[[Notice], bool]) -> Notice:
    while True:
        notice = await asyncio.wait_for(client.updates.get(), 10)
        if done(notice):
            return notice


async def test_the_named_owner_adds_a_bot_from_afar_and_others_may_not(tmp_path: Path) -> None:
    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "3", "--port", "0", "--owner", "Ann"
    )
    hosts = KnownHosts(tmp_path / "hosts")
    bob = TableClient(f"127.0.0.1:{port}", "Bob", hosts)
    ann = TableClient(f"127.0.0.1:{port}", "Ann", hosts)
    runners = [asyncio.create_task(c.run()) for c in (bob, ann)]
    try:
        await until(bob, lambda _: bob.lobby is not None)
        await until(ann, lambda _: ann.lobby is not None)
        assert ann.owner and not bob.owner
        assert ann.lobby is not None and ann.lobby.table == "Ann's table", "named after its owner"
        await bob.add_bot(2, "random")
        refused = await until(bob, lambda n: isinstance(n, HostRefused))
        assert isinstance(refused, HostRefused) and refused.code == "not_allowed"
        await ann.add_bot(2, "random")
        await until(ann, lambda _: ann.lobby is not None and ann.lobby.seats[2].kind == "bot")
        assert ann.lobby is not None and ann.lobby.seats[2].bot_level == "random"
    finally:
        for r in runners:
            r.cancel()
        server.kill()
    assert "Ann owns the table" in server.stderr()


def test_a_change_of_options_keeps_the_deck_and_a_bot_player_readies_again(
    tmp_path: Path,
) -> None:
    """The owner changes the table from afar: the host's own deck (which no lobby shows) stays
    unless the change names another, and a `netcards bot` seated there, told its seat again,
    is ready again, so the game still starts."""
    from netcards.games.via_gladiola.cards import deck_for
    from protocol.client import SeatTaken
    from tests.network.processes import bot, wait_for

    deck = tmp_path / "deck.toml"
    house = subprocess.run(
        [*NETCARDS, "deck", "via-gladiola"], capture_output=True, text=True, check=True
    ).stdout
    deck.write_text(house.replace("= 5", "= 4", 1))  # one card fewer blisters than the house's
    custom = deck.read_text()
    assert deck_for(custom).blisters != deck_for(None).blisters
    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "3", "--port", "0", "--owner", "Ann",
        "--deck", str(deck),
    )  # fmt: skip

    robo: list[Any] = []  # the bot's process, killed at the end: it would wait for its host

    async def play() -> None:
        ann = TableClient(f"127.0.0.1:{port}", "Ann", KnownHosts(tmp_path / "hosts"))
        runner = asyncio.create_task(ann.run())
        try:
            await until(ann, lambda _: ann.lobby is not None and ann.owner)
            robo.append(bot(tmp_path, port, "Robo", "--level", "random"))
            await until(ann, lambda _: ann.lobby is not None and ann.lobby.seats[1].ready)
            await ann.set_options("via-gladiola", 4, {"variant_last_card": True})
            await until(ann, lambda n: isinstance(n, SeatTaken))
            await until(ann, lambda _: ann.lobby is not None and ann.lobby.players == 4)
            await until(ann, lambda _: ann.lobby is not None and ann.lobby.seats[1].ready)
            await ann.add_bot(2, "random")
            await ann.add_bot(3, "random")
            await ann.set_ready(True)
            await until(ann, lambda _: ann.game is not None)
            assert ann.config is not None and ann.config.options["variant_last_card"] is True
            assert ann.config.options.get("deck") == custom, "the host's deck was kept"
            wait_for(lambda: robo[0].popen.poll() is not None or "seat 2" in robo[0].stderr(), 10)
        finally:
            runner.cancel()

    try:
        asyncio.run(play())
    finally:
        server.kill()
        for proc in robo:
            proc.kill()


async def test_a_smaller_table_says_which_bots_left_and_everyone_hears_the_change(
    tmp_path: Path,
) -> None:
    """Bots beyond the new seat count leave: the others are told who, not left to count."""
    from protocol.client import TableSays

    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "4", "--port", "0", "--owner", "Ann"
    )
    hosts = KnownHosts(tmp_path / "hosts")
    ann = TableClient(f"127.0.0.1:{port}", "Ann", hosts)
    bob = TableClient(f"127.0.0.1:{port}", "Bob", hosts)
    runners = [asyncio.create_task(ann.run())]
    try:
        await until(ann, lambda _: ann.owner and ann.lobby is not None)
        # Bob joins once Ann has her seat: the first, as the seats asserted below say.
        runners.append(asyncio.create_task(bob.run()))
        await until(bob, lambda _: bob.lobby is not None)
        for seat in (2, 3):
            await ann.add_bot(seat, "random")
        await until(bob, lambda _: bob.lobby is not None and bob.lobby.seats[3].kind == "bot")
        await ann.set_options("velonimo", 3, {})
        said = await until(bob, lambda n: isinstance(n, TableSays) and n.code == "changed")
        assert isinstance(said, TableSays) and said.args == {"game": "Velonimo", "players": 3}
        left = await until(bob, lambda n: isinstance(n, TableSays) and n.code == "bot_left")
        assert isinstance(left, TableSays) and left.args == {"name": "Bot 4"}
        await until(bob, lambda _: bob.lobby is not None and bob.lobby.players == 3)
        assert bob.lobby is not None
        assert [s.name for s in bob.lobby.seats] == ["Ann", "Bob", "Bot 3"]
    finally:
        for r in runners:
            r.cancel()
        server.kill()
    assert "Bot 4 leaves: no seat for it at the smaller table" in server.stderr()
    assert "the table is now Velonimo, 3 seats" in server.stderr()
