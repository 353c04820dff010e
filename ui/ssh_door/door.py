"""The door itself: the SSH server, the judging of logins, and the guests' apps.

See the package's docstring for what the door is; `login.py` is one connection logging in,
`session.py` one session channel, `guest_process.py` one guest's app on its PTY, `limits.py`
the door's limits. The door makes connections and sessions; they never import it back, but
name what they ask of it (`LoginDoor`, `SessionDoor`), which `SshDoor` provides.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncssh

import netcards
from protocol.address import format_address
from protocol.host import TableHost
from protocol.identity import ssh_blob_fingerprint, ssh_fingerprint
from protocol.known_hosts import KnownHosts
from protocol.settings import data_dir
from protocol.throttle import FailureThrottle
from ui.i18n import N_, _
from ui.ssh_door.guest_process import GuestProcess
from ui.ssh_door.limits import DoorSettings
from ui.ssh_door.login import DoorConnection
from ui.ssh_door.session import EXIT_CLOSED, EXIT_REFUSED, GuestSession, guest_command

# The guest's own settings that reach their app: terminal, language, colours.
PASSED_ENV = re.compile(r"^(LANG|LANGUAGE|LC_[A-Z]+|NO_COLOR|COLORTERM)$")
TERM_TYPE = re.compile(r"^[A-Za-z0-9._+-]{1,64}$")

# The guest's app. Its PTY becomes its controlling terminal first (it leads a session of its
# own), so that if the host's process dies, its side of the PTY closes and the kernel hangs
# the app up: no guest's app outlives the door. SIGHUP does its default work even if the host
# was started with it ignored (under nohup, say), which its children would inherit.
GUEST_APP = (
    "import fcntl, signal, termios; signal.signal(signal.SIGHUP, signal.SIG_DFL); "
    "fcntl.ioctl(0, termios.TIOCSCTTY, 0); from ui.cli import main; main()"
)

logging.getLogger("asyncssh").addHandler(logging.NullHandler())
logging.getLogger("asyncssh").propagate = False


class DoorError(ValueError):
    """The door cannot open as asked (an unreadable keys file); says what is wrong."""


def read_authorized_keys(path: Path) -> asyncssh.SSHAuthorizedKeys:
    """An OpenSSH `authorized_keys` file (options such as `from=` are honoured). A DoorError
    says in the user's language what is wrong with it."""
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DoorError(
            _("cannot read the SSH keys file {path}: {reason}").format(
                path=name, reason=exc.strerror
            )
        ) from None
    except UnicodeDecodeError:
        raise DoorError(_("the SSH keys file {path} is not text").format(path=name)) from None
    if not any(line.strip() and not line.lstrip().startswith("#") for line in text.splitlines()):
        raise DoorError(_("the SSH keys file {path} lists no key").format(path=name))
    try:
        return asyncssh.import_authorized_keys(text)
    except (asyncssh.KeyImportError, ValueError) as exc:
        raise DoorError(
            _("the SSH keys file {path} is not valid: {reason}").format(path=name, reason=exc)
        ) from None


def local_address(bind: str, port: int) -> str:
    """Where a guest's app on this machine reaches the table."""
    if bind in ("", "0.0.0.0", "::"):
        return f"127.0.0.1:{port}"
    return format_address(bind, port)


def _packages_root() -> str:
    return str(Path(netcards.__file__).resolve().parent.parent)


class SshDoor:
    """The door of one table: what its connections (`LoginDoor`) and sessions (`SessionDoor`)
    ask of it, and its guests' apps."""

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
        self.closing = False
        """The table is closing: no guest's app starts any more."""
        self._hurry = asyncio.Event()

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

    async def close(self, wait: float = 0.0, hurry: asyncio.Event | None = None) -> None:
        """Close the door, the table having told its players it closed (the host closes first).

        Nobody new comes in. A guest at the table reads what their app shows of the end (the
        results so far, or that the table closed) and leaves by a key, as a LAN player does:
        for up to `wait` seconds (until `hurry` is set). Then every guest still here is ended,
        whether or not their client answers: their app, then their terminal put back in order
        and a last line."""
        self.closing = True
        if self._server is not None:
            self._server.close()
        for conn in list(self._logging_in.values()):
            conn.abort()
        for session in list(self.sessions):
            if session.process is None:  # not at the table yet (a password asked, say)
                session.end(N_("The table has closed."), EXIT_CLOSED)
        if wait > 0:
            await self.linger(wait, hurry)
        self._hurry.set()
        sessions = list(self.sessions)
        await asyncio.gather(
            *(s.stop(N_("The table has closed."), EXIT_CLOSED) for s in sessions),
            return_exceptions=True,
        )
        ended = [asyncio.create_task(s.ended.wait()) for s in sessions]
        if ended:  # their clients close the channel once the last words are in
            await asyncio.wait(ended, timeout=2.0)
        for task in ended:
            task.cancel()
        for session in sessions:
            session.conn.abort()
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)

    def at_table(self) -> int:
        """Guests whose app runs now."""
        return sum(1 for s in self.sessions if s.process is not None and not s.closed)

    def hurry(self) -> None:
        """Cut short a wait for guests to leave (see `close`)."""
        self._hurry.set()

    async def linger(self, seconds: float, hurry: asyncio.Event | None = None) -> None:
        """Give guests time to read the end of the game and leave by themselves."""
        deadline = time.monotonic() + seconds
        while any(not s.closed for s in self.sessions) and time.monotonic() < deadline:
            if self._hurry.is_set() or (hurry is not None and hurry.is_set()):
                return
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
        if self.closing:
            session.end(N_("The table has closed."), EXIT_CLOSED)
            return
        home = session.folder
        for folder in (self.state_root, home, home / "config", home / "data"):
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)  # seat tokens: the user's only
        KnownHosts(home / "config" / "known_hosts").remember(
            self.table_address, self.host.identity.public_key
        )
        argv = [
            self.python, "-P", "-c", GUEST_APP,
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
        if session.closed or session.ending:  # while it started: nobody will see it
            await process.hang_up(self.settings.hang_up_grace)
            session.finish(1)
            return
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
