"""The handshake test vector printed in docs/protocol.md, computed live.

A second implementation can check itself against the same numbers; this test keeps the
document and the code from drifting apart.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import msgpack

from protocol.client_connection import ClientConnection
from protocol.crypto import TablePassword, session_keys, stretch_password
from protocol.events import HandshakeDone
from protocol.framing import FrameReader
from protocol.host_connection import HostConnection
from protocol.identity import IdentityKey
from protocol.limits import PROTOCOL_VERSION
from protocol.messages import Say
from tests.protocol.support import drain

IDENTITY_SEED = bytes(range(32))
CLIENT_EPHEMERAL = bytes(0x40 + i for i in range(32))
HOST_EPHEMERAL = bytes(0x60 + i for i in range(32))
SALT = bytes(range(0xA0, 0xB0))
PASSWORD = "tulip"
TABLE = "kitchen"


def draws(*values: bytes) -> Callable[[int], bytes]:
    """Randomness that gives `values` in order, each of the size asked for."""
    queue = list(values)

    def draw(n: int) -> bytes:
        value = queue.pop(0)
        assert len(value) == n
        return value

    return draw


def vector() -> dict[str, str]:
    identity = IdentityKey(IDENTITY_SEED)
    client = ClientConnection(draws(CLIENT_EPHEMERAL), password=PASSWORD)
    host = HostConnection(
        identity, draws(HOST_EPHEMERAL, SALT), password=TablePassword(PASSWORD), table=TABLE
    )
    client_hello = client.data_to_send()
    host.receive_data(client_hello)
    drain(host)
    host_frames = host.data_to_send()
    client.receive_data(host_frames)
    drain(client)
    client_confirm = client.data_to_send()
    host.receive_data(client_confirm)
    (done,) = drain(host)
    host_confirm = host.data_to_send()
    client.receive_data(host_confirm)
    assert drain(client) == [done]
    assert isinstance(done, HandshakeDone)
    reader = FrameReader()
    reader.feed(host_frames)
    host_hello_body, host_auth_body = reader.next_body(), reader.next_body()
    assert host_hello_body is not None and host_auth_body is not None
    password_key = stretch_password(PASSWORD, SALT)
    shared = bytes.fromhex(  # X25519(client ephemeral, host ephemeral's public key)
        _shared_hex()
    )
    c2h, h2c = session_keys(shared, password_key, done.session_id)
    say = client.send(Say("hello"))
    return {
        "identity public key": identity.public_key.hex(),
        "fingerprint": identity.fingerprint,
        "client_hello frame": client_hello.hex(),
        "host_hello frame": (len(host_hello_body).to_bytes(4, "big") + host_hello_body).hex(),
        "host_auth frame": (len(host_auth_body).to_bytes(4, "big") + host_auth_body).hex(),
        "password key (scrypt)": password_key.hex(),
        "X25519 shared secret": shared.hex(),
        "transcript hash (session id)": done.session_id.hex(),
        "client-to-host key": c2h.hex(),
        "host-to-client key": h2c.hex(),
        "client confirm frame": client_confirm.hex(),
        "host confirm frame": host_confirm.hex(),
        "client's say 'hello' frame (counter 1)": say.hex(),
    }


def _shared_hex() -> str:
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    host_public = X25519PrivateKey.from_private_bytes(HOST_EPHEMERAL).public_key()
    return X25519PrivateKey.from_private_bytes(CLIENT_EPHEMERAL).exchange(host_public).hex()


def test_vector_is_in_the_documentation() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text()
    for name, value in vector().items():
        assert value in doc.replace("\n", "").replace(" ", ""), f"{name} differs from the docs"


def test_vector_frames_are_plain_msgpack_where_expected() -> None:
    v = vector()
    hello = msgpack.unpackb(bytes.fromhex(v["client_hello frame"])[4:])
    assert hello["type"] == "client_hello" and hello["version"] == PROTOCOL_VERSION == 5


if __name__ == "__main__":
    for name, value in vector().items():
        print(f"{name}:\n{value}\n")
