"""From the engine's events to one message per seat, and one for the spectators.

This is the only place where a game's events and views become outgoing messages, so it is the
one place that decides who sees what: the public part goes to everyone, a private part only to
its seat, the secret part to no one (it waits for the end-of-game audit). The host's own seat
is served exactly like any other seat: its message goes through its own connection.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from netcards.action import Action
from netcards.event import Event
from netcards.game import Game
from protocol.limits import MAX_CONTAINER, MAX_PLAINTEXT
from protocol.messages import Audit, AuditEntry, Snapshot, Update, encode
from protocol.wire import pack

SPECTATOR = None
"""The key of the spectators' message in `updates_by_seat`."""


def _view(game: Game[Any], state: Any, seat: int | None) -> dict[str, Any]:
    return game.public_view(state) if seat is None else game.view(state, seat)


def _legal(game: Game[Any], state: Any, seat: int | None) -> tuple[dict[str, Any], ...]:
    if seat is None:
        return ()
    return tuple(game.encode_action(a) for a in game.legal_actions(state, seat))


def update_for(
    game: Game[Any], state: Any, events: Sequence[Event], seq: int, seat: int | None
) -> Update:
    """What `seat` (None: a spectator) is told after the action numbered `seq`."""
    return Update(
        seq=seq,
        events=tuple(e.for_seat(seat) for e in events),
        view=_view(game, state, seat),
        to_act=tuple(sorted(game.to_act(state))),
        legal=_legal(game, state, seat),
    )


def updates_by_seat(
    game: Game[Any],
    state: Any,
    events: Sequence[Event],
    seq: int,
    seats: Iterable[int],
    spectators: bool = True,
) -> dict[int | None, Update]:
    """One update per seat in `seats`, plus the spectators' one under `SPECTATOR`."""
    out: dict[int | None, Update] = {s: update_for(game, state, events, seq, s) for s in seats}
    if spectators:
        out[SPECTATOR] = update_for(game, state, events, seq, SPECTATOR)
    return out


def snapshot_for(game: Game[Any], state: Any, seq: int, seat: int | None) -> Snapshot:
    """Everything `seat` needs to pick up a game in progress (after a join or a resume)."""
    return Snapshot(
        seq=seq,
        view=_view(game, state, seat),
        to_act=tuple(sorted(game.to_act(state))),
        legal=_legal(game, state, seat),
    )


def audit_messages(
    game: Game[Any],
    host_part: bytes,
    seed: bytes,
    actions: Sequence[tuple[int, Action]],
    budget: int = MAX_PLAINTEXT - 256,
) -> list[Audit]:
    """The end-of-game reveal, split into as few `audit` messages as fit in frames."""
    entries = [AuditEntry(seat, game.encode_action(a)) for seat, a in actions]
    out: list[Audit] = []
    start = 0
    while True:
        end = min(len(entries), start + MAX_CONTAINER)
        chunk = Audit(host_part, seed, start, len(entries), tuple(entries[start:end]))
        while len(pack(encode(chunk))) > budget and end > start + 1:
            end = start + max(1, (end - start) // 2)
            chunk = Audit(host_part, seed, start, len(entries), tuple(entries[start:end]))
        out.append(chunk)
        start = end
        if start >= len(entries):
            return out
