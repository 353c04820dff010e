"""The handshake: keys agree, the host is authenticated, passwords and versions are checked."""

from __future__ import annotations

import msgpack
import pytest

from protocol.client_connection import ClientConnection
from protocol.connection import ConnectionState
from protocol.errors import (
    ErrorCode,
    HostKeyChanged,
    LocalProtocolError,
    PasswordRequired,
    PeerError,
    RemoteProtocolError,
    VersionMismatch,
    WrongPassword,
)
from protocol.events import HandshakeDone, MessageReceived
from protocol.framing import frame
from protocol.identity import IdentityFileError, IdentityKey, fingerprint
from protocol.limits import PROTOCOL_VERSION
from protocol.messages import Join, Say
from tests.protocol.support import (
    IDENTITY,
    OTHER_IDENTITY,
    ConnectionPair,
    drain,
    randomness,
)


def test_handshake_completes_and_both_ends_agree() -> None:
    pair = ConnectionPair(seed=1)
    pair.handshake()
    host_done = [e for e in pair.events["host"] if isinstance(e, HandshakeDone)]
    client_done = [e for e in pair.events["client"] if isinstance(e, HandshakeDone)]
    assert host_done == client_done and len(host_done) == 1
    done = host_done[0]
    assert done.host_key == IDENTITY.public_key
    assert done.fingerprint == IDENTITY.fingerprint
    assert done.table == "kitchen table" and not done.password_protected
    assert pair.host.state is pair.client.state is ConnectionState.OPEN


def test_handshake_is_deterministic_given_the_randomness() -> None:
    a, b = ConnectionPair(seed=5), ConnectionPair(seed=5)
    a.handshake()
    b.handshake()
    assert a.host.handshake == b.host.handshake
    c = ConnectionPair(seed=6)
    c.handshake()
    assert c.host.handshake is not None and a.host.handshake is not None
    assert c.host.handshake.session_id != a.host.handshake.session_id


def test_password_protected_table() -> None:
    pair = ConnectionPair(seed=2, password="tulip")
    pair.handshake()
    assert pair.client.handshake is not None and pair.client.handshake.password_protected
    assert pair.send(pair.client, Say("hi")) == [MessageReceived(Say("hi"))]


def test_wrong_password_is_named_on_both_sides() -> None:
    pair = ConnectionPair(seed=2, password="tulip", client_password="tulips")
    with pytest.raises(WrongPassword) as host_side:
        pair.flow()
    assert host_side.value.code is ErrorCode.WRONG_PASSWORD
    assert pair.host.state is ConnectionState.ERROR
    # The host told the client why, in plaintext (the client cannot read its encryption).
    pair.client.receive_data(pair.host.data_to_send())
    with pytest.raises(WrongPassword) as client_side:
        drain(pair.client)
    assert "wrong password" in str(client_side.value)
    assert pair.client.state is ConnectionState.ERROR


def test_password_is_not_on_the_wire() -> None:
    pair = ConnectionPair(seed=2, password="tulip-unique-secret")
    seen = bytearray()
    for _ in range(4):
        for sender in (pair.client, pair.host):
            data = sender.data_to_send()
            seen += data
            if data:  # b"" would mean end of stream
                pair.peer(sender).receive_data(data)
                drain(pair.peer(sender))
    assert pair.client.handshake is not None
    assert b"tulip" not in seen


def test_missing_password_gets_a_clear_error() -> None:
    pair = ConnectionPair(seed=2, password="tulip")
    pair.client = ClientConnection(randomness(9))
    with pytest.raises(PasswordRequired) as info:
        pair.flow()
    assert info.value.code is ErrorCode.PASSWORD_REQUIRED
    # The host learns the client gave up.
    pair.host.receive_data(pair.client.data_to_send())
    with pytest.raises(PeerError) as host_side:
        drain(pair.host)
    assert host_side.value.peer_code == "password_required"


def test_pinned_host_key_accepted() -> None:
    pair = ConnectionPair(seed=3, pinned=IDENTITY.public_key)
    pair.handshake()


def test_changed_host_key_is_refused_loudly() -> None:
    pair = ConnectionPair(seed=3, pinned=OTHER_IDENTITY.public_key)
    with pytest.raises(HostKeyChanged) as info:
        pair.flow()
    err = info.value
    assert err.code is ErrorCode.HOST_KEY_CHANGED
    assert err.expected == OTHER_IDENTITY.fingerprint and err.received == IDENTITY.fingerprint
    text = str(err)
    assert "WARNING" in text and OTHER_IDENTITY.fingerprint in text and IDENTITY.fingerprint in text
    assert "forget the old key" in text
    assert pair.client.handshake is None and pair.client.state is ConnectionState.ERROR


def _client_hello_with_version(version: int) -> bytes:
    return frame(
        msgpack.packb({"type": "client_hello", "version": version, "key_share": bytes(32)})
    )


def test_unknown_version_from_a_client() -> None:
    pair = ConnectionPair(seed=4)
    pair.host.receive_data(_client_hello_with_version(PROTOCOL_VERSION + 1))
    with pytest.raises(VersionMismatch) as info:
        drain(pair.host)
    assert info.value.ours == PROTOCOL_VERSION and info.value.theirs == PROTOCOL_VERSION + 1
    assert f"version {PROTOCOL_VERSION + 1}" in str(info.value)
    # ...and the client is told both numbers, in words.
    pair.client.receive_data(pair.host.data_to_send())
    with pytest.raises(VersionMismatch) as client_side:
        drain(pair.client)
    assert client_side.value.theirs == PROTOCOL_VERSION
    text = str(client_side.value)
    assert f"version {PROTOCOL_VERSION}" in text


