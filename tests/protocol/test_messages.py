"""Every message round-trips; every malformed shape is refused with its own code."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from protocol.connection import packed
from protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from protocol.events import MessageReceived
from protocol.messages import (
    Chat,
    ClientHello,
    Confirm,
    Join,
    Lobby,
    Message,
    Ping,
    SeatInfo,
    Update,
    decode,
    encode,
    encode_unchecked,
)
from protocol.wire import pack, pack_unchecked, unpack
from tests.protocol.support import VIEW, ConnectionPair, one_of_each

ALL = one_of_each()


def wire(data: Any) -> Any:
    """Data as a peer would see it after msgpack."""
    return unpack(msgpack.packb(data, use_bin_type=True))


@pytest.mark.parametrize("msg", ALL, ids=[f"{i}-{m.TYPE}" for i, m in enumerate(ALL)])
def test_every_message_round_trips_through_the_codec(msg: Message) -> None:
    assert decode(wire(encode(msg))) == msg


@pytest.mark.parametrize("msg", ALL, ids=[f"{i}-{m.TYPE}" for i, m in enumerate(ALL)])
def test_the_unchecked_encoding_is_the_checked_one(msg: Message) -> None:
    """What the host sends without checking is byte for byte what `encode` and `pack` give,
    records turned into maps included (those messages take the checked way)."""
    assert pack_unchecked(encode_unchecked(msg)) == pack(encode(msg))


def test_the_unchecked_way_still_refuses_what_msgpack_cannot_encode() -> None:
    update = Update(seq=1, actor=0, events=(), view={"hand": {1, 2}}, to_act=(0,))
    with pytest.raises(LocalProtocolError) as caught:
        packed(update, check=False)
    assert caught.value.code == ErrorCode.WRONG_TYPE
    with pytest.raises(LocalProtocolError) as caught:
        encode_unchecked(object())  # type: ignore[arg-type]
    assert caught.value.code == ErrorCode.UNKNOWN_TYPE


def test_every_message_round_trips_through_a_connection_pair() -> None:
    pair = ConnectionPair(seed=3)
    pair.handshake()
    for msg in ALL:
        sender = pair.host if msg.SENDER == "host" else pair.client
        events = pair.send(sender, msg)
        if isinstance(msg, Ping):
            assert events == []  # answered by the connection itself
            continue
        assert events == [MessageReceived(msg)]
    # Pings go both ways and are answered automatically.
    for sender in (pair.host, pair.client):
        receiver = pair.peer(sender)
        receiver.receive_data(sender.send(Ping(99)))
        assert receiver.next_event().__class__.__name__ == "NeedData"
        sender.receive_data(receiver.data_to_send())
        assert sender.next_event() == MessageReceived(ping_answer := _pong(99))
        assert ping_answer.nonce == 99


def _pong(nonce: int) -> Message:
    from protocol.messages import Pong

    return Pong(nonce)


def refused(data: Any) -> RemoteProtocolError:
    with pytest.raises(RemoteProtocolError) as info:
        decode(wire(data))
    return info.value


def test_unknown_message_type() -> None:
    err = refused({"type": "teleport", "to": 3})
    assert err.code is ErrorCode.UNKNOWN_TYPE and "teleport" in err.text


def test_missing_type() -> None:
    assert refused({"seat": 1}).code is ErrorCode.MISSING_FIELD


def test_type_of_wrong_type() -> None:
    assert refused({"type": 7}).code is ErrorCode.WRONG_TYPE


def test_not_a_map() -> None:
    assert refused([1, 2, 3]).code is ErrorCode.NOT_A_MAP


def test_wrong_field_type() -> None:
    data = encode(Join("Ann", None, False))
    data["spectator"] = "no"
    err = refused(data)
    assert err.code is ErrorCode.WRONG_TYPE
    assert "'spectator'" in err.text and "boolean" in err.text


def test_bool_is_not_an_int() -> None:
    data = encode(Ping(1))
    data["nonce"] = True
    assert refused(data).code is ErrorCode.WRONG_TYPE


def test_missing_field() -> None:
    data = encode(Join("Ann", None, False))
    del data["resume"]
    err = refused(data)
    assert err.code is ErrorCode.MISSING_FIELD and "'resume'" in err.text


def test_extra_field() -> None:
    data = encode(Join("Ann", None, False))
    data["admin"] = True
    err = refused(data)
    assert err.code is ErrorCode.EXTRA_FIELD and "admin" in err.text


def test_a_renamed_field_is_reported_as_unexpected() -> None:
    # As many keys as fields, one of them wrong: the unexpected name is what is reported.
    data = encode(Join("Ann", None, False))
    data["nmae"] = data.pop("name")
    err = refused(data)
    assert err.code is ErrorCode.EXTRA_FIELD and "nmae" in err.text


def test_out_of_range_integer() -> None:
    data = encode(Chat(0, "Ann", "hi"))
    data["seat"] = 9
    err = refused(data)
    assert err.code is ErrorCode.OUT_OF_RANGE and "between 0 and 7" in err.text


def test_out_of_range_length() -> None:
    data = encode(Join("Ann", None, False))
    data["name"] = "x" * 33
    assert refused(data).code is ErrorCode.OUT_OF_RANGE
    data["resume"] = b"short"
    data["name"] = "Ann"
    assert refused(data).code is ErrorCode.OUT_OF_RANGE


def test_control_characters_in_text() -> None:
    data = encode(Chat(0, "Ann", "hi"))
    data["text"] = "\x1b[2Jgotcha"
    assert refused(data).code is ErrorCode.OUT_OF_RANGE
    data["text"] = "abc\u202edef"
    assert refused(data).code is ErrorCode.OUT_OF_RANGE


def test_every_ascii_control_character_is_refused_and_other_scripts_are_not() -> None:
    data = encode(Chat(0, "Ann", "hi"))
    for code in [*range(0x20), 0x7F, 0x85, 0x9B]:
        data["text"] = f"hi{chr(code)}there"
        assert refused(data).code is ErrorCode.OUT_OF_RANGE, hex(code)
    for text in ("Zoë à Gand", "Ängelholm", "北京", "tab-free text ~!"):
        data["text"] = text
        assert decode(unpack(msgpack.packb(data))) == Chat(0, "Ann", text)


def test_bad_choice_in_a_nested_record() -> None:
    lobby = Lobby(
        "t",
        "g",
        2,
        {},
        (SeatInfo(0, "human", "A", False, True, None, False),),
        0,
        False,
        "lobby",
        "",
        0,
    )
    data = encode(lobby)
    data["seats"][0]["kind"] = "alien"
    err = refused(data)
    assert err.code is ErrorCode.OUT_OF_RANGE and "seats[0]" in err.text


def test_ext_type() -> None:
    payload = msgpack.packb({"type": "ping", "nonce": msgpack.ExtType(5, b"x")})
    with pytest.raises(RemoteProtocolError) as info:
        unpack(payload)
    assert info.value.code is ErrorCode.EXT_TYPE


def test_timestamp_ext_type() -> None:
    payload = b"\x82\xa4type\xa4ping\xa5nonce\xd6\xff\x00\x00\x00\x01"
    with pytest.raises(RemoteProtocolError) as info:
        unpack(payload)
    assert info.value.code is ErrorCode.EXT_TYPE


def test_too_deep() -> None:
    inner: Any = {}
    for _ in range(20):
        inner = {"x": inner}
    data = encode(Update(1, 0, (), VIEW, ()))
    data["view"] = inner
    with pytest.raises(RemoteProtocolError) as info:
        unpack(msgpack.packb(data))
    assert info.value.code is ErrorCode.TOO_DEEP


def test_far_too_deep_for_the_unpacker() -> None:
    with pytest.raises(RemoteProtocolError) as info:
        unpack(b"\x91" * 5000 + b"\x90")
    assert info.value.code is ErrorCode.TOO_DEEP


def test_non_string_map_key() -> None:
    data = encode(Update(1, 0, (), VIEW, ()))
    data["view"] = {1: "a"}
    with pytest.raises(RemoteProtocolError) as info:
        unpack(msgpack.packb(data))
    assert info.value.code is ErrorCode.BAD_KEY
    with pytest.raises(RemoteProtocolError) as info:
        unpack(b"\x81\xc4\x04type\xa4ping")  # a binary key
    assert info.value.code is ErrorCode.BAD_KEY


def test_duplicate_map_key() -> None:
    payload = b"\x82\xa4type\xa4ping\xa4type\xa4pong"
    with pytest.raises(RemoteProtocolError) as info:
        unpack(payload)
    assert info.value.code is ErrorCode.DUPLICATE_KEY


def test_invalid_utf8_and_garbage() -> None:
    for payload in (b"\xa2\xff\xfe", b"\xc1", b"\x92\x01", b"\x01\x02"):
        with pytest.raises(RemoteProtocolError) as info:
            unpack(payload)
        assert info.value.code is ErrorCode.BAD_ENCODING


def test_too_many_items() -> None:
    with pytest.raises(RemoteProtocolError) as info:
        unpack(b"\xdd\x00\x01\x00\x00" + b"\x00" * 65536)
    assert info.value.code is ErrorCode.TOO_LARGE


def test_non_finite_float() -> None:
    with pytest.raises(RemoteProtocolError) as info:
        unpack(msgpack.packb({"x": float("nan")}))
    assert info.value.code is ErrorCode.OUT_OF_RANGE


def test_invalid_outgoing_messages_are_local_errors() -> None:
    with pytest.raises(LocalProtocolError) as info:
        encode(Join("", None, False))
    assert info.value.code is ErrorCode.OUT_OF_RANGE
    with pytest.raises(LocalProtocolError):
        pack(encode(Update(1, 0, (), {"x": {1, 2}}, ())))
    with pytest.raises(LocalProtocolError):
        pack(encode(Update(1, 0, (), {3: "x"}, ())))  # type: ignore[dict-item]
    with pytest.raises(LocalProtocolError):
        encode(Update(1, 0, (), [], ()))  # type: ignore[arg-type]
    with pytest.raises(LocalProtocolError):
        pack({"x": object()})


def test_handshake_messages_cannot_be_sent_as_session_messages() -> None:
    pair = ConnectionPair(seed=4)
    pair.handshake()
    with pytest.raises(LocalProtocolError):
        pair.client.send(ClientHello(1, bytes(32)))
    pair = ConnectionPair(seed=4)
    pair.handshake()
    with pytest.raises(LocalProtocolError):
        pair.client.send(Confirm())
