"""The one way the screens send anything to the table: a failed send is a line, never a crash.

Every request the UI makes of `TableClient` (a move, ready, a bot added or removed, the table's
options, a line of chat, leaving) goes through `send`. A lost link is said in the existing "not
connected" words; anything else the protocol raises (a `LocalProtocolError` for a value our side
got wrong, a counter exhausted, a bug) is said in one line too, and the table goes on. No
exception reaches Textual: it would end the app with a traceback that shows the source's paths
and every frame's local variables (the seat token, the table's password) on the player's
terminal, which for a guest of the SSH door is not even the host's own.

The exception's own text is neither shown nor logged: it may quote what was being sent.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import ParamSpec

from ui.i18n import N_, _

P = ParamSpec("P")


@dataclass(frozen=True)
class Unsent:
    """What the screen says when a send failed: the link was down, or anything else."""

    not_connected: str
    failed: str


REQUEST = Unsent(N_("not connected"), N_("that request could not be sent to the table"))
"""Ready, a bot added or removed, the table's options, leaving."""
MOVE = Unsent(N_("not connected: your move was not sent"), N_("your move could not be sent"))
LINE = Unsent(N_("not connected: the line was not sent"), N_("that line could not be sent"))


async def send(
    unsent: Unsent, call: Callable[P, Awaitable[object]], *args: P.args, **kwargs: P.kwargs
) -> str | None:
    """`await call(*args, **kwargs)`; None once sent, else why not, in the player's language,
    in one line for the screen's status line or a notification. A cancelled task stays
    cancelled (`CancelledError` is no `Exception`)."""
    try:
        await call(*args, **kwargs)
    except ConnectionError:
        return _(unsent.not_connected)
    except Exception:  # (see the module's docstring: said, not raised)
        return _(unsent.failed)
    return None
