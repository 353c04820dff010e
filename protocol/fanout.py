"""From the engine's events to one message per seat, and one for the spectators.

This is the only place where a game's events and views become outgoing messages, so it is the
one place that decides who sees what: the public part goes to everyone, a private part only to
its seat, the secret part to no one (it waits for the end-of-game audit). The host's own seat
is served exactly like any other seat: its message goes through its own connection.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from netcards.event import Event
from netcards.game import Game
from protocol.limits import MAX_CONTAINER, MAX_PLAINTEXT
from protocol.messages import (
    Audit,
    AuditEntry,
    History,
    HistoryStep,
    Message,
    Snapshot,
    Update,
    encode,
)
from protocol.wire import pack

T = TypeVar("T")

SPECTATOR = None
"""The key of the spectators' message in `updates_by_seat`."""


def _view(game: Game[Any], state: Any, seat: int | None) -> dict[str, Any]:
    return game.public_view(state) if seat is None else game.view(state, seat)


def update_for(
    game: Game[Any], state: Any, events: Sequence[Event], seq: int, actor: int, seat: int | None
) -> Update:
    """What `seat` (None: a spectator) is told after action `seq`, which `actor` took."""
    return Update(
        seq=seq,
        actor=actor,
        events=tuple(e.for_seat(seat) for e in events),
        view=_view(game, state, seat),
        to_act=tuple(sorted(game.to_act(state))),
    )


def updates_by_seat(
    game: Game[Any],
    state: Any,
    events: Sequence[Event],
    seq: int,
    actor: int,
    seats: Iterable[int],
    spectators: bool = True,
) -> dict[int | None, Update]:
    """One update per seat in `seats`, plus the spectators' one under `SPECTATOR`."""
    out: dict[int | None, Update] = {
        s: update_for(game, state, events, seq, actor, s) for s in seats
    }
    if spectators:
        out[SPECTATOR] = update_for(game, state, events, seq, actor, SPECTATOR)
    return out


def snapshot_for(game: Game[Any], state: Any, seq: int, seat: int | None) -> Snapshot:
    """Everything `seat` needs to pick up a game in progress (after a join or a resume)."""
    return Snapshot(
        seq=seq,
        view=_view(game, state, seat),
        to_act=tuple(sorted(game.to_act(state))),
    )


def _chunks(
    items: Sequence[T], make: Callable[[int, tuple[T, ...]], Message], budget: int
) -> list[Any]:
    """`make(offset, chunk)` messages covering `items` in order, each packing within `budget`."""
    out: list[Any] = []
    start = 0
    while True:
        end = min(len(items), start + MAX_CONTAINER)
        chunk = make(start, tuple(items[start:end]))
        while len(pack(encode(chunk))) > budget and end > start + 1:
            end = start + max(1, (end - start) // 2)
            chunk = make(start, tuple(items[start:end]))
        out.append(chunk)
        start = end
        if start >= len(items):
            return out


def audit_messages(
    host_part: bytes,
    seed: bytes,
    actions: Sequence[tuple[int, dict[str, Any]]],
    budget: int = MAX_PLAINTEXT - 256,
) -> list[Audit]:
    """The end-of-game reveal (actions as the table recorded them), in frame-sized chunks."""
    entries = [AuditEntry(seat, data) for seat, data in actions]
    return _chunks(entries, lambda at, part: Audit(host_part, seed, at, len(entries), part), budget)


def history_messages(
    steps: Sequence[tuple[int, int, Sequence[dict[str, Any]]]],
    budget: int = MAX_PLAINTEXT - 256,
) -> list[History]:
    """A seat's whole log, (update number, actor, events already filtered for it) per action,
    in frame-sized chunks."""
    entries = [HistoryStep(seq, actor, tuple(events)) for seq, actor, events in steps]
    return _chunks(entries, lambda at, part: History(at, len(entries), part), budget)
