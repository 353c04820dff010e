"""The same user starts `netcards bot ADDRESS` twice to fill two seats: both play, as Bot and
Bot 2, instead of taking one seat in turns (they would read the same seat token). A second bot
given a name that another of the user's bots holds at that table stops with a clear word; a
refusal is said once."""

from __future__ import annotations

from pathlib import Path

from tests.network.processes import host, spawn, wait_for


def test_two_unnamed_bots_of_one_user_take_two_seats_and_play(tmp_path: Path) -> None:
    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "3", "--bots", "1", "--port", "0"
    )
    try:
        first = spawn(tmp_path, "first", "bot", f"127.0.0.1:{port}", "--level", "random")
        wait_for(lambda: "seat 1" in first.stderr(), 30, "the first bot's seat")
        second = spawn(tmp_path, "second", "bot", f"127.0.0.1:{port}", "--level", "random")
        assert first.wait() == 0, first.stderr()
        assert second.wait() == 0, second.stderr()
        assert server.wait() == 0, server.stderr()
    finally:
        server.kill()
    assert "Bot: seat 1" in first.stderr()
    assert "Bot 2: seat 2" in second.stderr()
    assert "replaced" not in server.stdout() + server.stderr()
    assert server.result() == first.result() == second.result()


def test_a_named_bot_whose_name_is_taken_here_stops_and_a_refusal_is_said_once(
    tmp_path: Path,
) -> None:
    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "3", "--bots", "1", "--port", "0"
    )
    try:
        ann = spawn(tmp_path, "ann", "bot", f"127.0.0.1:{port}", "--name", "Ann", "--delay", "0.1")
        wait_for(lambda: "Ann: seat 1" in ann.stderr(), 30, "Ann's seat")
        twin = spawn(tmp_path, "twin", "bot", f"127.0.0.1:{port}", "--name", "Ann")
        assert twin.wait(30) == 2
        assert "another netcards program of yours is already at" in twin.stderr()
        assert "another --name" in twin.stderr()
        bea = spawn(tmp_path, "bea", "bot", f"127.0.0.1:{port}", "--name", "Bea")
        wait_for(lambda: "Bea: seat 2" in bea.stderr(), 30, "Bea's seat")
        late = spawn(tmp_path, "late", "bot", f"127.0.0.1:{port}", "--name", "Cas")
        assert late.wait(30) != 0
        assert late.stderr().count("the host refused") == 1, late.stderr()
        assert "the game has already started" in late.stderr()
        assert ann.wait() == 0, ann.stderr()
        assert bea.wait() == 0, bea.stderr()
    finally:
        server.kill()
