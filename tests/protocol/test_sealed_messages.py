"""The sealing round's messages: they round-trip, the biggest of them fits a frame, malformed
ones are refused with an error naming the field, and they live apart from version 3."""

from __future__ import annotations

from typing import Any

import pytest

from protocol import messages as v3
from protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from protocol.limits import MAX_PLAINTEXT, MAX_SEATS
from protocol.sealed.messages import (
    MAX_SEALED_CARDS,
    SEAL_MESSAGE_TYPES,
    SealKey,
    SealMessage,
    SealOpen,
    SealRound,
    SealStep,
    SeatKey,
    decode,
    encode,
)
from protocol.wire import pack, unpack

X = bytes(range(32))
SIG = bytes(64)


def on_the_wire(msg: SealMessage) -> bytes:
    return pack(encode(msg))


def refused(data: dict[str, Any]) -> RemoteProtocolError:
    with pytest.raises(RemoteProtocolError) as caught:
        decode(unpack(pack(data)))
    return caught.value


def step(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "seal_step",
        "round": 0,
        "kind": kind,
        "seat": 1,
        "body": body,
        "signature": SIG,
    }


@pytest.mark.parametrize(
    "msg",
    [
        SealKey(X),
        SealRound(
            b"t", 3, b"g", (2, 0, 1), (5, 4, 3), (SeatKey(0, X), SeatKey(1, X), SeatKey(2, X))
        ),
        SealOpen(3, 2, (0, 1, 9)),
        SealStep(0, "mask", 1, {"elements": (X, X)}, SIG),
        SealStep(0, "rekey", 1, {"elements": (X,), "commitments": (X,)}, SIG),
        SealStep(0, "scalars", 1, {"to": 2, "scalars": ((4, X), (7, X))}, SIG),
    ],
)
def test_every_message_round_trips(msg: SealMessage) -> None:
    assert decode(unpack(on_the_wire(msg))) == msg


def test_the_biggest_messages_fit_one_frame_without_chunking() -> None:
    full = tuple([X] * MAX_SEALED_CARDS)
    biggest = [
        SealStep(2**32 - 1, "rekey", 7, {"elements": full, "commitments": full}, SIG),
        SealStep(
            2**32 - 1,
            "scalars",
            7,
            {"to": 6, "scalars": tuple((MAX_SEALED_CARDS - 1, X) for _ in range(MAX_SEALED_CARDS))},
            SIG,
        ),
        SealRound(
            bytes(64),
            2**32 - 1,
            bytes(64),
            tuple(range(MAX_SEATS)),
            tuple(range(2**32 - MAX_SEALED_CARDS, 2**32)),
            tuple(SeatKey(s, X) for s in range(MAX_SEATS)),
        ),
        SealOpen(2**32 - 1, 7, tuple(range(MAX_SEALED_CARDS))),
    ]
    sizes = [len(on_the_wire(m)) for m in biggest]
    assert max(sizes) <= MAX_PLAINTEXT, sizes
    assert MAX_SEALED_CARDS >= 109, "Auf Achse's deck must fit"


@pytest.mark.parametrize(
    ("data", "code", "words"),
    [
        (
            step("mask", {"elements": [X, X[:31]]}),
            ErrorCode.OUT_OF_RANGE,
            "body.elements[1]' must be 32 bytes",
        ),
        (
            step("mask", {"elements": [X] * (MAX_SEALED_CARDS + 1)}),
            ErrorCode.OUT_OF_RANGE,
            "more than 256 items",
        ),
        (step("mask", {"elements": [X], "commitments": [X]}), ErrorCode.EXTRA_FIELD, "commitments"),
        (step("rekey", {"elements": [X]}), ErrorCode.MISSING_FIELD, "body.commitments"),
        (
            step("rekey", {"elements": [X], "commitments": ["x" * 32]}),
            ErrorCode.WRONG_TYPE,
            "body.commitments[0]",
        ),
        (
            step("scalars", {"to": 0, "scalars": [[1, X + b"\0"]]}),
            ErrorCode.OUT_OF_RANGE,
            "body.scalars[0][1]' must be 32 bytes",
        ),
        (
            step("scalars", {"to": 0, "scalars": [[MAX_SEALED_CARDS, X]]}),
            ErrorCode.OUT_OF_RANGE,
            "body.scalars[0][0]",
        ),
        (
            step("scalars", {"to": 0, "scalars": [[1, X, X]]}),
            ErrorCode.OUT_OF_RANGE,
            "must have 2 items",
        ),
        (step("scalars", {"to": MAX_SEATS, "scalars": []}), ErrorCode.OUT_OF_RANGE, "body.to"),
        (step("digest", {}), ErrorCode.OUT_OF_RANGE, "field 'kind'"),
        (step("mask", [X]), ErrorCode.WRONG_TYPE, "field 'body' must be a map"),
        (
            {**step("mask", {"elements": [X]}), "signature": SIG[:63]},
            ErrorCode.OUT_OF_RANGE,
            "signature",
        ),
        ({**step("mask", {"elements": [X]}), "table": b"t"}, ErrorCode.EXTRA_FIELD, "table"),
        ({"type": "seal_key"}, ErrorCode.MISSING_FIELD, "key"),
        (
            {"type": "seal_open", "round": 0, "to": 1, "positions": [0, MAX_SEALED_CARDS]},
            ErrorCode.OUT_OF_RANGE,
            "positions[1]",
        ),
        (
            {
                "type": "seal_round",
                "table": b"",
                "round": 0,
                "game": b"g",
                "seats": [0, 1],
                "cards": [0],
                "keys": [],
            },
            ErrorCode.OUT_OF_RANGE,
            "'table' must be 1 to 64 bytes",
        ),
        (
            {
                "type": "seal_round",
                "table": b"t",
                "round": 0,
                "game": b"g",
                "seats": [0, 1],
                "cards": list(range(MAX_SEALED_CARDS + 1)),
                "keys": [],
            },
            ErrorCode.OUT_OF_RANGE,
            "'cards' has more than",
        ),
        (
            {"type": "join", "name": "Ann", "resume": None, "spectator": False},
            ErrorCode.UNKNOWN_TYPE,
            "'join'",
        ),
    ],
)
def test_malformed_messages_are_refused_naming_the_field(
    data: dict[str, Any], code: ErrorCode, words: str
) -> None:
    error = refused(data)
    assert error.code == code
    assert words in error.text


def test_a_step_whose_body_does_not_fit_its_kind_is_not_sent() -> None:
    with pytest.raises(LocalProtocolError):
        encode(SealStep(0, "rekey", 1, {"elements": (X,)}, SIG))
    with pytest.raises(LocalProtocolError):
        encode(SealStep(0, "mask", 1, {"elements": (X[:5],)}, SIG))


def test_version_3_neither_knows_nor_sends_the_sealed_messages() -> None:
    assert not set(SEAL_MESSAGE_TYPES) & set(v3.MESSAGE_TYPES)
    with pytest.raises(RemoteProtocolError) as caught:
        v3.decode(encode(SealKey(X)))
    assert caught.value.code == ErrorCode.UNKNOWN_TYPE
    with pytest.raises(LocalProtocolError):
        v3.encode(SealKey(X))
