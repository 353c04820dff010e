"""The door's limits, in a module of their own so that a session can read them without importing
the door (which imports the session).
"""

from __future__ import annotations

from dataclasses import dataclass


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
    closing_wait: float = 60.0
    """Seconds guests have, once the table closed, to read its end in their app and leave by
    themselves; then their sessions are ended. Not longer: whoever closed the table waits too
    (and a service manager stopping a host kills it after 90 s)."""
    hang_up_grace: float = 3.0
    """Seconds between SIGHUP and SIGKILL when a guest's connection closes."""
    keepalive: float = 15.0
    """A silent guest is asked every this many seconds; after 4 unanswered, dropped."""
    password_tries: int = 3
