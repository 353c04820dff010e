"""docs/protocol.md section 7, step 1, from outside: a newcomer at a table with no open seat,
because every seat is taken or because the game has begun, is answered a fatal `table_full`
and the connection is closed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.network.processes import host
from tests.outsider.client import OutsideClient
from tests.outsider.table import join, knock, last_word, until_snapshot


@pytest.mark.parametrize("begun", [False, True], ids=["full-lobby", "game-begun"])
def test_a_newcomer_without_a_seat_for_it_gets_a_fatal_table_full(
    tmp_path: Path, begun: bool
) -> None:
    """In the lobby, two players hold both seats and nobody is ready; or a player and a bot
    are playing."""
    bots = "1" if begun else "0"
    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "2", "--bots", bots, "--port", "0",
        "--bind", "127.0.0.1",
    )  # fmt: skip
    try:
        seated = [OutsideClient(port) for _ in range(2 - int(bots))]
        games = [join(c, f"Player {n + 1}", ready=begun) for n, c in enumerate(seated)]
        if begun:
            until_snapshot(seated[0], games[0])
        refusal = last_word(knock(port, "Cid"))
        assert (refusal["code"], refusal["fatal"]) == ("table_full", True), refusal
    finally:
        server.kill()
