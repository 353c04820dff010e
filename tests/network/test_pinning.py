"""Trust on first use between real processes (docs/protocol.md section 5): a player pins the
host at 127.0.0.1:PORT; then another host, with another identity key, answers at that address.
The player's program refuses it loudly, tells it why in a plaintext `error`, and does not try
again."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import pytest

from protocol.messages import ClientHello, Error, decode
from protocol.wire import unpack
from tests.network.processes import Relay, bot, host, own_dirs, wait_for
from tests.network.raw import frame_bodies

TABLE = ("--game", "via-gladiola", "--players", "2", "--bind", "127.0.0.1")


@pytest.mark.parametrize("gone", ["crashed", "closed"])
def test_another_host_key_at_a_pinned_address_is_refused_once_and_told(
    tmp_path: Path, gone: str
) -> None:
    """A crashed host leaves its player reconnecting with a seat token, a closed one leaves a
    player who joins again later: either way the impostor's key ends the session at once. The
    impostor (another identity: another config folder) listens on the first host's port
    through a relay that keeps what the player sends it."""
    first, port, pinned = host(
        tmp_path, *TABLE, "--port", "0", name="first", env=own_dirs(tmp_path / "first")
    )
    ann = bot(tmp_path, port, "Ann")
    procs = [first, ann]
    relay = None
    try:
        wait_for(lambda: "Ann: seat 1" in ann.stderr(), 10, "Ann's seat")
        if gone == "crashed":
            first.kill()  # Ann keeps her seat token and keeps coming back for it
        else:
            first.popen.send_signal(signal.SIGTERM)  # the table closes, Ann's program stops
            first.wait(10)
            ann.wait(10)
            assert "the host closed the table" in ann.stdout()
        second, behind, other = host(
            tmp_path, *TABLE, "--port", "0", name="second", env=own_dirs(tmp_path / "second")
        )
        procs.append(second)
        relay = Relay(behind, port=port)
        if gone == "closed":
            ann = bot(tmp_path, port, "Ann")  # the same player's program, its pins and all
            procs.append(ann)
        assert ann.wait(10) != 0, "the player's program gave up"
        second.popen.send_signal(signal.SIGTERM)  # its log is whole once it has stopped
        second.wait(10)
    finally:
        for proc in procs:
            proc.kill()
        if relay is not None:
            relay.close()
    assert other != pinned
    said = ann.stderr()
    assert said.count("[host_key_changed]") == 1, said
    refusal = said[said.index("WARNING") :]
    assert pinned in refusal and other in refusal and "forget the old key" in refusal
    assert "trying again" not in refusal, "no reconnection after the refusal"
    # One connection, on which the player sent its hello and then, in plaintext (there are no
    # keys before the host is trusted), a fatal `error` naming both fingerprints.
    log = second.stderr()
    assert re.search(r"peer 1 .*the client gave up the handshake: .*\[host_key_changed\]", log)
    assert relay.connections == 1 and set(re.findall(r"\bpeer (\d+)", log)) == {"1"}, log
    sent = [decode(unpack(body)) for body in frame_bodies(bytes(relay.flows[0, True]))]
    assert [type(message) for message in sent] == [ClientHello, Error], sent
    error = sent[1]
    assert isinstance(error, Error) and (error.code, error.fatal) == ("host_key_changed", True)
    assert pinned in error.text and other in error.text
