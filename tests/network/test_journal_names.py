"""A journal is named after the game it holds: someone who picks one by its name to `--resume`
after a crash must find the game they played, not the one the table was opened with before its
owner changed it in the lobby (`o`, or "play again" and then `o`)."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from protocol.client import TableClient
from protocol.journal_file import read_journal
from protocol.known_hosts import KnownHosts
from tests.network.processes import host, own_dirs, wait_for
from tests.network.test_headless_owner import until
from ui.journals import GameJournal, named_for

NAMED = "20250102-030405-via-gladiola-4242-beef.journal"


def test_a_journal_takes_the_name_of_the_game_that_starts_in_it(tmp_path: Path) -> None:
    said: list[Path] = []
    journal = GameJournal(tmp_path / NAMED, renamed=said.append, sync=False)
    journal.append({"type": "listen", "port": 47474})
    journal.append({"type": "start", "game": "auf-achse"})
    journal.write({"type": "action", "n": 1})
    journal.close()
    renamed = tmp_path / "20250102-030405-auf-achse-4242-beef.journal"
    assert said == [renamed]
    assert journal.path == renamed
    assert [p.name for p in tmp_path.iterdir()] == [renamed.name], "renamed, not copied"
    records = read_journal(renamed)
    assert [r["type"] for r in records] == ["listen", "start", "action"], "nothing lost"


def test_the_same_game_or_a_name_the_user_chose_is_left_as_it_is(tmp_path: Path) -> None:
    said: list[Path] = []
    same = GameJournal(tmp_path / NAMED, renamed=said.append, sync=False)
    same.append({"type": "start", "game": "via-gladiola"})
    same.close()
    chosen = GameJournal(tmp_path / "my-table.journal", renamed=said.append, sync=False)
    chosen.append({"type": "start", "game": "velonimo"})
    chosen.close()
    assert said == []
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([NAMED, "my-table.journal"])
    assert named_for(Path("x") / NAMED, "velonimo").name == (
        "20250102-030405-velonimo-4242-beef.journal"
    )


def test_a_headless_table_whose_owner_changes_the_game_names_its_journal_after_it(
    tmp_path: Path,
) -> None:
    """`host --headless --owner Ann` opened for Via Gladiola; Ann makes it Auf Achse in her
    lobby and the game starts: the journal in the data folder says auf-achse, and the host says
    where it is now."""
    env = own_dirs(tmp_path / "host")
    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "2", "--port", "0", "--owner", "Ann",
        env=env,
    )  # fmt: skip
    folder = tmp_path / "host" / "data" / "journals"

    async def play() -> None:
        ann = TableClient(f"127.0.0.1:{port}", "Ann", KnownHosts(tmp_path / "hosts"))
        runner = asyncio.create_task(ann.run())
        try:
            await until(ann, lambda _: ann.lobby is not None and ann.owner)
            (before,) = folder.glob("*.journal")
            assert "-via-gladiola-" in before.name
            await ann.set_options("auf-achse", 2, {})
            await until(ann, lambda _: ann.lobby is not None and ann.lobby.game == "auf-achse")
            await ann.add_bot(1, "random")
            await until(ann, lambda _: ann.lobby is not None and ann.lobby.seats[1].kind == "bot")
            await ann.set_ready(True)
            await until(ann, lambda _: ann.game is not None)
        finally:
            runner.cancel()

    try:
        asyncio.run(play())
        wait_for(lambda: "-auf-achse-" in server.stderr(), 10, "the host to say the new name")
    finally:
        server.kill()
    (journal,) = folder.glob("*.journal")
    assert re.fullmatch(r"\d{8}-\d{6}-auf-achse-\d+-[0-9a-f]{4}\.journal", journal.name)
    start = next(r for r in read_journal(journal) if r["type"] == "start")
    assert start["game"] == "auf-achse"
    said = [ln for ln in server.stderr().splitlines() if ln.startswith("host: journal ")]
    assert said[-1] == f"host: journal {journal}", said
    assert json.loads(journal.read_text().splitlines()[0])["type"] == "listen"
