"""What the host told a sealed seat, kept on the disk beside its seed (`ToldFile`), so that a
program restarted during the game holds the host to it: the rewinds of test_sealed_rewind.py
against a seat rebuilt by a new program, which has only its seat folder to go by."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from netcards.games.via_gladiola import GAME
from protocol.sealed.errors import Caught
from protocol.sealed.group import commit
from protocol.sealed.messages import SealMessage, SealRound, SealStep
from protocol.sealed_play.progress import HOST
from protocol.sealed_play.seat import SealedSeat
from protocol.seat_tokens import SealedSeedFile, SeatTokens
from tests.protocol.sealed_table import stream
from tests.protocol.test_sealed_game_wire import ENGINE, SEED, Table, wire
from tests.protocol.test_sealed_rewind import BOT, PLAYER, _listened, _one_move

NOTE = {"game": "via-gladiola", "commitment": "ab" * 32, "seat": PLAYER}
"""Which game and seat the seed is for, as the client's seed note says."""


def _seed_file(folder: Path) -> SealedSeedFile:
    """The seed file of one seat, as a program finds it in its seat folder."""
    return SeatTokens(folder).sealed_seed("127.0.0.1:47474", "B")


def _played(folder: Path, moves: int = 0) -> tuple[Table, list[SealMessage]]:
    """A game begun by the player's program, which appends what its seat was told to the
    file after each message, as the client does."""
    table, heard = _listened()
    told = _seed_file(folder).told
    told.begin(NOTE)
    seat = table.seats[PLAYER]
    listen = table.tamper

    def kept(to: int, msg: SealMessage) -> SealMessage:
        told.append(seat.told.fresh_lines())  # the message before this one, taken
        return listen(to, msg)

    table.tamper = kept
    table.start()
    for _ in range(moves):
        _one_move(table)
    told.append(seat.told.fresh_lines())
    return table, heard


def _restarted(folder: Path, note: dict[str, object] = NOTE) -> SealedSeat:
    """The player's seat rebuilt by a program started again: its seed, and the record read
    back from a new handle on the same folder."""
    seat = SealedSeat(ENGINE, GAME.make_config(2, {}), SEED, PLAYER, stream(b"seat 1 1"))
    places = _seed_file(folder).told.load(note)
    if places is not None:
        seat.told.places.update(places)
    return seat


def _rewound_mask(table: Table, setup: SealRound) -> SealStep:
    """The bot's mask step as a rewinding host would send it back: elements it knows the
    logarithms of, signed with its bot's key."""
    elements = [commit(k + 2) for k in range(len(setup.cards))]
    return table.host.bots[BOT].sign("mask", {"elements": elements}, 0)


def test_a_restarted_program_sent_a_rewound_history_names_the_host(tmp_path: Path) -> None:
    table, heard = _played(tmp_path)
    setup = heard[0]
    assert isinstance(setup, SealRound)
    chosen = _rewound_mask(table, setup)
    seat = _restarted(tmp_path)
    assert seat.receive(wire(setup)) == []
    with pytest.raises(Caught) as caught:
        seat.receive(wire(chosen))
    assert (caught.value.seat, caught.value.kind) == (HOST, "rewritten")
    # Without the file, the new program's seat answers the made-up step with its real mask.
    _seed_file(tmp_path).told.forget()
    bare = _restarted(tmp_path)
    bare.receive(wire(setup))
    assert any(isinstance(m, SealStep) and m.kind == "mask" for m in bare.receive(wire(chosen)))


def test_an_honest_restart_plays_on_and_the_deal_is_verified(tmp_path: Path) -> None:
    table, heard = _played(tmp_path, moves=6)
    seat = _restarted(tmp_path)
    assert len(seat.told.places) > 10
    for msg in list(heard):
        seat.receive(wire(msg))
    assert seat.state.to_data() == table.host.state.to_data()
    table.seats[PLAYER] = seat
    table.play()
    assert seat.verdict == "deal verified"
    assert table.host.verdict == "deal verified"


def test_a_record_cut_short_loses_its_last_place_only_and_is_appended_to_whole(
    tmp_path: Path,
) -> None:
    table, heard = _played(tmp_path, moves=2)
    told = _seed_file(tmp_path).told
    whole = told.load(NOTE)
    assert whole is not None
    data = told.path.read_bytes()
    last = data.rstrip(b"\n").rfind(b"\n") + 1
    told.path.write_bytes(data[: last + 9])  # a crash in the middle of the last line
    cut = told.load(NOTE)
    assert cut is not None and len(cut) == len(whole) - 1 and cut.items() <= whole.items()
    # The program restarted and went on: its next lines are read back whole.
    seat = _restarted(tmp_path)
    for msg in list(heard):
        seat.receive(wire(msg))
    table.seats[PLAYER] = seat
    _one_move(table)
    told.append(seat.told.fresh_lines())
    after = told.load(NOTE)
    assert after is not None and after.items() >= whole.items() and len(after) > len(whole)
    # Nor does a damaged line in the middle, or garbage, stop the rest from being read.
    told.path.write_bytes(data[:last] + b"\x00\xff garbage\n" + data[last:])
    assert told.load(NOTE) == whole


def test_a_record_of_another_game_or_seat_is_not_used(tmp_path: Path) -> None:
    """The record left by the last game (a program that never saw it checked) would name an
    honest host of the next game at once: its setup stands where the last one's stood."""
    _played(tmp_path, moves=2)
    last = _seed_file(tmp_path).told.load(NOTE)
    assert last
    other = {**NOTE, "commitment": "cd" * 32}
    for note in (other, {**NOTE, "seat": BOT}, {**NOTE, "game": "velonimo"}):
        assert _seed_file(tmp_path).told.load(note) is None
    table, heard = _listened(seed=2)  # the next game, its seat rebuilt by a restarted program
    table.start()
    for _ in range(2):
        _one_move(table)
    seat = SealedSeat(ENGINE, GAME.make_config(2, {}), SEED, PLAYER, stream(b"seat 1 2"))
    assert _seed_file(tmp_path).told.load(other) is None
    for msg in list(heard):
        seat.receive(wire(msg))
    assert seat.state.to_data() == table.host.state.to_data()
    assert any(last.get(where, what) != what for where, what in seat.told.places.items())
    _seed_file(tmp_path).told.path.write_bytes(b"")
    assert _seed_file(tmp_path).told.load(NOTE) is None


def test_the_record_is_the_users_alone_and_goes_with_the_seed(tmp_path: Path) -> None:
    mask = os.umask(0)  # the mode is the file's own, not the umask's
    try:
        _played(tmp_path)
    finally:
        os.umask(mask)
    seed_file = _seed_file(tmp_path)
    seed_file.save({**NOTE, "seed": "00" * 32})
    assert stat.S_IMODE(seed_file.told.path.stat().st_mode) == 0o600
    assert seed_file.told.path.parent == seed_file.path.parent
    # The next game's record takes the place of this one's.
    seed_file.told.begin({**NOTE, "commitment": "cd" * 32})
    assert seed_file.told.load(NOTE) is None
    assert seed_file.told.load({**NOTE, "commitment": "cd" * 32}) == {}
    seed_file.forget()  # the game checked
    assert not seed_file.path.exists() and not seed_file.told.path.exists()
    assert not any(tmp_path.rglob("*.told*"))
