"""The SSH door, on loopback: who gets in, what they may open, and that nothing else goes through.

Guests here are asyncssh clients; those that play have a PTY whose output a terminal emulator
renders, and they play with key presses only, as a person would.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

import asyncssh
import pytest

from protocol.identity import ssh_blob_fingerprint
from protocol.throttle import FailureThrottle
from tests.network.door_support import authorized, client_key, connect, door_table, guest
from ui.ssh_door import DoorSettings


async def test_a_session_without_a_terminal_gets_one_line_and_status_2(tmp_path: Path) -> None:
    async with door_table(tmp_path) as table:
        visitor = await guest(table, "ann", key=client_key(), pty=False)
        await asyncio.wait_for(visitor.term.closed.wait(), 10)
        said = bytes(visitor.term.stderr).decode()
        assert "this table needs a terminal: use ssh -t" in said.lower()
        assert f"-p {table.port} ann@127.0.0.1" in said
        assert visitor.term.exit_status == 2
        assert not table.door.sessions, "nothing was started for it"
        await visitor.close()


async def test_the_refusal_speaks_the_guests_language(tmp_path: Path) -> None:
    async with door_table(tmp_path) as table:
        visitor = await guest(table, "ann", key=client_key(), pty=False, env={"LANG": "fr_FR"})
        await asyncio.wait_for(visitor.term.closed.wait(), 10)
        assert "Cette table a besoin d'un terminal" in bytes(visitor.term.stderr).decode()
        await visitor.close()


@pytest.mark.parametrize("command", ["ls /", "sh", "watch; id", "netcards host --game x"])
async def test_any_other_command_is_refused_with_a_message(tmp_path: Path, command: str) -> None:
    async with door_table(tmp_path) as table:
        visitor = await guest(table, "ann", key=client_key(), command=command)
        await asyncio.wait_for(visitor.term.closed.wait(), 10)
        said = bytes(visitor.term.stderr).decode()
        assert "serves the card table only" in said and "runs no commands" in said
        assert visitor.term.exit_status == 2
        assert visitor.term.received == 0, "nothing ran: no output at all"
        assert table.logged(f"refused command {command!r}")
        await visitor.close()


async def test_a_guest_who_asks_to_forward_an_agent_is_told_it_is_not(tmp_path: Path) -> None:
    """OpenSSH asks for agent forwarding without waiting for an answer, so a refusal alone
    would leave its user none the wiser: the door says it, then seats them as usual."""
    async with door_table(tmp_path, players=3) as table:
        visitor = await guest(table, "ann", key=client_key(), agent=str(tmp_path / "agent"))
        await visitor.wait_for("Host fingerprint")
        said = bytes(visitor.term.stderr).decode()
        assert "forwards no SSH agent" in said, said
        assert table.logged("refused agent forwarding to 'ann'")
        plain = await guest(table, "bea", key=client_key())
        await plain.wait_for("Host fingerprint")
        assert not plain.term.stderr, "nothing to say to a guest who asked for nothing"
        await visitor.close()
        await plain.close()


async def test_sftp_and_port_forwarding_are_refused(tmp_path: Path) -> None:
    async with door_table(tmp_path) as table:
        conn = await connect(table, "ann", key=client_key())
        with pytest.raises((asyncssh.Error, OSError)):
            async with conn.start_sftp_client() as sftp:
                await sftp.listdir("/")
        assert table.logged("refused subsystem 'sftp'")
        with pytest.raises(asyncssh.ChannelOpenError) as refused:
            await conn.open_connection("127.0.0.1", table.host.port)
        assert "no forwarding" in refused.value.reason
        assert table.logged(f"refused port forwarding to 127.0.0.1:{table.host.port}")
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.start_server(lambda *_: True, "127.0.0.1", 0)
        assert table.logged("refused remote forwarding")
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_unix_connection(str(tmp_path / "socket"))
        assert table.logged("refused socket forwarding")
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.start_unix_server(lambda *_: True, str(tmp_path / "listening"))
        conn.close()
        await conn.wait_closed()


async def test_one_table_session_per_connection(tmp_path: Path) -> None:
    async with door_table(tmp_path, players=3) as table:
        visitor = await guest(table, "ann", key=client_key())
        await visitor.wait_for("Host fingerprint")
        with pytest.raises(asyncssh.ChannelOpenError) as refused:
            await visitor.conn.create_session(asyncssh.SSHClientSession, term_type="xterm")
        assert "one table session per connection" in refused.value.reason
        await visitor.close()


async def test_a_connection_that_does_not_log_in_in_time_is_closed(tmp_path: Path) -> None:
    async with door_table(tmp_path, door=DoorSettings(login_grace=0.5)) as table:
        reader, writer = await asyncio.open_connection("127.0.0.1", table.port)
        writer.write(b"SSH-2.0-Slowpoke\r\n")  # and nothing more
        started = time.monotonic()
        with contextlib.suppress(ConnectionError):
            while await asyncio.wait_for(reader.read(65536), 5):
                pass
        assert time.monotonic() - started < 4, "closed after the login grace, not left open"
        writer.close()


async def test_a_wrong_password_is_refused_and_failures_are_throttled(tmp_path: Path) -> None:
    throttle = FailureThrottle(free=3, base=0.4, cap=5.0)
    async with door_table(tmp_path, password="swordfish", throttle=throttle) as table:
        for _ in range(4):
            with pytest.raises(asyncssh.PermissionDenied):
                await connect(table, "ann", password="sardine")
        assert sum("wrong password" in line for line in table.lines) == 4
        wait = throttle.delay("127.0.0.1", time.monotonic())
        assert wait > 0, "after three failures the address must wait"
        started = time.monotonic()
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(table, "ann", password="sardine")
        assert time.monotonic() - started >= wait * 0.9, "the next guess was judged only later"
        # The right password gets in (and, asking for no terminal, gets the one line).
        throttle.success("127.0.0.1")
        visitor = await guest(table, "ann", password="swordfish", pty=False)
        await asyncio.wait_for(visitor.term.closed.wait(), 10)
        assert visitor.term.exit_status == 2
        assert table.logged("'ann' from 127.0.0.1 is in (password)")
        await visitor.close()


async def test_a_key_holder_at_a_table_with_a_password_still_types_it(tmp_path: Path) -> None:
    async with door_table(tmp_path, password="swordfish") as table:
        visitor = await guest(table, "ann", key=client_key())
        await visitor.wait_for("Table password:")
        for _ in range(3):
            visitor.keys("sardine", "enter")
            await asyncio.sleep(0.05)
        await asyncio.wait_for(visitor.term.closed.wait(), 15)
        assert visitor.term.exit_status == 1
        assert "Wrong password" in bytes(visitor.term.stderr).decode()
        assert "sardine" not in visitor.text(), "the password is not echoed"
        assert not table.logged("plays in process"), "no app was started"
        await visitor.close()
        again = await guest(table, "ann", key=client_key())
        await again.wait_for("Table password:")
        again.keys("swordfish", "enter")
        await table.wait_logged("'ann' from 127.0.0.1 plays in process")
        await again.close()


async def test_the_keys_file_refuses_an_unknown_key_and_admits_a_listed_one(
    tmp_path: Path,
) -> None:
    listed, stranger = client_key(), client_key()
    async with door_table(tmp_path, authorized_keys=authorized(listed)) as table:
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(table, "ann", key=stranger)
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(table, "ann", password="anything")
        assert table.logged(stranger.get_fingerprint("sha256") + ", which is not in the keys file")
        visitor = await guest(table, "ann", key=listed, pty=False)
        await asyncio.wait_for(visitor.term.closed.wait(), 10)
        assert visitor.term.exit_status == 2, "in (a terminal is all it lacks)"
        assert table.logged(f"is in (key {listed.get_fingerprint('sha256')})")
        await visitor.close()


async def test_a_flood_of_connections_leaves_the_table_playing_and_the_door_answering(
    tmp_path: Path,
) -> None:
    settings = DoorSettings(max_unauthenticated=16, login_grace=30.0)
    async with door_table(tmp_path, bots=2, bot_delay=0.02, door=settings) as table:
        seq = table.host.seq

        async def knock() -> None:
            try:
                _reader, writer = await asyncio.open_connection("127.0.0.1", table.port)
                writer.write(b"SSH-2.0-flood\r\n")
                await writer.drain()
                writer.close()
            except OSError:
                pass

        hanging = [await asyncio.open_connection("127.0.0.1", table.port) for _ in range(20)]
        await asyncio.gather(*(knock() for _ in range(100)))
        visitor = await guest(table, "ann", key=client_key(), pty=False)
        await asyncio.wait_for(visitor.term.closed.wait(), 10)
        assert visitor.term.exit_status == 2, "an honest guest still gets through"
        await visitor.close()
        assert len(table.door._logging_in) <= settings.max_unauthenticated
        assert table.logged("closed the oldest")
        assert table.host.seq > seq, "the table went on playing"
        for _reader, writer in hanging:
            writer.close()


async def test_the_state_folder_follows_the_key_else_the_user_name(tmp_path: Path) -> None:
    async with door_table(tmp_path) as table:
        door = table.door
        ann, eve = client_key(), client_key()
        assert door.guest_folder(ann.public_data, "ann") != door.guest_folder(
            eve.public_data, "ann"
        )
        assert door.guest_folder(ann.public_data, "ann") == door.guest_folder(ann.public_data, "bo")
        assert door.guest_folder(None, "ann") == door.guest_folder(None, "ann")
        assert door.guest_folder(None, "ann") not in {
            door.guest_folder(ann.public_data, "ann"),
            door.guest_folder(None, "bob"),
        }


async def test_a_guest_app_gets_their_terminal_and_language_and_nothing_else(
    tmp_path: Path,
) -> None:
    from types import SimpleNamespace

    sent = {
        "LANG": "nl_NL.UTF-8", "LC_TIME": "fr_FR.UTF-8", "NO_COLOR": "1", "COLORTERM": "truecolor",
        "LD_PRELOAD": "/nonexistent/evil.so", "PYTHONPATH": "/nonexistent/evil", "PATH": "/nonexistent/evil",
        "NETCARDS_CONFIG_DIR": "/", "TEXTUAL": "devtools", "LC_ALL": "x\x00y",
    }  # fmt: skip
    async with door_table(tmp_path, password="swordfish") as table:
        session = SimpleNamespace(term="xterm-kitty", sent_env=sent)
        env = table.door.environment(session, tmp_path / "guest")  # type: ignore[arg-type]
        bad_term = SimpleNamespace(term="xterm\x1b]0;owned\x07", sent_env={})
        assert table.door.environment(bad_term, tmp_path)["TERM"] == "xterm"  # type: ignore[arg-type]
    assert env["TERM"] == "xterm-kitty"
    assert env["LANG"] == "nl_NL.UTF-8" and env["LC_TIME"] == "fr_FR.UTF-8"
    assert env["NO_COLOR"] == "1" and env["COLORTERM"] == "truecolor"
    assert "LD_PRELOAD" not in env and "TEXTUAL" not in env and "LC_ALL" not in env
    assert env["PATH"] != "/nonexistent/evil" and "/nonexistent/evil" not in env["PYTHONPATH"]
    assert env["NETCARDS_CONFIG_DIR"] == str(tmp_path / "guest" / "config")
    assert env["NETCARDS_PASSWORD"] == "swordfish", "from the environment, not the command line"


async def test_many_connections_at_once_do_not_guess_faster_than_one(tmp_path: Path) -> None:
    class Recording(FailureThrottle):
        times: list[float] = []

        def failure(self, key: str, now: float) -> None:
            self.times.append(now)
            super().failure(key, now)

    throttle = Recording(free=0, base=0.1, cap=5.0)
    async with door_table(tmp_path, password="swordfish", throttle=throttle) as table:

        async def guess() -> None:
            with pytest.raises(asyncssh.PermissionDenied):
                await connect(table, "eve", password="sardine")

        await asyncio.gather(*(guess() for _ in range(4)))
    first, *_, last = sorted(throttle.times)
    assert len(throttle.times) == 4
    assert last - first >= 0.1 + 0.2 + 0.4 - 0.05, "each guess waited for the one before"


async def test_a_key_offered_but_not_proved_is_not_the_guests_identity(tmp_path: Path) -> None:
    """Anyone can offer anyone's public key: Eve offers Ann's and signs with her own. The door
    lets her in only as what she proved (here, nothing: a table with no password), never with
    Ann's key, which names Ann's folder and gives back Ann's seat."""
    from asyncssh.public_key import SSHLocalKeyPair

    ann, eve = client_key(), client_key()
    posing = SSHLocalKeyPair(eve, None, None, None)
    posing.public_data = ann.public_data  # offered; every signature is still Eve's
    async with door_table(tmp_path) as table:
        conn = await connect(table, "ann", key=posing, password="x")  # type: ignore[arg-type]
        said = await table.wait_logged("'ann' from 127.0.0.1 is in")
        assert "is in (no password)" in said, said
        conn.close()
        real = await connect(table, "ann", key=ann)
        said = await table.wait_logged("is in (key")
        assert ssh_blob_fingerprint(ann.public_data) in said, "the real key does count"
        real.close()
