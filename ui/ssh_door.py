"""The table's SSH door: a friend with nothing but `ssh` types one command and sits at the table.

The host opens an SSH server beside the table (asyncssh; the host key is the table's own
Ed25519 identity, so one key stands behind both fingerprints). Each guest who opens a session
with a terminal gets one child process, `netcards join 127.0.0.1:PORT --name USER --guest`, on a
PTY of their own (see `ui.guest_process`): the same app every player runs, joining the table
over loopback like any client, so the table's protocol, encryption and seat rules are the ones
that apply. Nothing else goes through the door: no shell, no other command, no forwarding, no
file transfer.

Who a guest is decides which seat they get back after a dropped connection: each guest has a
state folder of their own here (their seat tokens), named after their SSH public key when their
client proved one, else after their user name. Someone with another key who types the same user
name gets another folder, so never that seat.

Limits keep a flood from hurting the table: a cap on connections still logging in (the oldest
gives way), a login grace time, a throttle on failed logins per address, one session per
connection, and at most seats + spectators + a margin guest sessions at once.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import hashlib
import hmac
import logging
import os
import re
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncssh

import netcards
from netcards.errors import GameError
from netcards.table import clean_name
from protocol.address import format_address
from protocol.host import TableHost
from protocol.identity import ssh_blob_fingerprint, ssh_fingerprint
from protocol.known_hosts import KnownHosts
from protocol.settings import data_dir
from protocol.throttle import FailureThrottle
from ui.guest_process import GuestProcess
from ui.i18n import N_, from_locale, load

WATCH = "watch"
EXIT_USAGE = 2
EXIT_REFUSED = 1

# The guest's own settings that reach their app: terminal, language, colours.
PASSED_ENV = re.compile(r"^(LANG|LANGUAGE|LC_[A-Z]+|NO_COLOR|COLORTERM)$")
TERM_TYPE = re.compile(r"^[A-Za-z0-9._+-]{1,64}$")

logging.getLogger("asyncssh").addHandler(logging.NullHandler())
logging.getLogger("asyncssh").propagate = False


class DoorError(ValueError):
    """The door cannot open as asked (an unreadable keys file); says what is wrong."""


@dataclass
class DoorSettings:
    """Limits; the defaults suit people, tests shorten the times."""

    login_grace: float = 30.0
    """Seconds a connection has to log in."""
    max_unauthenticated: int = 32
    """Connections still logging in at once; past this the oldest is closed."""
    spectators: int = 8
    margin: int = 2
    """Guest sessions at once: the table's seats + spectators + margin."""
    hang_up_grace: float = 3.0
    """Seconds between SIGHUP and SIGKILL when a guest's connection closes."""
    keepalive: float = 15.0
    """A silent guest is asked every this many seconds; after 4 unanswered, dropped."""
    password_tries: int = 3


def read_authorized_keys(path: Path) -> asyncssh.SSHAuthorizedKeys:
    """An OpenSSH `authorized_keys` file (options such as `from=` are honoured)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DoorError(f"cannot read the SSH keys file {str(path)!r}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise DoorError(f"the SSH keys file {str(path)!r} is not UTF-8 text") from None
    if not any(line.strip() and not line.lstrip().startswith("#") for line in text.splitlines()):
        raise DoorError(f"the SSH keys file {str(path)!r} lists no key")
    try:
        return asyncssh.import_authorized_keys(text)
    except (asyncssh.KeyImportError, ValueError) as exc:
        raise DoorError(f"the SSH keys file {str(path)!r} is not valid: {exc}") from None


def guest_command(port: int, name: str = "NAME", address: str = "ADDRESS") -> str:
    """What a guest types to sit at the table (`ssh` takes an IPv6 address bare, no brackets)."""
    return f"ssh -p {port} {name}@{address.strip('[]')}"


def local_address(bind: str, port: int) -> str:
    """Where a guest's app on this machine reaches the table."""
    if bind in ("", "0.0.0.0", "::"):
        return f"127.0.0.1:{port}"
    return format_address(bind, port)


def translator(environ: Mapping[str, str]) -> Callable[[str], str]:
    """`_` in the guest's language (their LANG), not the host's."""
    return load(from_locale(environ)).gettext


