"""Encrypted frames: anything but the exact next frame of this connection is refused."""

from __future__ import annotations

import pytest

from protocol.connection import ConnectionState
from protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from protocol.events import ConnectionClosed, MessageReceived, NeedData
from protocol.framing import FrameReader, frame
from protocol.limits import LENGTH_PREFIX, MAX_FRAME
from protocol.messages import Chat, Error, Say, Update
from tests.protocol.support import VIEW, ConnectionPair, drain

MESSAGE = Chat(1, "Bea", "the quick brown fox")


def ready(seed: int = 11) -> ConnectionPair:
    pair = ConnectionPair(seed=seed)
    pair.handshake()
    return pair


def refusal(pair: ConnectionPair, data: bytes, eof: bool = True) -> RemoteProtocolError:
    pair.client.receive_data(data)
    if eof:
        pair.client.receive_data(b"")
    with pytest.raises(RemoteProtocolError) as info:
        drain(pair.client)
    assert pair.client.state is ConnectionState.ERROR
    return info.value


def test_a_good_frame_passes() -> None:
    pair = ready()
    pair.client.receive_data(pair.host.send(MESSAGE))
    assert drain(pair.client) == [MessageReceived(MESSAGE)]


@pytest.mark.parametrize("seed", range(3))
def test_every_single_bit_flip_is_refused(seed: int) -> None:
    raw = ready(seed).host.send(MESSAGE)
    for bit in range(len(raw) * 8):
        pair = ready(seed)
        pair.host.send(MESSAGE)  # keep the counters in step with `raw`
        data = bytearray(raw)
        data[bit // 8] ^= 1 << (bit % 8)
        err = refusal(pair, bytes(data))
        assert err.code in (
            ErrorCode.AUTHENTICATION_FAILED,
            ErrorCode.TRUNCATED,
            ErrorCode.FRAME_TOO_LARGE,
            ErrorCode.EMPTY_FRAME,
        ), (bit, err)
        if bit >= LENGTH_PREFIX * 8:
            assert err.code is ErrorCode.AUTHENTICATION_FAILED


def test_replayed_frame() -> None:
    pair = ready()
    raw = pair.host.send(MESSAGE)
    pair.client.receive_data(raw)
    assert drain(pair.client) == [MessageReceived(MESSAGE)]
    err = refusal(pair, raw, eof=False)
    assert err.code is ErrorCode.AUTHENTICATION_FAILED


def test_swapped_frames() -> None:
    pair = ready()
    first = pair.host.send(MESSAGE)
    second = pair.host.send(Chat(0, "Ann", "jumps over"))
    err = refusal(pair, second + first, eof=False)
    assert err.code is ErrorCode.AUTHENTICATION_FAILED


def test_dropped_frame() -> None:
    pair = ready()
    pair.host.send(MESSAGE)
    second = pair.host.send(Chat(0, "Ann", "jumps over"))
    assert refusal(pair, second, eof=False).code is ErrorCode.AUTHENTICATION_FAILED


def test_truncated_frame_at_end_of_stream() -> None:
    pair = ready()
    raw = pair.host.send(MESSAGE)
    err = refusal(pair, raw[:-5])
    assert err.code is ErrorCode.TRUNCATED


def test_truncated_frame_followed_by_another() -> None:
    pair = ready()
    first = pair.host.send(MESSAGE)
    second = pair.host.send(Chat(0, "Ann", "jumps over the lazy dog"))
    err = refusal(pair, first[:-5] + second)
    assert err.code in (ErrorCode.AUTHENTICATION_FAILED, ErrorCode.TRUNCATED)


def test_truncated_length_prefix() -> None:
    pair = ready()
    assert refusal(pair, b"\x00\x00").code is ErrorCode.TRUNCATED


def test_oversized_length_prefix_is_refused_at_once() -> None:
    pair = ready()
    prefix = (MAX_FRAME + 1).to_bytes(LENGTH_PREFIX, "big")
    err = refusal(pair, prefix, eof=False)  # no body needed: refused on the prefix alone
    assert err.code is ErrorCode.FRAME_TOO_LARGE
    assert str(MAX_FRAME) in err.text


def test_empty_frame() -> None:
    pair = ready()
    assert refusal(pair, b"\x00\x00\x00\x00", eof=False).code is ErrorCode.EMPTY_FRAME


def test_frame_under_another_connections_keys() -> None:
    one, two = ready(seed=21), ready(seed=22)
    foreign = two.host.send(MESSAGE)
    assert refusal(one, foreign, eof=False).code is ErrorCode.AUTHENTICATION_FAILED


def test_frame_from_the_other_direction_is_refused() -> None:
    """The client's own frame reflected back at it (each direction has its own key)."""
    pair = ready()
    reflected = pair.client.send(Say("hello"))
    assert refusal(pair, reflected, eof=False).code is ErrorCode.AUTHENTICATION_FAILED


def test_plaintext_after_the_handshake_is_refused() -> None:
    from protocol.wire import pack

    pair = ready()
    forged = frame(pack({"type": "chat", "seat": 0, "name": "Ann", "text": "trust me"}))
    assert refusal(pair, forged, eof=False).code is ErrorCode.AUTHENTICATION_FAILED


def test_wrong_direction_message_is_refused() -> None:
    pair = ready()
    # A client may not send an update, even a perfectly encrypted one.
    pair.host.receive_data(pair.client._seal(Update(1, 0, (), VIEW, ())))
    with pytest.raises(RemoteProtocolError) as info:
        drain(pair.host)
    assert info.value.code is ErrorCode.UNEXPECTED_MESSAGE


def test_after_an_error_every_call_raises_and_the_peer_is_told() -> None:
    pair = ready()
    pair.host.send(MESSAGE)
    second = pair.host.send(MESSAGE)
    refusal(pair, second, eof=False)
    for call in (
        pair.client.next_event,
        lambda: pair.client.receive_data(b"x"),
        lambda: pair.client.send(Say("still there?")),
    ):
        with pytest.raises(LocalProtocolError) as info:
            call()
        assert "failed earlier" in str(info.value)
    # The client queued an encrypted, fatal error for the host.
    pair.host.receive_data(pair.client.data_to_send())
    (event,) = drain(pair.host)
    assert isinstance(event, MessageReceived) and isinstance(event.message, Error)
    assert event.message.code == "authentication_failed" and event.message.fatal


def test_clean_close_between_frames() -> None:
    pair = ready()
    pair.client.receive_data(pair.host.send(MESSAGE))
    pair.client.receive_data(b"")
    assert drain(pair.client) == [MessageReceived(MESSAGE), ConnectionClosed()]
    assert pair.client.next_event() == ConnectionClosed()


def test_bytes_arriving_one_at_a_time() -> None:
    pair = ready()
    raw = pair.host.send(MESSAGE) + pair.host.send(MESSAGE)
    events = []
    for i in range(len(raw)):
        pair.client.receive_data(raw[i : i + 1])
        events += drain(pair.client)
    assert events == [MessageReceived(MESSAGE)] * 2
    assert pair.client.next_event() == NeedData()


def test_outgoing_message_too_large() -> None:
    pair = ready()
    with pytest.raises(LocalProtocolError) as info:
        pair.host.send(Update(1, 0, (), {"blob": b"x" * MAX_FRAME}, ()))
    assert info.value.code is ErrorCode.TOO_LARGE


def test_frame_reader_limits() -> None:
    reader = FrameReader()
    reader.feed(frame(b"abc") + frame(b"de"))
    assert reader.next_body() == b"abc" and reader.next_body() == b"de"
    assert reader.next_body() is None
    with pytest.raises(LocalProtocolError):
        frame(b"x" * (MAX_FRAME + 1))
