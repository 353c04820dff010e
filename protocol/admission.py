"""Who the host lets in when strangers crowd the door, so that a player can always get back in.

Until a connection has finished its handshake and joined, the host cannot tell a player coming
back with a seat token from someone who opened a socket and said nothing. So connections that
have not joined yet share a bounded waiting room, and a newcomer never finds the door shut: if
the room is full, the oldest waiting connection of the address with the most of them is shed
(the newcomer's own address first, if it is over its share). An idle flood only ever displaces
itself; a player's connection needs to wait only for its own handshake. Spectators, who do join,
are capped in total and per address; seated players are never capped (there are at most eight).
Pure decisions over plain values; the host applies them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Waiting:
    """A connection that has not joined yet: its number, its peer's address, when it came."""

    number: int
    address: str
    since: float


def make_room(
    waiting: Sequence[Waiting], newcomer: str, *, limit: int, per_address: int
) -> Waiting | None:
    """The waiting connection to shed so that one more from `newcomer` fits (None: it fits)."""
    mine = [w for w in waiting if w.address == newcomer]
    if mine and len(mine) >= per_address:
        return min(mine, key=lambda w: w.since)
    if waiting and len(waiting) >= limit:
        counts = Counter(w.address for w in waiting)
        most = max(counts.values())
        return min((w for w in waiting if counts[w.address] == most), key=lambda w: w.since)
    return None


def spectator_refusal(
    watching: Sequence[str], newcomer: str, *, limit: int, per_address: int
) -> str | None:
    """Why one more spectator from `newcomer` cannot watch (`watching`: the address of every
    spectator now), or None."""
    if len(watching) >= limit:
        return f"the table has {limit} spectators already, as many as it takes; try again later"
    if sum(1 for a in watching if a == newcomer) >= per_address:
        return (
            f"{per_address} spectators are watching from your address already, as many as the "
            "table takes from one address"
        )
    return None