def _packages_root() -> str:
    return str(Path(netcards.__file__).resolve().parent.parent)


class SshDoor:
    def __init__(
        self,
        host: TableHost,
        *,
        table_address: str,
        password: str | None = None,
        authorized_keys: asyncssh.SSHAuthorizedKeys | None = None,
        state_root: Path,
        settings: DoorSettings | None = None,
        log: Callable[[str], None] | None = None,
        failed_login: Callable[[str, str], None] | None = None,
        throttle: FailureThrottle | None = None,
        python: str = sys.executable,
    ) -> None:
        self.host = host
        self.table_address = table_address
        self.password = password
        self.authorized_keys = authorized_keys
        self.state_root = state_root
        self.settings = settings or DoorSettings()
        self.log: Callable[[str], None] = log or (lambda _line: None)
        self.failed_login = failed_login
        self.throttle = throttle if throttle is not None else FailureThrottle()
        self.python = python
        self.port = 0
        self.sessions: set[GuestSession] = set()
        self._guests: dict[tuple[str, str], GuestSession] = {}
        self._logging_in: dict[int, DoorConnection] = {}
        self._judging: dict[str, tuple[asyncio.Lock, int]] = {}
        self._server: asyncssh.SSHAcceptor | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    @property
    def fingerprint(self) -> str:
        return ssh_fingerprint(self.host.identity.public_key)

    def command(self, name: str = "NAME", address: str = "ADDRESS") -> str:
        return guest_command(self.port, name, address)

    @property
    def capacity(self) -> int:
        s = self.settings
        return self.host.table.config.players + s.spectators + s.margin

    async def start(self, bind: str, port: int) -> int:
        host_key = asyncssh.import_private_key(self.host.identity.dump_openssh())
        self._server = await asyncssh.create_server(
            lambda: DoorConnection(self),
            bind,
            port,
            server_host_keys=[host_key],
            login_timeout=self.settings.login_grace,
            keepalive_interval=self.settings.keepalive,
            keepalive_count_max=4,
            encoding=None,
            line_editor=False,
            x11_forwarding=False,
            agent_forwarding=False,
            allow_scp=False,
            gss_kex=False,
            gss_auth=False,
            host_based_auth=False,
            server_version="netcards",
        )
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self.port

    async def close(self) -> None:
        """Say goodbye to every guest and end their apps, whether or not their clients
        answer."""
        if self._server is not None:
            self._server.close()
        sessions = list(self.sessions)
        for session in sessions:
            session.end(N_("The table has closed."), EXIT_REFUSED)
        for conn in list(self._logging_in.values()):
            conn.abort()
        hang_ups = [s.process.hang_up(self.settings.hang_up_grace) for s in sessions if s.process]
        await asyncio.gather(*hang_ups, return_exceptions=True)
        for session in sessions:
            session.conn.abort()
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)

    async def linger(self, seconds: float) -> None:
        """After the game: give guests time to read the results and leave by themselves."""
        deadline = time.monotonic() + seconds
        while any(not s.closed for s in self.sessions) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)

    def spawn_task(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- connections still logging in -----------------------------------------------------------

    def connected(self, conn: DoorConnection) -> bool:
        """A new TCP connection; False if it must be closed at once."""
        if self.throttle.refused(conn.address, time.monotonic()):
            self.log(f"ssh door: refused {conn.address}: too many failed logins, for a while")
            return False
        self._logging_in[id(conn)] = conn
        if len(self._logging_in) > self.settings.max_unauthenticated:
            oldest = next(iter(self._logging_in.values()))
            self.log(
                f"ssh door: {len(self._logging_in)} connections logging in at once; "
                f"closed the oldest, from {oldest.address}"
            )
            self._logging_in.pop(id(oldest), None)
            oldest.abort()
        return True

    def logged_in(self, conn: DoorConnection) -> None:
        self._logging_in.pop(id(conn), None)
        self.throttle.success(conn.address)
        how = f"key {ssh_blob_fingerprint(conn.key)}" if conn.key else conn.method
        self.log(f"ssh door: {conn.username!r} from {conn.address} is in ({how})")

    def disconnected(self, conn: DoorConnection) -> None:
        if self._logging_in.pop(id(conn), None) is not None and conn.refused_keys:
            self.failure(conn.address, conn.username, "no key it offered is allowed")

    # -- judging logins -------------------------------------------------------------------------

    def key_allowed(self, conn: DoorConnection, key: asyncssh.SSHKey) -> bool:
        keys = self.authorized_keys
        if keys is None:
            return True  # any key is an identity (trust on first use), as any name is
        return keys.validate(key, conn.address, conn.address) is not None

    def failure(self, address: str, user: str, why: str) -> None:
        self.throttle.failure(address, time.monotonic())
        self.log(f"ssh door: failed login as {user!r} from {address}: {why}")
        if self.failed_login is not None:
            self.failed_login(address, user)

    async def check_password(self, address: str, user: str, given: str) -> bool:
        """The table password, judged after the address's throttle delay, one guess at a time
        per address (many connections at once do not guess faster than one)."""
        if self.password is None:
            return True
        lock, waiting = self._judging.get(address) or (asyncio.Lock(), 0)
        self._judging[address] = (lock, waiting + 1)
        try:
            async with lock:
                now = time.monotonic()
                if self.throttle.refused(address, now):
                    self.log(f"ssh door: refused {address}: too many failed logins, for a while")
                    return False
                wait = self.throttle.delay(address, now)
                if wait > 0:
                    await asyncio.sleep(wait)
                if hmac.compare_digest(given.encode(), self.password.encode()):
                    return True
                self.failure(address, user, "wrong password")
                return False
        finally:
            lock, waiting = self._judging[address]
            if waiting > 1:
                self._judging[address] = (lock, waiting - 1)
            else:
                del self._judging[address]

    # -- guest sessions -------------------------------------------------------------------------

    def guest_folder(self, key: bytes | None, name: str) -> Path:
        """The guest's own state folder: by SSH key when proven, else by user name."""
        who = "key:" + ssh_blob_fingerprint(key) if key else "name:" + name
        return self.state_root / hashlib.sha256(who.encode()).hexdigest()[:32]

    def environment(self, session: GuestSession, home: Path) -> dict[str, str]:
        env = {
            "PATH": os.environ.get("PATH", os.defpath),
            "HOME": str(home),
            "TERM": session.term if TERM_TYPE.match(session.term) else "xterm",
            "NETCARDS_CONFIG_DIR": str(home / "config"),
            "NETCARDS_DATA_DIR": str(home / "data"),
            "NETCARDS_DISCOVERY_TARGET": "127.0.0.1",
            "PYTHONPATH": _packages_root(),
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        for name, value in session.sent_env.items():
            if PASSED_ENV.match(name) and len(value) <= 256 and value.isprintable():
                env[name] = value
        if self.password is not None:
            env["NETCARDS_PASSWORD"] = self.password
        return env

    async def open_guest(self, session: GuestSession) -> None:
        """Start the guest's app. The holder of a key takes their seat over from an older
        session of theirs (perhaps a dead connection not noticed yet); a name alone does not
        take a seat from someone still at the table."""
        conn = session.conn
        name = session.name
        key = (session.folder.name, name)
        earlier = self._guests.get(key)
        if earlier is not None and not earlier.closed:
            if conn.key is None:
                self.log(f"ssh door: {name!r} from {conn.address}: that name is at the table")
                session.end(
                    N_(
                        "Someone by this name is at the table. Choose another name, "
                        "or come with your SSH key."
                    ),
                    EXIT_REFUSED,
                )
                return
            self.log(f"ssh door: {name!r} came back from {conn.address}; the older session ends")
            earlier.end(N_("This seat was opened from another connection."), EXIT_REFUSED)
        self._guests[key] = session  # claimed now: a later newcomer waits for this one
        if earlier is not None:
            await earlier.ended.wait()  # its app has let go of the seat
        if session.closed or session.ending:
            return
        home = session.folder
        for sub in ("config", "data"):
            (home / sub).mkdir(parents=True, exist_ok=True, mode=0o700)
        KnownHosts(home / "config" / "known_hosts").remember(
            self.table_address, self.host.identity.public_key
        )
        argv = [
            self.python, "-P", "-c", "from ui.cli import main; main()",
            "join", self.table_address, "--name", name, "--guest",
        ]  # fmt: skip
        if session.watch:
            argv.append("--spectate")
        cols, rows = session.size
        process = GuestProcess(
            argv, self.environment(session, home), home, cols, rows, session.child_output
        )
        try:
            await process.start()
        except OSError as exc:
            self.log(f"ssh door: could not start the app for {name!r}: {exc}")
            session.end(N_("The table could not start your app; tell the host."), EXIT_REFUSED)
            return
        session.process = process
        self.log(f"ssh door: {name!r} from {conn.address} plays in process {process.pid}")
        status = await process.wait()
        self.log(f"ssh door: process {process.pid} of {name!r} ended ({status})")
        session.finish(status)

    def session_over(self, session: GuestSession) -> None:
        self.sessions.discard(session)
        key = (session.folder.name, session.name) if session.name else None
        if key is not None and self._guests.get(key) is session:
            del self._guests[key]


async def open_door(
    host: TableHost,
    bind: str,
    port: int,
    *,
    password: str | None,
    authorized_keys: asyncssh.SSHAuthorizedKeys | None = None,
    log: Callable[[str], None] | None = None,
    failed_login: Callable[[str, str], None] | None = None,
    settings: DoorSettings | None = None,
) -> SshDoor:
    """Open the door of a table that is already listening, on the same address."""
    door = SshDoor(
        host,
        table_address=local_address(bind, host.port),
        password=password,
        authorized_keys=authorized_keys,
        state_root=data_dir() / "ssh-guests",
        settings=settings,
        log=log,
        failed_login=failed_login,
    )
    await door.start(bind, port)
    return door


class DoorConnection(asyncssh.SSHServer):
    """One SSH connection: who it is (user name, and the key it proved, if any) and what it may
    open. A key counts only when the login ended by that key's signature: a key merely offered
    (anyone can offer anyone's public key) is forgotten as soon as another method is tried."""

    def __init__(self, door: SshDoor) -> None:
        self.door = door
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.local = ""
        self.username = ""
        self.key: bytes | None = None
        self.method = "publickey"
        self.refused_keys = 0
        self.session_open = False
        self._offered: bytes | None = None
        self._password_ok = False

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        local = conn.get_extra_info("sockname")
        self.address = str(peer[0]) if peer else "?"
        self.local = str(local[0]) if local else ""
        if not self.door.connected(self):
            asyncio.get_running_loop().call_soon(conn.abort)

    def connection_lost(self, exc: Exception | None) -> None:
        self.door.disconnected(self)

    def abort(self) -> None:
        if self.conn is not None:
            self.conn.abort()

    def begin_auth(self, username: str) -> bool:
        self.username = username
        return True

    # -- keys -----------------------------------------------------------------------------------

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        if not self.door.key_allowed(self, key):
            self._offered = None
            if not self.refused_keys:
                self.door.log(
                    f"ssh door: {username!r} from {self.address} offered key "
                    f"{ssh_blob_fingerprint(key.public_data)}, which is not in the keys file"
                )
            self.refused_keys += 1
            return False
        # The last key judged before a publickey success is the one whose signature won.
        self._offered = key.public_data
        return True

    def validate_ca_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        return False

    # -- the table password ---------------------------------------------------------------------

    def password_auth_supported(self) -> bool:
        return self.door.authorized_keys is None

    async def validate_password(self, username: str, password: str) -> bool:
        self._offered = None
        ok = await self.door.check_password(self.address, username, password)
        if ok:
            self._password_ok = True
            self.method = "password" if self.door.password is not None else "no password"
        return ok

    def kbdint_auth_supported(self) -> bool:
        return self.door.authorized_keys is None

    def get_kbdint_challenge(
        self, username: str, lang: str, submethods: str
    ) -> bool | tuple[str, str, str, list[tuple[str, bool]]]:
        self._offered = None
        if self.door.password is None:
            self._password_ok, self.method = True, "no password"
            return True
        _ = translator({"LANG": lang})
        return "", "", "", [(_("Table password: "), False)]

    async def validate_kbdint_response(self, username: str, responses: Sequence[str]) -> bool:
        self._offered = None
        if len(responses) != 1:
            return False
        ok = await self.door.check_password(self.address, username, responses[0])
        if ok:
            self._password_ok, self.method = True, "password"
        return ok

    def auth_completed(self) -> None:
        self.key = None if self._password_ok else self._offered
        self.door.logged_in(self)

    # -- what may be opened -----------------------------------------------------------------------

    def session_requested(self) -> GuestSession:
        if self.session_open:
            raise asyncssh.ChannelOpenError(
                asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                "one table session per connection",
            )
        self.session_open = True
        session = GuestSession(self.door, self)
        self.door.sessions.add(session)
        return session

    def _refuse_forwarding(self, what: str) -> None:
        self.door.log(f"ssh door: refused {what} to {self.username!r} from {self.address}")
        raise asyncssh.ChannelOpenError(
            asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
            load("en").gettext(N_("this door serves the card table only: no forwarding")),
        )

    def connection_requested(
        self, dest_host: str, dest_port: int, orig_host: str, orig_port: int
    ) -> bool:
        self._refuse_forwarding(f"port forwarding to {dest_host}:{dest_port}")
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        self.door.log(
            f"ssh door: refused remote forwarding of port {listen_port} "
            f"to {self.username!r} from {self.address}"
        )
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        self._refuse_forwarding("socket forwarding")
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        return False


class GuestSession(asyncssh.SSHServerSession[bytes]):
    """One SSH session channel: a refusal with a clear line, or a guest's app on a PTY."""

    def __init__(self, door: SshDoor, conn: DoorConnection) -> None:
        self.door = door
        self.conn = conn
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term = ""
        self.size = (80, 24)
        self.request: tuple[str, str] = ("shell", "")
        self.sent_env: Mapping[str, str] = {}
        self.name = ""
        self.watch = False
        self.folder = door.state_root
        self.process: GuestProcess | None = None
        self.closed = False
        """The channel has closed."""
        self.ending = False
        """We have said our last word and closed our side."""
        self.ended = asyncio.Event()
        self._asking: codecs.IncrementalDecoder | None = None
        self._typed = ""
        self._tries = 0
        self._checking = False
        self._: Callable[[str], str] = load("en").gettext

    # -- the requests -----------------------------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Mapping[int, int]
    ) -> bool:
        self.term = term_type or "xterm"
        cols, rows = term_size[0] or 80, term_size[1] or 24
        self.size = (cols, rows)
        return True

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = (width or self.size[0], height or self.size[1])
        if self.process is not None:
            self.process.resize(*self.size)

    def shell_requested(self) -> bool:
        self.request = ("shell", "")
        return True

    def exec_requested(self, command: str) -> bool:
        self.request = ("exec", command)
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        self.request = ("subsystem", subsystem)
        return True

    def session_started(self) -> None:
        assert self.chan is not None
        self.sent_env = dict(self.chan.get_environment())
        self._ = translator(self.sent_env)
        kind, what = self.request
        conn = self.conn
        user = conn.username
        here = conn.local or "ADDRESS"
        if kind == "subsystem":
            self.door.log(f"ssh door: refused subsystem {what!r} to {user!r} from {conn.address}")
            self.end(
                self._(N_("This door serves the card table only: no {what} here.")).format(
                    what=what
                ),
                EXIT_USAGE,
                translated=True,
            )
            return
        if kind == "exec" and what.strip() != WATCH:
            self.door.log(f"ssh door: refused command {what!r} to {user!r} from {conn.address}")
            self.end(
                self._(
                    N_(
                        "This door serves the card table only; it runs no commands. "
                        "Join with: {command}  (to watch: ssh -t -p {port} {user}@{host} watch)"
                    )
                ).format(
                    command=guest_command(self.door.port, user, here),
                    port=self.door.port,
                    user=user,
                    host=here,
                ),
                EXIT_USAGE,
                translated=True,
            )
            return
        self.watch = kind == "exec"
        if not self.term:
            how = f"ssh -t -p {self.door.port} {user}@{here}" + (" watch" if self.watch else "")
            self.end(
                self._(N_("This table needs a terminal: use {command}")).format(command=how),
                EXIT_USAGE,
                translated=True,
            )
            return
        try:
            self.name = clean_name(user)
        except GameError:
            self.end(
                self._(N_("Choose a user name with visible characters: {command}")).format(
                    command=guest_command(self.door.port, "NAME", here)
                ),
                EXIT_USAGE,
                translated=True,
            )
            return
        guests = sum(1 for s in self.door.sessions if s.name and not s.closed and s is not self)
        if guests >= self.door.capacity:
            self.door.log(f"ssh door: full; turned away {user!r} from {conn.address}")
            self.end(N_("The table has all the guests it can take; try again later."), EXIT_REFUSED)
            return
        self.folder = self.door.guest_folder(conn.key, self.name)
        if conn.key is not None and self.door.password is not None:
            self._ask_password()  # a key says who you are; the table still wants its password
        else:
            self.door.spawn_task(self.door.open_guest(self))

    # -- a key's owner at a table with a password -------------------------------------------------

    def _ask_password(self) -> None:
        self._asking = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._typed = ""
        self._write(self._(N_("Table password: ")))

    def _typed_password(self, data: bytes) -> None:
        assert self._asking is not None
        if self._checking:
            return
        for ch in self._asking.decode(data):
            if ch in "\r\n":
                self._checking = True
                self.door.spawn_task(self._check_password(self._typed))
                return
            if ch in "\x03\x04":
                self.end(N_("No password given."), EXIT_REFUSED)
                return
            if ch in "\x7f\x08":
                self._typed = self._typed[:-1]
            elif ch.isprintable() and len(self._typed) < 1024:
                self._typed += ch

    async def _check_password(self, given: str) -> None:
        ok = await self.door.check_password(self.conn.address, self.conn.username, given)
        self._checking = False
        if self.closed:
            return
        self._write("\r\n")
        if ok:
            self._asking = None
            self.door.spawn_task(self.door.open_guest(self))
            return
        self._tries += 1
        if self._tries >= self.door.settings.password_tries:
            self.end(N_("Wrong password."), EXIT_REFUSED)
            return
        self._write(self._(N_("Wrong password.")) + "\r\n")
        self._ask_password()

    # -- bytes both ways ----------------------------------------------------------------------------

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        if self._asking is not None:
            self._typed_password(data)
        elif self.process is not None:
            self.process.write(data)

    def eof_received(self) -> bool:
        return True  # keep the channel: the app, not the guest's stdin, decides when it ends

    def child_output(self, data: bytes) -> None:
        """The app's drawing, for the guest; dropped once the channel is closing."""
        if self.chan is not None and not self.closed and not self.ending:
            with contextlib.suppress(BrokenPipeError):
                self.chan.write(data)

    def pause_writing(self) -> None:
        if self.process is not None:
            self.process.pause_output()

    def resume_writing(self) -> None:
        if self.process is not None:
            self.process.resume_output()

    def _write(self, text: str) -> None:
        if self.chan is not None and not self.closed and not self.ending:
            self.chan.write(text.encode("utf-8", "replace"))

    # -- the end ------------------------------------------------------------------------------------

    def end(self, message: str, status: int, *, translated: bool = False) -> None:
        """Say why (on the guest's stderr) and close the channel; the child, if any, ends with
        it (see `connection_lost`)."""
        if self.closed or self.ending or self.chan is None:
            return
        self.ending = True
        text = message if translated else self._(message)
        with contextlib.suppress(Exception):
            self.chan.write_stderr((text + "\r\n").encode("utf-8", "replace"))
            self.chan.exit(status)

    def finish(self, status: int) -> None:
        """The child ended by itself: the channel closes with its exit status."""
        if not self.closed and not self.ending and self.chan is not None:
            self.ending = True
            with contextlib.suppress(Exception):
                self.chan.exit(status)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        process = self.process
        if process is not None:
            self.door.spawn_task(self._hang_up(process))
        else:
            self._over()

    async def _hang_up(self, process: GuestProcess) -> None:
        try:
            await process.hang_up(self.door.settings.hang_up_grace)
        finally:
            self._over()

    def _over(self) -> None:
        self.door.session_over(self)
        self.ended.set()
