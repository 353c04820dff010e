"""One SSH connection logging in to the door: who it is, and what it may open.

Who: the user name, and the SSH key it *proved*. A key counts only when the login ended by that
key's signature; a key merely offered (anyone can offer anyone's public key) is forgotten as
soon as another method is tried. What: one session channel; no forwarding of any kind.

The door makes each connection, so this module does not import it: it names what a connection
asks of the door (`LoginDoor`) instead.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Protocol

import asyncssh

from protocol.identity import ssh_blob_fingerprint
from ui.i18n import N_, load
from ui.ssh_door.session import DoorChannel, GuestSession, SessionDoor, translator


class LoginDoor(SessionDoor, Protocol):
    """What a connection asks of the door that accepted it (`SshDoor`, in `door.py`): to judge
    its login, and, for the session it opens, all that a session asks of the door."""

    authorized_keys: asyncssh.SSHAuthorizedKeys | None

    def connected(self, conn: DoorConnection) -> bool: ...

    def disconnected(self, conn: DoorConnection) -> None: ...

    def key_allowed(self, conn: DoorConnection, key: asyncssh.SSHKey) -> bool: ...

    def logged_in(self, conn: DoorConnection) -> None: ...


class DoorConnection(asyncssh.SSHServer):
    """One SSH connection: who it is (user name, and the key it proved, if any) and what it may
    open. A key counts only when the login ended by that key's signature: a key merely offered
    (anyone can offer anyone's public key) is forgotten as soon as another method is tried."""

    def __init__(self, door: LoginDoor) -> None:
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

    def session_requested(self) -> tuple[asyncssh.SSHServerChannel[bytes], GuestSession]:
        if self.session_open:
            raise asyncssh.ChannelOpenError(
                asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                "one table session per connection",
            )
        assert self.conn is not None
        self.session_open = True
        session = GuestSession(self.door, self)
        self.door.sessions.add(session)
        chan = self.conn.create_server_channel()
        chan.__class__ = DoorChannel  # asyncssh's own channel, which also notes an agent request
        return chan, session

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
