"""Whole games over real sockets between real processes, on loopback only.

A headless host with one bot of its own and two `netcards bot` clients plays each title to the
end; everybody prints the same result and every client checks the deal. What the clients were
sent, decrypted, never shows another seat's hidden card, and what crossed the wire shows no card
in cleartext.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from netcards.registry import all_games
from tests.network.processes import Relay, bot, host, read_trace
from tests.network.traces import check_trace

GAMES = sorted(all_games())


@pytest.mark.parametrize("game", GAMES)
def test_a_headless_host_plays_each_game_with_two_bot_clients_and_its_own_bot(
    tmp_path: Path, game: str
) -> None:
    server, port, _ = host(
        tmp_path, "--game", game, "--players", "3", "--bots", "1", "--port", "0",
        "--bot-level", "search:4", "--stand-in", "search:4",
    )  # fmt: skip
    try:
        ann = bot(
            tmp_path, port, "Ann", "--level", "search:4", "--log", str(tmp_path / "ann.jsonl")
        )
        bea = bot(tmp_path, port, "Bea", "--level", "random", "--log", str(tmp_path / "bea.jsonl"))
        assert ann.wait() == 0, ann.stderr()
        assert bea.wait() == 0, bea.stderr()
        assert server.wait() == 0, server.stderr()
    finally:
        server.kill()
    assert server.result() == ann.result() == bea.result()
    for client in (ann, bea):
        assert "deal verified" in client.stdout()
    for trace in ("ann.jsonl", "bea.jsonl"):
        messages = read_trace(tmp_path / trace)
        assert check_trace(messages) > 0
        said = [m.get("code", m["type"]) for m in messages]
        assert said.index("last_game") < said.index("result"), "its table closes: no next game"


def test_nothing_crosses_the_wire_in_cleartext(tmp_path: Path) -> None:
    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "2", "--port", "0", "--name", "Zanzibar"
    )
    relay = Relay(port)
    try:
        ann = bot(tmp_path, relay.port, "Annabella-Quartz")
        bea = bot(tmp_path, relay.port, "Beatrix-Quokka")
        assert ann.wait() == 0 and bea.wait() == 0, ann.stderr() + bea.stderr()
        assert server.wait() == 0
    finally:
        server.kill()
        relay.close()
    wire = bytes(relay.captured)
    assert len(wire) > 10_000, "the relay saw the game"
    for secret in [b"Annabella-Quartz", b"Beatrix-Quokka", b"hand", b"cards", b"walk_pile",
                   b"Gladiola", b"Finish", b"view", b"events", b"draw", b"blisters"]:  # fmt: skip
        assert secret not in wire, f"{secret!r} crossed the wire in cleartext"
    assert b"Zanzibar" in wire, "the table name is in the plaintext host hello (documented)"
