"""The table's SSH door: a friend with nothing but `ssh` types one command and sits at the table.

The host opens an SSH server beside the table (asyncssh; the host key is the table's own
Ed25519 identity, so one key stands behind both fingerprints). Each guest who opens a session
with a terminal gets one child process, `netcards join 127.0.0.1:PORT --name USER --guest`, on a
PTY of their own (see `guest_process.py`): the same app every player runs, joining the table
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

import warnings

from cryptography.utils import CryptographyDeprecationWarning

with warnings.catch_warnings():
    # asyncssh still defines DSA keys, which cryptography deprecates as it is imported: the
    # door never takes a DSA key, and a host opening it should not print a library's warnings.
    warnings.simplefilter("ignore", CryptographyDeprecationWarning)
    import asyncssh  # noqa: F401

from ui.ssh_door.door import (
    DoorError,
    SshDoor,
    local_address,
    open_door,
    read_authorized_keys,
)
from ui.ssh_door.limits import DoorSettings
from ui.ssh_door.session import guest_command

__all__ = [
    "DoorError",
    "DoorSettings",
    "SshDoor",
    "guest_command",
    "local_address",
    "open_door",
    "read_authorized_keys",
]
