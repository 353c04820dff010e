"""The journal's promise with the host killed at full speed: every move any player saw is in
the journal, and the game resumes from it (real processes, SIGKILL, loopback).

The players play as fast as they can (a few milliseconds a move), so that actions are in
flight and the journal's syncs (made by its own thread, a few milliseconds after each burst)
are under way when the host dies. A move is written to the operating system before anyone
hears of it, so whatever a player saw survives the process: the journal holds at least as many
actions as the furthest any player got, and each view a player was shown is the journal's
game at that point.
"""

from __future__ import annotations

import time
from pathlib import Path

from protocol.journal_file import read_journal
from tests.network.processes import bot, host, read_trace
from tests.network.test_resilience import replayed

NAMES = ("Ann", "Bea", "Cid")


def journalled_actions(journal: Path) -> int:
    if not journal.exists():
        return 0
    return journal.read_bytes().count(b'"type":"action"')


def test_every_move_a_player_saw_is_in_the_journal_of_a_host_killed_mid_game(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "game.journal"
    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "3", "--port", "0",
        "--grace", "600", "--journal", str(journal),
    )  # fmt: skip
    traces = {name: tmp_path / f"{name}.jsonl" for name in NAMES}
    players = [bot(tmp_path, port, n, "--delay", "0.003", "--log", str(traces[n])) for n in NAMES]
    deadline = time.monotonic() + 60
    while journalled_actions(journal) < 12:  # mid-game: a game of three takes about 40
        assert time.monotonic() < deadline, "the game did not get going"
        time.sleep(0.002)
    server.kill()
    records = read_journal(journal)
    in_journal = len([r for r in records if r["type"] == "action"])
    seen = 0
    for name, path in traces.items():
        shown = [m for m in read_trace(path) if m["type"] in ("update", "snapshot")]
        assert shown, f"{name} saw the game"
        seat = next(m for m in read_trace(path) if m["type"] == "start")["seat"]
        for message in shown:
            seq = message["seq"]
            assert seq <= in_journal, f"{name} saw action {seq}; the journal holds {in_journal}"
            game, state, _ = replayed(journal, seq)
            assert message["view"] == game.view(state, seat), f"{name}'s view at {seq}"
        seen = max(seen, shown[-1]["seq"])
    # (the 12th record may be on the disk, not yet on its way to the players, when the host
    # dies: the journal comes first)
    assert seen >= 6, "the players saw the game under way"
    resumed, port2, _ = host(tmp_path, "--resume", str(journal), name="resumed")
    try:
        assert port2 == port
        for player in players:
            assert player.wait() == 0, player.stderr()
        assert resumed.wait() == 0, resumed.stderr()
    finally:
        resumed.kill()
        for player in players:
            player.kill()
    assert all("deal verified" in p.stdout() for p in players)
    assert resumed.result() == players[0].result() == players[1].result() == players[2].result()
    game, state, applied = replayed(journal)
    assert applied > in_journal and game.outcome(state) is not None
