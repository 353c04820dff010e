"""docs/protocol.md against the code: every message's table, every nested map, the error codes
and the limits. A difference in either direction fails, so the document cannot drift."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from protocol.crypto import SCRYPT_N, SCRYPT_P, SCRYPT_R
from protocol.errors import ErrorCode
from protocol.limits import (
    MAX_CONTAINER,
    MAX_DEPTH,
    MAX_FRAME,
    MAX_PLAINTEXT,
    MAX_SEATS,
    PROTOCOL_VERSION,
)
from protocol.messages import MESSAGE_TYPES
from protocol.schema import Kind, Record, Seq, fields_of
from protocol.settings import HOST_SILENCE
from tests.docs.markdown import table_after, unquote

DOC = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
LINES = DOC.splitlines()

SENT_BY = {"client": "Sent by: client.", "host": "Sent by: host.", "both": "Sent by: both."}


def section(title: str) -> tuple[int, int]:
    """Line range of the section whose heading is exactly `title`."""
    starts = [i for i, line in enumerate(LINES) if line == title]
    assert len(starts) == 1, f"{title!r} appears {len(starts)} times"
    start = starts[0]
    level = title.split(" ", maxsplit=1)[0]
    end = next(
        (
            i
            for i in range(start + 1, len(LINES))
            if LINES[i].startswith("#") and len(LINES[i].split(" ")[0]) <= len(level)
        ),
        len(LINES),
    )
    return start, end


def table_in(title: str) -> list[tuple[str, ...]]:
    start, end = section(title)
    table_start = next(i for i in range(start, end) if LINES[i].startswith("|"))
    return [tuple(unquote(c) for c in row) for row in table_after(LINES, table_start)]


def records_of(kind: Kind, out: dict[str, type[Any]]) -> None:
    if isinstance(kind, Seq):
        records_of(kind.item, out)
    elif isinstance(kind, Record):
        out[kind.cls.__name__] = kind.cls
        for _, inner in fields_of(kind.cls):
            records_of(inner, out)


def test_every_message_has_its_exact_table() -> None:
    for name, cls in MESSAGE_TYPES.items():
        rows = table_in(f"### `{name}`") if fields_of(cls) else []
        expected = [(f, kind.describe()) for f, kind in fields_of(cls)]
        assert rows == expected, f"{name}: the document says {rows}, the code {expected}"
        start, end = section(f"### `{name}`")
        text = "\n".join(LINES[start:end])
        assert SENT_BY[cls.SENDER] in text, f"{name}: who sends it"
        if not fields_of(cls):
            assert "No fields besides `type`." in text


def test_no_message_is_documented_that_the_code_does_not_have() -> None:
    documented = re.findall(r"^### `([a-z_]+)`$", DOC, re.M)
    assert sorted(documented) == sorted(MESSAGE_TYPES)


def test_every_nested_map_has_its_exact_table() -> None:
    nested: dict[str, type[Any]] = {}
    for cls in MESSAGE_TYPES.values():
        for _, kind in fields_of(cls):
            records_of(kind, nested)
    documented = re.findall(r"^### (\w+) \(nested map\)$", DOC, re.M)
    assert sorted(documented) == sorted(nested)
    for name, cls in nested.items():
        expected = [(f, kind.describe()) for f, kind in fields_of(cls)]
        assert table_in(f"### {name} (nested map)") == expected, name


def test_the_error_codes_are_exactly_the_code_s_in_its_order() -> None:
    rows = table_in("## 8. Error codes")
    assert [r[0] for r in rows] == [c.value for c in ErrorCode]
    assert all(r[1] for r in rows), "every code says what it means"


def test_the_limits_are_the_code_s() -> None:
    limits = {r[0]: r[1] for r in table_in("## 9. Limits")}
    assert limits == {
        "protocol version": str(PROTOCOL_VERSION),
        "frame body": f"1 to {MAX_FRAME} bytes",
        "encrypted payload": f"at most {MAX_PLAINTEXT} bytes",
        "nesting": f"{MAX_DEPTH} containers",
        "items per array or map": str(MAX_CONTAINER),
        "seats": f"{MAX_SEATS} (0 to {MAX_SEATS - 1})",
        "password stretch": f"scrypt N = {SCRYPT_N}, r = {SCRYPT_R}, p = {SCRYPT_P}, 32 bytes",
    }


def test_the_keep_alive_times_are_the_code_s() -> None:
    """Section 7, step 9, gives the numbers a second implementation must keep to."""
    from protocol.client import ClientSettings
    from protocol.host import HostSettings

    host, client = HostSettings(), ClientSettings()
    text = " ".join(DOC.split())
    assert (
        f"pings a quiet client every {host.ping_interval:g} seconds and drops one silent for "
        f"{host.ping_timeout:g}." in text
    )
    assert (
        f"has waited {client.silence_timeout:g} seconds for a byte from the host "
        f"({client.connect_timeout:g} during the handshake)" in text
    )
    assert f"pings a host that has been quiet for {client.ping_interval:g} seconds too" in text
    assert f"have gone {HOST_SILENCE:g} seconds without a byte from it" in text


def test_a_frozen_host_s_wait_is_the_code_s_and_its_setting_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The wait for a frozen host, in docs/protocol.md and docs/sealed.md, is the code's, and
    `NETCARDS_HOST_SILENCE` sets it (a nonsense value leaves the default)."""
    from protocol.client import ClientSettings

    sealed = (Path(__file__).parents[2] / "docs" / "sealed.md").read_text(encoding="utf-8")
    sealed = " ".join(sealed.split())
    assert f"{HOST_SILENCE:g} seconds" in sealed and "NETCARDS_HOST_SILENCE" in sealed
    monkeypatch.setenv("NETCARDS_HOST_SILENCE", "2.5")
    assert ClientSettings().host_silence == 2.5 and ClientSettings().ping_every == 2.5 / 4
    for nonsense in ("", "soon", "-1", "0", "nan"):
        monkeypatch.setenv("NETCARDS_HOST_SILENCE", nonsense)
        assert ClientSettings().host_silence == HOST_SILENCE


SEAT_NUMBERS = {"seat", "absent"}
"""Notice arguments that are seat numbers, for programs: the words name the seats' players."""


def test_every_notice_code_a_player_is_shown_has_words_in_every_language() -> None:
    """The `notice` codes docs/protocol.md lists, each with its arguments: the app shows every
    one it does not act on itself in the player's words (English, French, Dutch), never as a
    code and a raw map of arguments."""
    from ui import i18n, notices

    text = DOC[DOC.index("Codes (arguments):") : DOC.index("A client shows an unknown code")]
    listed = dict(re.findall(r"`([a-z_]+)`\s+\(((?:`[a-z_]+`(?:,\s*)?)*|no arguments)\)", text))
    acted_on = {"sealed_history", "taken_back", "closed", "last_game", "awaited"}  # its own
    assert {"waiting", "cheated", "broken", "away", "stand_in"} <= set(listed)
    for language in ("en", "fr", "nl"):
        i18n.use(language)
        try:
            for code, names in listed.items():
                if code in acted_on:
                    continue
                args = {name: f"<{name}>" for name in re.findall(r"`([a-z_]+)`", names)}
                said = notices.say(code, args)
                assert not said.startswith(f"{code}:"), (language, code, said)
                shown = {k: v for k, v in args.items() if k not in SEAT_NUMBERS}
                assert all(value in said for value in shown.values()), (
                    language,
                    code,
                    said,
                )
        finally:
            i18n.use("en")
