"""Addresses, known hosts and the journal file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from protocol.address import DEFAULT_PORT, AddressError, format_address, parse_address
from protocol.identity import fingerprint
from protocol.identity_store import load_or_create_identity
from protocol.journal_file import JournalError, JournalWriter, read_journal
from protocol.known_hosts import KnownHosts


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("127.0.0.1", ("127.0.0.1", DEFAULT_PORT)),
        ("127.0.0.1:5000", ("127.0.0.1", 5000)),
        ("::1", ("::1", DEFAULT_PORT)),
        ("[::1]", ("::1", DEFAULT_PORT)),
        ("[::1]:6000", ("::1", 6000)),
        ("fe80::1%eth0", ("fe80::1%eth0", DEFAULT_PORT)),
        (" table.lan:7000 ", ("table.lan", 7000)),
    ],
)
def test_addresses_people_type(text: str, expected: tuple[str, int]) -> None:
    assert parse_address(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "an address is needed"),
        ("[::1", "closing"),
        ("[::1]x", r"\[IPv6\]:port"),
        ("host:port", "must be a number"),
        ("host:70000", "between 1 and 65535"),
        (":5000", "host part is empty"),
        ("1:2:3:zz", "not an address: write host:port, or an IPv6 address with a port in"),
        ("127.0.0.1:4747:", "not an address"),
        ("[1:2:3:zz]:5", "not an IPv6 address"),
        ("999.1.1.1", "999.1.1.1 is not an IPv4 address .four numbers from 0 to 255"),
        ("192.0.2:47474", "192.0.2 is not an IPv4 address"),
    ],
)
def test_bad_addresses_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(AddressError, match=message):
        parse_address(text)


def test_format_address_brackets_ipv6() -> None:
    assert format_address("::1", 5) == "[::1]:5"
    assert format_address("127.0.0.1", 5) == "127.0.0.1:5"


def test_known_hosts_remember_lookup_forget(tmp_path: Path) -> None:
    hosts = KnownHosts(tmp_path / "known_hosts")
    assert hosts.lookup("127.0.0.1:5") is None
    hosts.remember("127.0.0.1:5", b"a" * 32)
    hosts.remember("[::1]:5", b"c" * 32)
    hosts.remember("127.0.0.1:5", b"e" * 32)
    assert hosts.lookup("127.0.0.1:5") == b"e" * 32
    assert [e.address for e in hosts.entries()] == ["[::1]:5", "127.0.0.1:5"]
    assert hosts.entries()[0].fingerprint == fingerprint(b"c" * 32)
    assert hosts.forget("[::1]:5") and not hosts.forget("[::1]:5")
    assert KnownHosts(tmp_path / "known_hosts").lookup("[::1]:5") is None


def test_journal_round_trip_and_a_torn_last_line(tmp_path: Path) -> None:
    path = tmp_path / "j" / "game.journal"
    writer = JournalWriter(path)
    writer.append({"type": "start", "n": 0})
    writer.append({"type": "action", "n": 1})
    writer.close()
    assert read_journal(path) == [{"type": "start", "n": 0}, {"type": "action", "n": 1}]
    assert path.stat().st_mode & 0o777 == 0o600
    with path.open("a") as f:
        f.write('{"type": "act')  # the host died mid-write
    assert len(read_journal(path)) == 2


def test_a_damaged_journal_line_in_the_middle_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "game.journal"
    path.write_text('{"type": "start"}\nxx\n{"type": "action"}\n')
    with pytest.raises(JournalError, match="line 2 is damaged"):
        read_journal(path)
    with pytest.raises(JournalError, match="cannot read"):
        read_journal(tmp_path / "missing")


def test_the_identity_key_is_made_once_and_kept_private(tmp_path: Path) -> None:
    first = load_or_create_identity(tmp_path / "cfg")
    again = load_or_create_identity(tmp_path / "cfg")
    assert first.public_key == again.public_key
    assert (tmp_path / "cfg" / "host_key").stat().st_mode & 0o777 == 0o600


def test_seat_tokens_keep_the_deal_notes_privately_and_read_old_files(tmp_path: Path) -> None:
    from protocol.seat_tokens import SeatTokens

    tokens = SeatTokens(tmp_path / "seats")
    assert tokens.load("h:1", "Ann") is None and tokens.load_deal("h:1", "Ann") is None
    tokens.save("h:1", "Ann", b"t" * 32, {"host_commitment": "ab"})
    assert tokens.load("h:1", "Ann") == b"t" * 32
    assert tokens.load_deal("h:1", "Ann") == {"host_commitment": "ab"}
    file, notes = sorted((tmp_path / "seats").iterdir(), key=lambda f: f.suffix != ".token")
    for f in (file, notes):
        assert f.stat().st_mode & 0o777 == 0o600, f.name
    tokens.forget("h:1", "Ann")  # a refused token: the notes stay, the host cannot wipe them
    assert not file.exists() and tokens.load_deal("h:1", "Ann") == {"host_commitment": "ab"}
    tokens.forget_deal("h:1", "Ann")
    assert not notes.exists()
    file.write_text((b"u" * 32).hex())  # as an earlier release wrote it
    assert tokens.load("h:1", "Ann") == b"u" * 32 and tokens.load_deal("h:1", "Ann") is None
    file.write_text(json.dumps({"token": (b"v" * 32).hex(), "deal": {"revealed": True}}))
    assert tokens.load_deal("h:1", "Ann") == {"revealed": True}, "notes of an earlier release"
    file.write_text("[1, 2]")
    assert tokens.load("h:1", "Ann") is None
    tokens.forget("h:1", "Ann")
    assert not file.exists()


def test_a_seat_is_found_however_its_tables_address_was_typed(tmp_path: Path) -> None:
    """Joined as `127.0.0.1:47474`, rejoined as `127.0.0.1` (the default port): the same table,
    so the same seat; another port, or another name for the machine, is another table."""
    from protocol.seat_tokens import SeatTokens

    tokens = SeatTokens(tmp_path / "seats")
    tokens.save("127.0.0.1:47474", "Ann", b"t" * 32, {})
    for typed in ("127.0.0.1", " 127.0.0.1:47474 "):
        assert tokens.load(typed, "Ann") == b"t" * 32, typed
    for other in ("127.0.0.1:47475", "localhost", "127.0.0.2"):
        assert tokens.load(other, "Ann") is None, other
    tokens.save("[::1]:47474", "Bob", b"b" * 32, {})
    assert tokens.load("::1", "Bob") == b"b" * 32
    claim = tokens.claim("127.0.0.1", "Ann")
    assert claim is not None
    assert tokens.claim("127.0.0.1:47474", "Ann") is None, "one program per seat, however typed"
    claim.release()
    tokens.forget("127.0.0.1", "Ann")
    assert tokens.load("127.0.0.1:47474", "Ann") is None
