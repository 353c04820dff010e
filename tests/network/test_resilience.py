"""Nothing is lost when a player's program or the host's dies: real processes, SIGKILL, loopback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from netcards.fairdeal import combine
from netcards.registry import get_game
from protocol.journal_file import read_journal
from tests.network.processes import bot, host, read_trace, spawn, wait_for


def updates(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return [m for m in read_trace(path) if m["type"] in ("update", "snapshot")]


def replayed(journal: Path, seq: int | None = None) -> tuple[Any, Any, int]:
    """(game, state, actions applied): the host's journal replayed from the deal, through its
    first `seq` actions (all of them by default)."""
    records = read_journal(journal)
    start = next(r for r in records if r["type"] == "start")
    game = get_game(start["game"])
    config = game.make_config(start["config"]["players"], start["config"]["options"])
    parts = {
        s["seat"]: bytes.fromhex(s["contribution"]) for s in start["seats"] if s["contribution"]
    }
    state = game.setup(config, combine(bytes.fromhex(start["host_part"]), parts))
    actions = [r for r in records if r["type"] == "action"][:seq]
    for record in actions:
        game.apply(state, record["seat"], game.decode_action(record["action"]))
    return game, state, len(actions)


def test_a_killed_client_rejoins_with_its_token_and_its_hand(tmp_path: Path) -> None:
    journal = tmp_path / "game.journal"
    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "3", "--bots", "1", "--port", "0",
        "--grace", "600", "--bot-delay", "0.02", "--journal", str(journal),
    )  # fmt: skip
    try:
        first = tmp_path / "ann-1.jsonl"
        ann = bot(tmp_path, port, "Ann", "--delay", "0.02", "--log", str(first))
        bea = bot(tmp_path, port, "Bea", "--delay", "0.02")
        wait_for(lambda: len(updates(first)) >= 12, what="the game to get going")
        ann.kill()
        played = updates(first)[-1]
        second = tmp_path / "ann-2.jsonl"
        again = bot(tmp_path, port, "Ann", "--delay", "0.02", "--log", str(second))
        assert again.wait() == 0, again.stderr()
        assert bea.wait() == 0 and server.wait() == 0
    finally:
        server.kill()
    trace = read_trace(second)
    seated = next(m for m in trace if m["type"] == "seated")
    assert seated["resumed"] is True
    history = [m for m in trace if m["type"] == "history"]
    assert history and history[0]["offset"] == 0, "the rejoined player gets the whole log"
    snapshot = next(m for m in trace if m["type"] == "snapshot")
    # Ann may have sent one more move just before she was killed, which the host then played:
    # the hand she gets back is her seat's hand in the game as the host journalled it.
    assert snapshot["seq"] >= played["seq"]
    game, state, _ = replayed(journal, snapshot["seq"])
    hand = list(game.view(state, seated["seat"])["hand"])
    assert snapshot["view"]["hand"] == hand, "the hand is intact after the rejoin"
    if snapshot["seq"] == played["seq"]:
        assert hand == played["view"]["hand"]
    assert "a bot stands in" not in server.stderr()
    assert server.result() == again.result() == bea.result()
    assert "deal verified" in again.stdout() and "deal verified" in bea.stdout()
    assert "note:" not in again.stdout(), "the restarted player kept its notes on the deal"


def test_a_bot_stands_in_for_a_player_away_longer_than_the_grace_period(tmp_path: Path) -> None:
    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "2", "--port", "0", "--grace", "0.3",
    )  # fmt: skip
    try:
        first = tmp_path / "ann-1.jsonl"
        ann = bot(tmp_path, port, "Ann", "--delay", "0.05", "--log", str(first))
        bea = bot(tmp_path, port, "Bea", "--delay", "0.05")
        wait_for(lambda: len(updates(first)) >= 6, what="the game to get going")
        ann.kill()
        wait_for(lambda: "a bot stands in for seat" in server.stderr(), what="the stand-in")
        second = tmp_path / "ann-2.jsonl"
        again = bot(tmp_path, port, "Ann", "--log", str(second))
        assert again.wait() == 0, again.stderr()
        assert bea.wait() == 0 and server.wait() == 0
    finally:
        server.kill()
    assert "Ann is away: a heuristic bot plays for them" in (tmp_path / "Bea.err").read_text()
    assert server.result() == again.result() == bea.result()
    assert "deal verified" in again.stdout()


def test_a_killed_host_resumes_from_its_journal_and_the_game_ends_as_replayed(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "game.journal"
    args = ["--game", "via-gladiola", "--players", "3", "--bots", "1", "--port", "0",
            "--bot-delay", "0.02", "--journal", str(journal)]  # fmt: skip
    server, port, fingerprint = host(tmp_path, *args)
    ann = bot(tmp_path, port, "Ann", "--delay", "0.02", "--log", str(tmp_path / "ann.jsonl"))
    bea = bot(tmp_path, port, "Bea", "--delay", "0.02")
    wait_for(
        lambda: journal.exists() and journal.read_text().count('"type":"action"') >= 15,
        what="15 journalled actions",
    )
    server.kill()
    # Ann's program dies too, and is started again while the host is still down: with its saved
    # seat token it keeps trying until the host is back.
    ann.kill()
    ann = spawn(tmp_path, "Ann-again", "bot", f"127.0.0.1:{port}", "--name", "Ann")
    wait_for(lambda: "trying again" in ann.stderr(), what="Ann's program to retry")
    before = journal.read_text().count('"type":"action"')
    resumed, port2, fingerprint2 = host(tmp_path, "--resume", str(journal), name="resumed")
    try:
        assert (port2, fingerprint2) == (port, fingerprint), "same address, same identity"
        assert ann.wait() == 0, ann.stderr()
        assert bea.wait() == 0, bea.stderr()
        assert resumed.wait() == 0, resumed.stderr()
    finally:
        resumed.kill()
    assert "nobody answers at that address" in ann.stderr(), "the first attempts failed"
    assert resumed.result() == ann.result() == bea.result()
    assert "deal verified" in ann.stdout() and "deal verified" in bea.stdout()
    # The journal replayed from the start gives the result everybody printed.
    game, state, applied = replayed(journal)
    assert applied > before
    outcome = game.outcome(state)
    assert outcome is not None
    assert {"winners": list(outcome.winners), "scores": list(outcome.scores)} == ann.result()
    assert json.loads(json.dumps(ann.result()))
