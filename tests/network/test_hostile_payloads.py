"""docs/protocol.md sections 1 and 2, from outside: after a real handshake with a real host
process, a client (the one written from the documents alone) sends what the rules refuse, sealed
with its real session keys. The host answers each with the code the document gives, in an
encrypted `error` with `fatal` true, and closes the connection. Control characters in a name or
a line of chat reach nobody else."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest

from tests.network.processes import host, own_dirs
from tests.outsider.client import OutsideClient
from tests.outsider.table import join, knock, last_word, settle

Send = Callable[[OutsideClient], None]
TABLE = ("--game", "via-gladiola", "--players", "3", "--port", "0", "--bind", "127.0.0.1")
JOIN = {"type": "join", "name": "Ann", "resume": None, "spectator": False}
LIMIT = 4096  # items in one array or pairs in one map
DEPTH = 16  # nested containers, the message's own map included


def pack(value: Any, **options: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True, **options)  # type: ignore[no-any-return]


def options(value: Any) -> dict[str, Any]:
    """A `set_options` whose game options (a map of plain data: any shape) hold `value`."""
    return {"type": "set_options", "game": "via-gladiola", "players": 3, "options": {"x": value}}


def nested(containers: int) -> dict[str, Any]:
    """A message `containers` containers deep in all: its own map, the options map, arrays."""
    value: Any = 0
    for _ in range(containers - 2):
        value = [value]
    return options(value)


def largest() -> dict[str, Any]:
    """A `set_options` whose sealed frame is 65536 bytes long, the most a frame may hold."""
    empty = len(pack(options("")))  # the string's header grows by 2 bytes (fixstr to str16)
    return options("a" * (65536 - 16 - empty - 2))


def sealed(payload: bytes) -> Send:
    def send(client: OutsideClient) -> None:
        client.send_payload(payload)

    return send


def replayed(client: OutsideClient) -> None:
    """A frame the host took (it answers the ping), sent again as it was."""
    client.sock.sendall(client.send_payload(pack({"type": "ping", "nonce": 1})))


def raw(data: bytes, *, then_stop: bool = False) -> Send:
    """Bytes straight onto the socket, not a sealed frame; `then_stop`: and no more (the
    client shuts its side, the host's may still answer)."""

    def send(client: OutsideClient) -> None:
        client.sock.sendall(data)
        if then_stop:
            client.sock.shutdown(socket.SHUT_WR)

    return send


def named(name: str) -> Send:
    return sealed(pack({**JOIN, "name": name}))


CONTROLS = {"ESC": "\x1b", "DEL": "\x7f", "C1-CSI": "\x9b", "RLO": "\u202e", "LRI": "\u2066"}
"""Characters a name or a line may not hold (category Cc, bidirectional controls): ESC starts
ANSI escape sequences, so does CSI alone, RLO and LRI reorder text."""

HOSTILE = [
    # Section 1: frames.
    ("empty-frame", raw(b"\x00\x00\x00\x00"), "empty_frame"),
    ("frame-over-64KiB", raw((65537).to_bytes(4, "big")), "frame_too_large"),  # no body follows
    ("stream-ends-in-a-length", raw(b"\x00\x00", then_stop=True), "truncated"),
    ("stream-ends-in-a-body", raw(b"\x00\x00\x00\x40" + bytes(10), then_stop=True), "truncated"),
    # Section 4: frames its keys do not open.
    ("forged-frame", raw(b"\x00\x00\x00\x20" + bytes(32)), "authentication_failed"),
    ("replayed-frame", replayed, "authentication_failed"),
    # Section 2: msgpack.
    ("not-msgpack", sealed(b"\xc1"), "bad_encoding"),
    ("bytes-left-over", sealed(pack({"type": "ping", "nonce": 1}) + b"\x00"), "bad_encoding"),
    ("invalid-utf8", sealed(b"\x82\xa4type\xa3say\xa4text\xa2\xff\xfe"), "bad_encoding"),
    ("ext-type", sealed(pack({"type": "ping", "nonce": msgpack.ExtType(5, b"x")})), "ext_type"),
    ("timestamp-ext", sealed(pack({"type": "ping", "nonce": msgpack.Timestamp(1)})), "ext_type"),
    (
        "duplicate-key",
        sealed(b"\x83" + pack("type") + pack("ping") + (pack("nonce") + pack(1)) * 2),
        "duplicate_key",
    ),
    (
        "binary-key",
        sealed(b"\x82" + pack("type") + pack("ping") + pack(b"nonce") + pack(1)),
        "bad_key",
    ),
    ("int-key", sealed(b"\x82" + pack("type") + pack("ping") + pack(7) + pack(1)), "bad_key"),
    ("deeper-than-the-limit", sealed(pack(nested(DEPTH + 1))), "too_deep"),
    ("array-over-the-limit", sealed(pack(options([0] * (LIMIT + 1)))), "too_large"),
    (
        "map-over-the-limit",
        sealed(pack(options({f"k{n}": 0 for n in range(LIMIT + 1)}))),
        "too_large",
    ),
    ("nan", sealed(pack(options(float("nan")))), "out_of_range"),
    (
        "float32-infinity",
        sealed(pack(options(float("inf")), use_single_float=True)),
        "out_of_range",
    ),
    # Section 2: messages.
    ("not-a-map", sealed(pack(["ping", 1])), "not_a_map"),
    ("missing-type", sealed(pack({"nonce": 1})), "missing_field"),
    ("type-not-a-string", sealed(pack({"type": 7, "nonce": 1})), "wrong_type"),
    ("unknown-type", sealed(pack({"type": "teleport"})), "unknown_type"),
    ("missing-field", sealed(pack({"type": "ping"})), "missing_field"),
    ("extra-field", sealed(pack({**JOIN, "admin": True})), "extra_field"),
    ("wrong-type", sealed(pack({**JOIN, "spectator": "no"})), "wrong_type"),
    ("bool-for-an-int", sealed(pack({"type": "ping", "nonce": True})), "wrong_type"),
    ("str-for-a-bin", sealed(pack({**JOIN, "resume": "x" * 32})), "wrong_type"),
    ("int-out-of-range", sealed(pack({"type": "ping", "nonce": 2**32})), "out_of_range"),
    ("name-too-long", named("A" * 33), "out_of_range"),
    *(
        (f"{label}-in-join-name", named(f"Mal{char}lory"), "out_of_range")
        for label, char in CONTROLS.items()
    ),
    (
        "host-only-message",
        sealed(
            pack({"type": "seated", "seat": 0, "token": None, "resumed": False, "owner": False})
        ),
        "unexpected_message",
    ),
    ("second-confirm", sealed(pack({"type": "confirm"})), "unexpected_message"),
    (
        "handshake-message-after-it",
        sealed(pack({"type": "client_hello", "version": 3, "key_share": bytes(32)})),
        "unexpected_message",
    ),
]


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """One table for the module: each case uses a connection of its own."""
    folder = tmp_path_factory.mktemp("table")
    server, port, _ = host(folder, *TABLE, env=own_dirs(folder))
    yield port
    server.kill()


@pytest.mark.parametrize(
    ("send", "code"), [case[1:] for case in HOSTILE], ids=[c[0] for c in HOSTILE]
)
def test_a_hostile_frame_gets_the_documented_fatal_error_then_the_close(
    port: int, send: Send, code: str
) -> None:
    """Nothing after a broken rule can be trusted, so the connection ends; the code names the
    rule, for a second implementation to tell which one it broke."""
    client = OutsideClient(port)
    client.handshake()
    send(client)
    refusal = last_word(client)  # encrypted: the outsider decrypts it with its session keys
    assert (refusal["code"], refusal["fatal"]) == (code, True), refusal
    client.close()


def test_the_limits_are_exactly_where_the_document_puts_them(port: int) -> None:
    """A 64 KiB frame, 16 nested containers and 4096 items pass the connection's checks (the
    host answers the request itself, a non-fatal `not_allowed` to someone who does not own the
    table); one more is refused."""
    client = knock(port, "Watcher", spectator=True)
    assert len(pack(largest())) + 16 == 65536
    for at_the_limit in (
        largest(),
        nested(DEPTH),
        options([0] * LIMIT),
        options({f"k{n}": 0 for n in range(LIMIT)}),
    ):
        client.send_payload(pack(at_the_limit))
        answers = [m for m in settle(client) if m["type"] == "error"]
        assert [(m["code"], m["fatal"]) for m in answers] == [("not_allowed", False)]
    client.send_payload(pack(nested(DEPTH + 1)))
    assert last_word(client)["code"] == "too_deep"
    client.close()


def texts(value: Any) -> Iterator[str]:
    """Every string anywhere in a message."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from texts(item)


@pytest.mark.parametrize("char", list(CONTROLS.values()), ids=list(CONTROLS))
@pytest.mark.parametrize("kind", ["join", "say"])
def test_control_characters_end_the_sender_and_reach_nobody(
    tmp_path: Path, kind: str, char: str
) -> None:
    """They would move the cursor, clear the screen or disguise text on other people's
    terminals: a name or a line holding one is refused (`out_of_range`, fatal) and nothing of
    it is relayed to the players at the table."""
    server, port, _ = host(tmp_path, *TABLE)
    try:
        players = [OutsideClient(port), OutsideClient(port)]
        for client, name in zip(players, ("Ann", "Bea"), strict=True):
            join(client, name, ready=False)
        hostile = f"Mal{char}[2Jlory"
        if kind == "join":
            mallory = knock(port, hostile)
        else:
            mallory = OutsideClient(port)
            join(mallory, "Mallory", ready=False)
            mallory.send("say", text=hostile)
        refusal = last_word(mallory)
        assert (refusal["code"], refusal["fatal"]) == ("out_of_range", True), refusal
        for client in players:
            heard = settle(client)
            assert not [m for m in heard if m["type"] == "chat"], heard
            assert not [t for m in heard for t in texts(m) if char in t], heard
            client.close()
    finally:
        server.kill()