def test_unknown_version_from_a_host() -> None:
    pair = ConnectionPair(seed=4)
    pair.client.data_to_send()
    hello = {
        "type": "host_hello",
        "version": 7,
        "identity": IDENTITY.public_key,
        "key_share": bytes(32),
        "password_salt": None,
        "table": "",
        "something_new": 1,
    }
    pair.client.receive_data(frame(msgpack.packb(hello)))
    with pytest.raises(VersionMismatch) as info:
        drain(pair.client)
    assert info.value.theirs == 7
    assert "the host speaks protocol version 7" in str(info.value)


def test_forged_signature_is_refused() -> None:
    pair = ConnectionPair(seed=5)
    pair.host.receive_data(pair.client.data_to_send())
    drain(pair.host)
    data = bytearray(pair.host.data_to_send())
    data[-1] ^= 1  # the last byte of the signature
    pair.client.receive_data(bytes(data))
    with pytest.raises(RemoteProtocolError) as info:
        drain(pair.client)
    assert info.value.code is ErrorCode.BAD_SIGNATURE


def test_impostor_with_its_own_key_cannot_use_a_pinned_identity() -> None:
    """A host signing with another key but claiming the pinned identity fails the signature."""
    pair = ConnectionPair(seed=5, identity=OTHER_IDENTITY, pinned=IDENTITY.public_key)
    pair.host.receive_data(pair.client.data_to_send())
    drain(pair.host)
    out = pair.host.data_to_send()
    # Rewrite the identity field of host_hello to the pinned key (same length).
    out = out.replace(OTHER_IDENTITY.public_key, IDENTITY.public_key)
    pair.client.receive_data(out)
    with pytest.raises(RemoteProtocolError) as info:
        drain(pair.client)
    assert info.value.code is ErrorCode.BAD_SIGNATURE


def test_low_order_key_share_is_refused() -> None:
    pair = ConnectionPair(seed=6)
    pair.host.receive_data(_client_hello_with_version(PROTOCOL_VERSION))  # all-zero key share
    with pytest.raises(RemoteProtocolError) as info:
        drain(pair.host)
    assert info.value.code is ErrorCode.BAD_KEY_SHARE


def test_session_message_before_confirm_is_refused() -> None:
    pair = ConnectionPair(seed=7)
    pair.host.receive_data(pair.client.data_to_send())
    drain(pair.host)
    pair.client.receive_data(pair.host.data_to_send())
    drain(pair.client)
    raw = pair.client.data_to_send()  # the client's confirm
    pair.client.send(Join("Ann", None, False))  # pipelining is allowed for a client...
    # ...but a client that skips its confirm is refused.
    forged = ConnectionPair(seed=7)
    forged.host.receive_data(forged.client.data_to_send())
    drain(forged.host)
    forged.client.receive_data(forged.host.data_to_send())
    drain(forged.client)
    forged.client.data_to_send()
    assert raw
    with pytest.raises(LocalProtocolError):
        forged.host.send(Say("x"))  # wrong role and before the handshake


def test_pipelined_join_arrives_after_the_handshake() -> None:
    pair = ConnectionPair(seed=8)
    pair.host.receive_data(pair.client.data_to_send())
    drain(pair.host)
    pair.client.receive_data(pair.host.data_to_send())
    drain(pair.client)
    data = pair.client.send(Join("Ann", None, False))
    pair.host.receive_data(data)
    events = drain(pair.host)
    assert isinstance(events[0], HandshakeDone)
    assert events[1] == MessageReceived(Join("Ann", None, False))


def test_host_cannot_send_before_the_handshake() -> None:
    pair = ConnectionPair(seed=8)
    with pytest.raises(LocalProtocolError) as info:
        pair.host.send(Say("x"))
    assert info.value.code in (ErrorCode.MISUSE, ErrorCode.UNEXPECTED_MESSAGE)


def test_close_during_handshake() -> None:
    pair = ConnectionPair(seed=9)
    pair.host.receive_data(b"")
    with pytest.raises(RemoteProtocolError) as info:
        drain(pair.host)
    assert info.value.code is ErrorCode.CLOSED


def test_fingerprint_format() -> None:
    text = fingerprint(IDENTITY.public_key)
    groups = text.split("-")
    assert len(groups) == 5 and all(len(g) == 4 for g in groups)
    assert set(text) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567-")
    assert text != fingerprint(OTHER_IDENTITY.public_key)


def test_identity_key_serialization() -> None:
    text = IDENTITY.dump()
    again = IdentityKey.load(text)
    assert again.public_key == IDENTITY.public_key
    generated = IdentityKey.generate(randomness(1))
    assert IdentityKey.load(generated.dump()).fingerprint == generated.fingerprint
    assert "IdentityKey(" in repr(IDENTITY) and text.split()[1] not in repr(IDENTITY)
    for bad in (
        "",
        "hello\nworld\n",
        "netcards-identity-v1\n!!!\n",
        "netcards-identity-v1\nAAAA\n",
    ):
        with pytest.raises(IdentityFileError):
            IdentityKey.load(bad)
