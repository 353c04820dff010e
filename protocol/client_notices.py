"""What a table client tells its user (the notices on `TableClient.updates`), and the two ways
its session loop stops short (`Fatal`, `JoinAgain`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from netcards.fairdeal import Verdict
from netcards.game import Outcome, TableConfig
from protocol.messages import Lobby

# -- what the client tells its user -----------------------------------------------------------------


@dataclass(frozen=True)
class Connected:
    fingerprint: str
    first_contact: bool


@dataclass(frozen=True)
class LinkDown:
    """The connection dropped; `retrying` says whether the client is reconnecting. `code` says
    why without English, as `Failed.code` does (`closed`: the host ended the connection)."""

    reason: str
    retrying: bool
    code: str = "closed"


@dataclass(frozen=True)
class SeatTaken:
    seat: int | None
    owner: bool
    resumed: bool


@dataclass(frozen=True)
class LobbyChanged:
    lobby: Lobby


@dataclass(frozen=True)
class GameStarted:
    config: TableConfig
    seat: int | None
    names: tuple[str, ...]


@dataclass(frozen=True)
class ViewChanged:
    """The view changed; `events` are the new ones (empty after a snapshot)."""

    events: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class ChatLine:
    seat: int | None
    name: str
    text: str


@dataclass(frozen=True)
class TableSays:
    """A notice from the table itself (see protocol.notices for the codes). `taken_back` is
    worded by this client: the host came back from a crash without the last `count` actions we
    had seen (they are decided again)."""

    code: str
    args: dict[str, Any]
    at: int = 0
    """How many events of the log came before it: a screen that was not there when it came
    (a question or a summary was on top) still writes it where it belongs in the log."""


@dataclass(frozen=True)
class ClockChanged:
    """The turn clock changed: `TableClient.clock` has each clocked seat's deadline."""


@dataclass(frozen=True)
class HostRefused:
    """An `error` from the host: an illegal move (not fatal) or a refusal that ends the session."""

    code: str
    text: str
    fatal: bool
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TokenRefused:
    """The host knows no seat for our resume token (one saved from an earlier table at this
    address): the client has dropped it and joins again at once as a new player."""

    text: str


@dataclass(frozen=True)
class GameOver:
    outcome: Outcome


@dataclass(frozen=True)
class DealChecked:
    verdict: Verdict


@dataclass(frozen=True)
class Failed:
    """The client gave up for good (a refused host key, a wrong password, a fatal refusal).

    `code` says why without English: an error code of the protocol (`host_key_changed`,
    `wrong_password`, `password_required`, `table_full`...), or one of the client's own:
    `untrusted` (the user did not trust the host's key), `unknown_host` (the name resolves to
    no machine), `no_listener` (nobody listens there), `no_answer` and `unreachable` (a first
    connection that never reached a table), `not_a_table` (something answered there, but not a
    netcards host), `lost` (a table lost for too long), `table_over` (a `table_full` whose
    detail says the table's game is over and it is not open for another yet). The client's
    own codes are never the protocol's (the host's `refused` and `timeout` are its answers).
    """

    reason: str
    code: str = ""


@dataclass(frozen=True)
class TableClosed:
    """The host closed the table on purpose (a `closed` notice): nothing to reconnect to.

    When a game was being played, `standings` are its results so far and `verdict` the check
    of the deal so far, from the host's audit of the actions played (None without them)."""

    standings: Outcome | None
    verdict: Verdict | None


Notice = (
    Connected
    | LinkDown
    | SeatTaken
    | LobbyChanged
    | GameStarted
    | ViewChanged
    | ChatLine
    | TableSays
    | ClockChanged
    | HostRefused
    | TokenRefused
    | GameOver
    | DealChecked
    | Failed
    | TableClosed
)


class Fatal(Exception):
    """Stop for good: reconnecting would not help. `code` as in `Failed`."""

    def __init__(self, reason: str, code: str = "") -> None:
        super().__init__(reason)
        self.code = code


class JoinAgain(Exception):
    """Connect again at once (the host refused our seat token: we join as a new player)."""
