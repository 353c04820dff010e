"""Sealed Velonimo over real loopback sockets with the shipped `TableClient`: players making
random legal moves beside the host's bots; every program says `deal verified`, and turtles'
steals were made by public random draws and passed to the stealer alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.network.test_sealed_table import sealed_game


@pytest.mark.parametrize(("players", "bots"), [(2, [1]), (3, [1]), (5, [1, 3])])
async def test_an_honest_sealed_velonimo_game_is_verified_in_every_program(
    tmp_path: Path, players: int, bots: list[int]
) -> None:
    options = {"difficulties": [1, 2]}
    table, server, clients = await sealed_game(tmp_path, players, bots, "velonimo", options)
    host = server.session.sealed_host
    assert [c.sealed_verdict for c in clients] == ["deal verified"] * len(clients)
    assert host.verdict == "deal verified" and table.phase == "over"
    assert host.relay.draws.values, "no turtle stole"
    assert any(kept.moves.passed for kept in host.relay.rounds.values())
    for c in clients:
        assert c.sealed is not None and c.sealed.mirror.draws_done == len(host.relay.draws.values)
