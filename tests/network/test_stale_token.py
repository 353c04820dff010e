"""A seat token saved from an earlier table at the same address does not stop `netcards bot`:
the host refuses it, the bot drops it and sits down as a new player."""

from __future__ import annotations

import os
from pathlib import Path

from protocol.deal_witness import DealWitness
from protocol.seat_tokens import SeatTokens
from protocol.settings import data_dir
from tests.network.processes import bot, host


def test_a_bot_whose_saved_token_is_refused_joins_as_a_new_player(tmp_path: Path) -> None:
    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "2", "--bots", "1", "--port", "0"
    )
    address = f"127.0.0.1:{port}"
    tokens = SeatTokens(data_dir() / "seats")
    earlier = DealWitness()  # what Ann saw of the earlier table's deal, kept with its token
    earlier.on_commit(os.urandom(32), [0], 0, os.urandom)
    tokens.save(address, "Ann", os.urandom(32), earlier.to_data())
    try:
        ann = bot(tmp_path, port, "Ann")
        assert ann.wait() == 0, ann.stderr()
        assert server.wait() == 0, server.stderr()
    finally:
        server.kill()
    assert "seat token is not valid" in ann.stderr()
    assert "joining as a new player" in ann.stderr()
    assert "deal verified" in ann.stdout()
    assert ann.result() == server.result()
    assert tokens.load(address, "Ann") is None, "the finished game's token is gone too"
