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
"""A key or a scalar: 32 bytes."""
E = b"\x02" + X
"""An element: 33 bytes (the decoder checks the size; the round checks the point)."""
SIG = bytes(64)


def mask_body(size: int) -> dict[str, Any]:
    proof = {
        "u": [E] * size,
        "B": [E] * size,
        "v": X,
        "k_A": X,
        "k_B": [X] * size,
        "k_C": X,
        "k_D": X,
        "k_E": [X] * size,
        "k_a": X,
    }
    return {"input": X, "elements": [E] * size, "key": E, "proof": proof}


def rekey_body(size: int) -> dict[str, Any]:
    proof = {"v": X, "s_a": X, "s": [X] * size}
    return {"input": X, "elements": [E] * size, "commitments": [E] * size, "proof": proof}


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
        SealStep(0, "mask", 1, mask_body(2), SIG),
        SealStep(0, "rekey", 1, rekey_body(1), SIG),
        SealStep(0, "scalars", 1, {"to": 2, "scalars": ((4, X), (7, X))}, SIG),
    ],
)
def test_every_message_round_trips(msg: SealMessage) -> None:
    back = decode(unpack(on_the_wire(msg)))
    assert back == decode(unpack(on_the_wire(back)))
    assert on_the_wire(back) == on_the_wire(msg)


def test_the_biggest_messages_fit_one_frame_without_chunking() -> None:
    biggest = [
        SealStep(2**32 - 1, "mask", 7, mask_body(MAX_SEALED_CARDS), SIG),
        SealStep(2**32 - 1, "rekey", 7, rekey_body(MAX_SEALED_CARDS), SIG),
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
            step("mask", {**mask_body(2), "elements": [E, X]}),
            ErrorCode.OUT_OF_RANGE,
            "body.elements[1]' must be 33 bytes",
        ),
        (
            step("mask", {**mask_body(1), "elements": [E] * (MAX_SEALED_CARDS + 1)}),
            ErrorCode.OUT_OF_RANGE,
            "more than 256 items",
        ),
        (step("mask", {**mask_body(1), "commitments": [E]}), ErrorCode.EXTRA_FIELD, "commitments"),
        (
            step("rekey", {k: v for k, v in rekey_body(1).items() if k != "commitments"}),
            ErrorCode.MISSING_FIELD,
            "body.commitments",
        ),
        (
            step("rekey", {**rekey_body(1), "commitments": ["x" * 33]}),
            ErrorCode.WRONG_TYPE,
            "body.commitments[0]",
        ),
        (
            step("mask", {**mask_body(1), "proof": {**mask_body(1)["proof"], "k_E": [X[:31]]}}),
            ErrorCode.OUT_OF_RANGE,
            "body.proof.k_E[0]' must be 32 bytes",
        ),
        (
            step("mask", {**mask_body(1), "proof": {**mask_body(1)["proof"], "w": X}}),
            ErrorCode.EXTRA_FIELD,
            "body.proof",
        ),
        (
            step("rekey", {**rekey_body(1), "proof": {"v": X, "s": [X]}}),
            ErrorCode.MISSING_FIELD,
            "body.proof.s_a",
        ),
        (step("rekey", {**rekey_body(1), "proof": [X]}), ErrorCode.WRONG_TYPE, "body.proof"),
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
            {**step("mask", mask_body(1)), "signature": SIG[:63]},
            ErrorCode.OUT_OF_RANGE,
            "signature",
        ),
        ({**step("mask", mask_body(1)), "table": b"t"}, ErrorCode.EXTRA_FIELD, "table"),
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
        encode(SealStep(0, "rekey", 1, {"elements": (E,)}, SIG))
    with pytest.raises(LocalProtocolError):
        encode(SealStep(0, "mask", 1, {**mask_body(1), "elements": (E[:5],)}, SIG))
    with pytest.raises(LocalProtocolError):
        encode(SealStep(0, "mask", 1, {**mask_body(1), "proof": {"v": X}}, SIG))


def test_version_3_neither_knows_nor_sends_the_sealed_messages() -> None:
    assert not set(SEAL_MESSAGE_TYPES) & set(v3.MESSAGE_TYPES)
    with pytest.raises(RemoteProtocolError) as caught:
        v3.decode(encode(SealKey(X)))
    assert caught.value.code == ErrorCode.UNKNOWN_TYPE
    with pytest.raises(LocalProtocolError):
        v3.encode(SealKey(X))
