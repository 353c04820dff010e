"""Moments of a sealed game at which a table may be closed, as the host's own engine sees them:
while the deal is being sealed, in the middle of a round, while a later round is sealed (a new
day's deal or a reshuffle of the draw pile), right after a round ended. And the sealed games
the tests stop there: every title, the Velonimo duel too."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from protocol.sealed_play.host import SealedHost
from protocol.table_session import TableSession

GAMES = [
    ("via-gladiola", 4),
    ("velonimo", 3),
    ("velonimo", 2),
    ("auf-achse", 3),
]
"""(title, players): the last seat of each is the host's bot, the others players' programs.
Via Gladiola's draw pile runs out (a finished day reshuffled as a new sealing round) in most
games of four: a game that ends without it is played again (`TRIES`)."""

TRIES = 6

ENDS = frozenset({"day_end", "round_end", "stage_end"})
"""The events that end a round of a title (a day, a round, a stage)."""


def sealing(state: Any) -> int | None:
    """The sealing round under way, if one is."""
    ledger = state.ledger
    return ledger.unsealed if ledger.unsealed < len(ledger.rounds) else None


def _dealing(host: SealedHost, fresh: list[Any]) -> bool:
    return sealing(host.state) == 0


def _mid_round(host: SealedHost, fresh: list[Any]) -> bool:
    return len(host.actions) >= 3 and host.state.ledger.ready() and host.outcome is None


def _resealing(host: SealedHost, fresh: list[Any]) -> bool:
    return (sealing(host.state) or 0) >= 1


def _round_end(host: SealedHost, fresh: list[Any]) -> bool:
    return any(e.kind in ENDS for e in fresh) and host.outcome is None


MOMENTS: dict[str, Callable[[SealedHost, list[Any]], bool]] = {
    "sealing the deal": _dealing,
    "mid-round": _mid_round,
    "sealing a later round": _resealing,
    "a round's end": _round_end,
}
"""moment -> whether the host's engine is there now, given the events since it last looked."""


def when(session: TableSession, moment: str, then: Callable[[], None]) -> None:
    """Call `then` once, the first time the sealed game of the table of `session` is at
    `moment`, as its host's engine sees it (told after every move and step, as the table's
    spectators are). Installed before the game starts: its deal is sealed in a few
    milliseconds."""
    test = MOMENTS[moment]
    made = session._sealed_host
    done = [False]

    def watched(*args: Any) -> SealedHost:
        host = made(*args)
        told = host.watch
        seen = [len(host.mirror.events)]

        def watch(seat: int | None) -> None:
            if told is not None:
                told(seat)
            fresh = host.mirror.events[seen[0] :]
            seen[0] = len(host.mirror.events)
            if not done[0] and test(host, fresh):
                done[0] = True
                then()

        host.watch = watch
        return host

    session._sealed_host = watched  # type: ignore[method-assign]
