"""One SSH session channel at the door: a refusal with a clear line, or a guest's app.

The guest's words (refusals, the password prompt) are in the guest's language, from the `LANG`
their client sent, not the host's. The door and the connection that open a session import this
module; it names what it asks of them (`SessionDoor`, `SessionLogin`) instead of importing them.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
from collections.abc import Callable, Coroutine, Mapping
from pathlib import Path
from typing import Any, Protocol

import asyncssh

from netcards.errors import GameError
from netcards.table import clean_name
from ui.i18n import N_, from_locale, load
from ui.ssh_door.guest_process import TERMINAL_RESET, GuestProcess
from ui.ssh_door.limits import DoorSettings

WATCH = "watch"
EXIT_USAGE = 2
EXIT_REFUSED = 1
EXIT_CLOSED = 0
"""The table closed: the end of a guest's evening, not a refusal (`ssh` says all went well)."""


def guest_command(port: int, name: str = "NAME", address: str = "ADDRESS") -> str:
    """What a guest types to sit at the table (`ssh` takes an IPv6 address bare, no brackets)."""
    return f"ssh -p {port} {name}@{address.strip('[]')}"


def translator(environ: Mapping[str, str]) -> Callable[[str], str]:
    """`_` in the guest's language (their LANG), not the host's."""
    return load(from_locale(environ)).gettext


class SessionDoor(Protocol):
    """What a session asks of the door that opened it (`SshDoor`, in `door.py`)."""

    state_root: Path
    password: str | None
    settings: DoorSettings
    port: int
    sessions: set[GuestSession]
    log: Callable[[str], None]

    @property
    def capacity(self) -> int: ...

    def spawn_task(self, coro: Coroutine[Any, Any, Any]) -> None: ...

    def guest_folder(self, key: bytes | None, name: str) -> Path: ...

    async def check_password(self, address: str, user: str, given: str) -> bool: ...

    async def open_guest(self, session: GuestSession) -> None: ...

    def session_over(self, session: GuestSession) -> None: ...


class SessionLogin(Protocol):
    """What a session knows of the connection it came by (`DoorConnection`, in `login.py`)."""

    address: str
    local: str
    username: str
    key: bytes | None

    def abort(self) -> None: ...


class DoorChannel(asyncssh.SSHServerChannel[bytes]):
    """A session channel that notes a request to forward an SSH agent before refusing it.

    The door forwards no agent (asyncssh refuses it), but OpenSSH asks without waiting for the
    answer, so its user would never hear of the refusal: the session tells them (see
    `GuestSession.session_started`)."""

    agent_asked = False

    def _process_auth_agent_req_at_openssh_dot_com_request(self, packet: Any) -> None:
        packet.check_end()
        self.agent_asked = True
        self._report_response(False)


class GuestSession(asyncssh.SSHServerSession[bytes]):
    """One SSH session channel: a refusal with a clear line, or a guest's app on a PTY."""

    def __init__(self, door: SessionDoor, conn: SessionLogin) -> None:
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
        if getattr(self.chan, "agent_asked", False):
            self.door.log(f"ssh door: refused agent forwarding to {user!r} from {conn.address}")
            self._write_stderr(
                self._(N_("This door forwards no SSH agent: your keys stay on your machine."))
            )
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

    def _write_stderr(self, text: str) -> None:
        if self.chan is not None and not self.closed and not self.ending:
            with contextlib.suppress(Exception):
                self.chan.write_stderr((text + "\r\n").encode("utf-8", "replace"))

    def _write(self, text: str) -> None:
        if self.chan is not None and not self.closed and not self.ending:
            self.chan.write(text.encode("utf-8", "replace"))

    # -- the end ------------------------------------------------------------------------------------

    def end(self, message: str, status: int, *, translated: bool = False) -> None:
        """Say why (on the guest's stderr) and close the channel. An app still running is
        ended first (see `stop`)."""
        if self.closed or self.ending or self.chan is None:
            return
        if self.process is not None and self.process.running:
            self.door.spawn_task(self.stop(message, status, translated=translated))
            return
        self.ending = True
        self._last_words(message, status, translated=translated)

    async def stop(self, message: str, status: int, *, translated: bool = False) -> None:
        """End the guest's app, then put their terminal back in order (the app, cut off, could
        not), say why and close the channel."""
        if self.closed or self.ending or self.chan is None:
            return
        self.ending = True  # from here the app's drawing is dropped, and its last frame cut
        if self.process is not None:
            await self.process.hang_up(self.door.settings.hang_up_grace)
        self._last_words(message, status, translated=translated, reset=True)

    def _last_words(
        self, message: str, status: int, *, translated: bool, reset: bool = False
    ) -> None:
        if self.closed or self.chan is None:
            return
        text = message if translated else self._(message)
        with contextlib.suppress(Exception):
            if reset:
                self.chan.write(TERMINAL_RESET + b"\r\n")
            self.chan.write_stderr((text + "\r\n").encode("utf-8", "replace"))
            self.chan.exit(status)

    def finish(self, status: int) -> None:
        """The child ended: the channel closes with its exit status. An app that ended by a
        signal left its terminal as it was at that moment: the door puts it back in order."""
        if not self.closed and not self.ending and self.chan is not None:
            self.ending = True
            with contextlib.suppress(Exception):
                if status >= 128:
                    self.chan.write(TERMINAL_RESET + b"\r\n")
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
