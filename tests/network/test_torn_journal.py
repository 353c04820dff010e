"""A journal cut short by a crash: the host resumes, and survives a second crash too.

A crash (or a power cut) can leave the journal's last record half-written, and a power cut
can lose it whole: the host syncs it to the disk only after the players have their update. Resuming must drop
that record, cut the file back to its last complete one before appending anything, and tell
the players that the action they had seen was taken back; otherwise the next crash leaves a
damaged line in the middle and the game is lost. Every cut length of the last record goes
through the host's own resume path in process; real processes on loopback crash and tear the
journal twice in one game.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from netcards.table import LobbyError, Table
from protocol.journal_file import JournalError, JournalWriter
from tests.network.processes import bot, host, read_trace, wait_for
from ui.headless import load_resumed_table


def bot_table() -> Table:
    table = Table.create("via-gladiola", 3, {}, name="t", host_part=bytes(range(32)))
    for seat in range(3):
        table.add_bot("random", seat)
    table.start()
    return table


def play(table: Table, writer: JournalWriter, actions: int | None = None) -> None:
    """Bots play `actions` moves (all of them if None), each journalled as the host does."""
    done = 0
    while table.phase == "playing" and (actions is None or done < actions):
        seat = table.bot_seats_to_act()[0]
        table.submit(seat, table.bot_action(seat))
        writer.append(table.journal_action())
        done += 1


def last_record_length(data: bytes) -> int:
    """Bytes of the last record, its newline included."""
    return len(data) - (data.rstrip(b"\n").rfind(b"\n") + 1)


def tear(journal: Path, seq: int, keep: float = 0.5) -> None:
    """Cut the journal in action `seq`'s record, keeping `keep` of it: half, as a crash
    writing it would; none, as a power cut before the record reached the disk would."""
    data = journal.read_bytes()
    at = data.index(b'{"type":"action","n":%d,' % seq)
    end = data.index(b"\n", at) + 1
    journal.write_bytes(data[: at + int((end - at) * keep)])


def test_every_cut_of_the_last_record_resumes_and_survives_a_second_crash(tmp_path: Path) -> None:
    original = tmp_path / "game.journal"
    table = bot_table()
    writer = JournalWriter(original, sync=False)
    writer.append(table.journal_start())
    play(table, writer, 12)
    writer.close()
    data = original.read_bytes()
    length = last_record_length(data)
    assert length > 40
    for cut in range(1, length + 1):
        path = tmp_path / f"cut-{cut}.journal"
        path.write_bytes(data[:-cut])
        resumed, _ = load_resumed_table(path)
        # Losing only the newline leaves a whole record; any other cut loses the action.
        assert len(resumed.actions) == (12 if cut == 1 else 11), cut
        writer = JournalWriter(path, sync=False)  # what is under test is the repair on opening
        assert writer.repaired == (0 if cut == 1 else length - cut), "cut back, nothing else"
        play(resumed, writer, 5)
        writer.close()
        torn = path.read_bytes()
        path.write_bytes(torn[: -(1 + cut % last_record_length(torn))])  # the second crash
        again, _ = load_resumed_table(path)
        writer = JournalWriter(path, sync=False)
        play(again, writer)
        writer.close()
        final, _ = load_resumed_table(path)
        assert final.phase == "over" and final.actions == again.actions, cut
        assert path.read_bytes().endswith(b"\n")


def test_a_record_that_is_valid_json_but_not_a_record_is_one_clear_error(tmp_path: Path) -> None:
    table = bot_table()
    start = table.journal_start()
    good_action = {"type": "action", "n": 1, "seat": 0, "action": {"kind": "rest"}}
    cases = [
        [{"type": "start"}],
        [{**start, "seats": "three"}],
        [{**start, "host_part": "not hex"}],
        [{**start, "seats": [*start["seats"][:2], {"kind": "bot"}]}],
        [start, {"type": "action", "n": 1, "seat": "zero", "action": {}}],
        [start, {"type": "action", "n": 1, "seat": 0}],
        [start, {**good_action, "action": [1, 2]}],
        [start, {**good_action, "seat": 9}],
    ]
    for records in cases:
        path = tmp_path / "bad.journal"
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
        with pytest.raises((JournalError, LobbyError)) as caught:
            load_resumed_table(path)
        message = str(caught.value)
        assert "\n" not in message and "journal" in message, (records[-1], message)


def test_a_journal_cut_short_twice_in_one_game_and_the_players_are_told(tmp_path: Path) -> None:
    """The first crash tears the last record; the second loses it whole, as a power cut
    between the update leaving and the sync would. Either way the players had seen it."""
    journal = tmp_path / "game.journal"
    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "3", "--bots", "1", "--port", "0",
        "--bot-delay", "0.02", "--grace", "600", "--journal", str(journal),
    )  # fmt: skip
    traces = {name: tmp_path / f"{name}.jsonl" for name in ("Ann", "Bea")}
    players = {
        name: bot(tmp_path, port, name, "--delay", "0.02", "--log", str(trace))
        for name, trace in traces.items()
    }
    hosts = [server]
    try:
        for crash in range(2):
            wanted = journal.read_text().count('"type":"action"') + 8 if crash else 8
            wait_for(
                lambda n=wanted: journal.read_text().count('"type":"action"') >= n,  # type: ignore[misc]
                what="8 more journalled actions",
            )
            hosts[-1].kill()
            for proc in players.values():  # until each has read everything the host sent
                wait_for(
                    lambda p=proc, c=crash: p.stderr().count("link down") > c,  # type: ignore[misc]
                    what="the players to see the host gone",
                )
            # The crash tears the last action every player had seen (any later one was lost
            # whole, unseen): half of that record is left, then none of it.
            seen = min(max(m.get("seq", 0) for m in read_trace(t)) for t in traces.values())
            tear(journal, seen, keep=0.5 if crash == 0 else 0.0)
            resumed, _, _ = host(tmp_path, "--resume", str(journal), name=f"resumed-{crash}")
            hosts.append(resumed)
        for proc in players.values():
            assert proc.wait() == 0, proc.stderr()
        assert hosts[-1].wait() == 0, hosts[-1].stderr()
    finally:
        for proc in hosts:
            proc.kill()
    results = {name: proc.result() for name, proc in players.items()}
    assert results["Ann"] == results["Bea"] == hosts[-1].result()
    for proc in players.values():
        assert "deal verified" in proc.stdout()
        assert proc.stderr().count("taken back") == 2, proc.stderr()
    assert "torn" in hosts[1].stderr() and "torn" not in hosts[2].stderr()


def test_resuming_a_malformed_journal_says_so_in_one_line(tmp_path: Path) -> None:
    import subprocess

    from tests.network.processes import NETCARDS

    start = bot_table().journal_start()
    path = tmp_path / "bad.journal"
    records = [start, {"type": "action", "n": 1, "seat": 0}]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    done = subprocess.run(
        [*NETCARDS, "host", "--headless", "--resume", str(path), "--discovery-port", "0"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "record 2 is malformed" in done.stderr, done.stderr


async def test_a_client_heeds_a_taken_back_notice_once_per_run_of_the_host(
    tmp_path: Path,
) -> None:
    """A resumed host tells everyone who comes back, for as long as it runs. A client away
    across the crash that had seen the lost action is told; a client that comes back again
    later in that run, past that number by moves played since, is not told a second time
    (nor at all if it had not seen the action when it first heard). A second restart that
    loses the same number again is news again."""
    from protocol.client import TableClient
    from protocol.known_hosts import KnownHosts
    from protocol.messages import TableNotice

    async def heard(client: TableClient, seq: int, first: int, run: int) -> list[object]:
        client.seq = seq
        before = len(client.notices)
        await client._on_message(TableNotice("taken_back", {"seq": first, "run": run}))
        return [n.args for n in client.notices[before:]]

    saw_it = TableClient("127.0.0.1:1", "Ann", KnownHosts(tmp_path / "a"))
    assert await heard(saw_it, 12, first=11, run=7) == [{"count": 2}]
    assert await heard(saw_it, 15, first=11, run=7) == []
    did_not = TableClient("127.0.0.1:1", "Bea", KnownHosts(tmp_path / "b"))
    assert await heard(did_not, 10, first=11, run=7) == []
    assert await heard(did_not, 14, first=11, run=7) == []
    # The host restarts again and has lost the new action 11, which Bea had seen this time.
    assert await heard(did_not, 11, first=11, run=8) == [{"count": 1}]


def test_zeros_a_power_cut_left_in_the_journal_end_it_like_a_torn_record(tmp_path: Path) -> None:
    """Unsynced records can come back as zero-filled blocks with whole lines after them: the
    journal is cut back to the last record before the zeros, and the game resumes there."""
    path = tmp_path / "game.journal"
    table = bot_table()
    writer = JournalWriter(path)
    writer.append(table.journal_start())
    play(table, writer, 6)
    writer.close()
    data = path.read_bytes()
    at = data.index(b'{"type":"action","n":5,')
    damaged = data[:at] + b"\0" * 40 + b"\n" + data[data.index(b"\n", at) + 1 :]
    path.write_bytes(damaged)
    resumed, _ = load_resumed_table(path)
    assert len(resumed.actions) == 4
    writer = JournalWriter(path)
    assert writer.repaired == len(damaged) - at
    writer.close()
    writer.close()  # closing twice is harmless
    assert len(load_resumed_table(path)[0].actions) == 4


def test_closing_a_journal_syncs_what_was_written_since_its_last_sync(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import protocol.journal_file

    synced: list[int] = []
    monkeypatch.setattr(protocol.journal_file, "_sync_data", synced.append)
    writer = JournalWriter(tmp_path / "game.journal")
    writer.write({"type": "action", "n": 1})
    assert synced == [], "writing flushes; the host chooses when to sync"
    writer.close()
    assert len(synced) == 1
