"""A sealed Auf Achse table over real loopback sockets with the shipped `TableClient`: players
who pick random legal moves from the classic view (their run cards and Free roads go out as
commitments, then openings), the host's bots playing their seats in memory, five stages each
sealed anew, and every program's audit saying `deal verified`. A player whose opening does not
match its commitment is refused, and every player is told who."""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path
from typing import Any

import pytest

from netcards.table import Table
from protocol.client import HostRefused, SeatTaken, TableClient, ViewChanged
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts
from protocol.sealed.messages import SealMessage
from protocol.sealed_play import choices
from tests.network.test_sealed_table import sealed_game
from tests.protocol.test_sealed_game_choices import FAST


async def auf_achse(
    tmp_path: Path, players: int, bots: list[int]
) -> tuple[Table, TableHost, list[TableClient]]:
    return await sealed_game(tmp_path, players, bots, "auf-achse", {"deck": FAST}, within=240)


@pytest.mark.parametrize(("players", "bots"), [(2, [1]), (5, [1, 3, 4])])
async def test_an_honest_sealed_auf_achse_game_is_played_and_verified(
    tmp_path: Path, players: int, bots: list[int]
) -> None:
    table, server, clients = await auf_achse(tmp_path, players, bots)
    assert [c.sealed_verdict for c in clients] == ["deal verified"] * len(clients)
    host = server.session.sealed_host
    assert host is not None and host.verdict == "deal verified"
    assert table.phase == "over" and len(table.state.history) == 5
    # Every stage was sealed anew, and every seat's choices were committed and then opened.
    assert sum(kept.round.size == 109 for kept in host.relay.rounds.values()) == 5
    assert {seat for seat, _ in host.openings} == set(range(players))
    for c in clients:
        assert c.sealed is not None and c.sealed.openings == host.openings


async def test_a_player_whose_opening_does_not_match_its_commitment_is_named_to_everyone(
    tmp_path: Path,
) -> None:
    """Two players and a bot; the cheat's program opens its run card with another nonce than
    the one it committed with. The host refuses it (`wrong_opening`) and tells every player
    which seat it was; the game does not go on without that opening."""
    table = Table.create(
        "auf-achse", 3, {"deck": FAST}, name="t", host_part=os.urandom(32), sealed=True
    )
    table.add_bot("random", 2)
    server = TableHost(table, IdentityKey.generate(os.urandom), settings=HostSettings())
    port = await server.start()
    cheat, honest = (
        TableClient(f"127.0.0.1:{port}", name, KnownHosts(tmp_path / name)) for name in "CH"
    )
    runners = [asyncio.create_task(c.run()) for c in (cheat, honest)]
    refusal: list[HostRefused] = []

    def lie(body: dict[str, Any]) -> dict[str, Any]:
        return {**body, "nonce": bytes(b ^ 1 for b in body["nonce"])}

    def lying(seat: Any) -> None:
        """The cheat's program opens each choice with a nonce it did not commit with."""
        honest_open = seat._open_choice

        def lying_open() -> list[SealMessage]:
            return [seat.driver.sign(choices.CHOICE, lie(dict(m.body)), 0) for m in honest_open()]

        seat.lying = True
        seat._open_choice = lying_open

    async def until_named(c: TableClient, rng: random.Random) -> None:
        while not [n for n in c.notices if n.code == "cheated"] or (c is cheat and not refusal):
            notice = await asyncio.wait_for(c.updates.get(), 30)
            if isinstance(notice, SeatTaken):
                await c.set_ready(True)
            if isinstance(notice, HostRefused) and c is cheat:
                refusal.append(notice)
            if c is cheat and c.sealed is not None and "lying" not in vars(c.sealed):
                lying(c.sealed)
            if isinstance(notice, ViewChanged) and c.my_turn and c.legal_actions():
                await c.act(rng.choice(c.legal_actions()))

    try:
        await asyncio.wait_for(
            asyncio.gather(
                until_named(cheat, random.Random(1)), until_named(honest, random.Random(2))
            ),
            120,
        )
    finally:
        for c in (cheat, honest):
            await c.leave("done")
        for r in runners:
            r.cancel()
        await server.close()
    for c in (cheat, honest):
        said = [n for n in c.notices if n.code == "cheated"]
        assert said[0].args["seat"] == cheat.seat and said[0].args["kind"] == "wrong_opening"
    assert refusal and refusal[0].code == "cheated" and "wrong_opening" in refusal[0].text
    host = server.session.sealed_host
    assert host is not None and all(seat != cheat.seat for seat, _ in host.openings)


@pytest.mark.parametrize("title", ["auf-achse", "via-gladiola"])
async def test_a_commitment_is_on_the_disk_before_it_is_relayed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, title: str
) -> None:
    """A choice's nonce comes from its seat's seed and the step: a commitment lost with a host
    whose machine crashed would be made again under the same nonce, maybe for another choice,
    and the first could be tested against the second's opening. So at a title with
    simultaneous choices every move a player sends is journalled durably before it is relayed;
    elsewhere (Via Gladiola) moves keep the journal's usual flush-now, sync-soon."""
    from protocol.sealed.messages import SealAct, decode
    from protocol.table_session.effects import Journal
    from protocol.wire import unpack

    kept: list[tuple[bool, Any]] = []
    real = TableHost._journal

    def spying(self: TableHost, effect: Journal) -> None:
        if effect.record.get("type") == "sealed":
            kept.append((effect.durable, decode(unpack(bytes.fromhex(effect.record["message"])))))
        real(self, effect)

    monkeypatch.setattr(TableHost, "_journal", spying)
    options = {"deck": FAST} if title == "auf-achse" else {}
    await sealed_game(tmp_path, 2, [1], title, options, within=240)
    moves = [durable for durable, msg in kept if isinstance(msg, SealAct)]
    others = [durable for durable, msg in kept if not isinstance(msg, SealAct)]
    assert moves and others and not any(others)
    assert all(moves) if title == "auf-achse" else not any(moves)
