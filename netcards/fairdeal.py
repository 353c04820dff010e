"""The verifiable deal: nobody, the host included, can choose how the cards fall.

Before the deal the host commits to a hash of its secret seed part; every player then
contributes a random part; the game seed hashes all of them together. At the end the host
reveals its part and the whole action list, and every client replays the game with its own
engine: the commitment must match, its own contribution must be in, and every event it was sent
must be exactly what the replay produces for its seat.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from netcards.errors import GameError
from netcards.game import Game, TableConfig

PART_BYTES = 32
COMMIT_LABEL = b"netcards deal commit v1"
SEED_LABEL = b"netcards deal seed v1"


def commitment(host_part: bytes) -> bytes:
    """SHA-256(label || host part), as docs/protocol.md specifies for second clients."""
    if len(host_part) != PART_BYTES:
        raise ValueError("the host's seed part is 32 bytes")
    return hashlib.sha256(COMMIT_LABEL + host_part).digest()


def combine(host_part: bytes, contributions: Mapping[int, bytes]) -> bytes:
    """The game seed: SHA-256(label || host part || (seat byte || part) in seat order)."""
    h = hashlib.sha256(SEED_LABEL + host_part)
    for seat in sorted(contributions):
        part = contributions[seat]
        if not 0 <= seat < 256 or len(part) != PART_BYTES:
            raise ValueError("a contribution is 32 bytes from a seat 0-255")
        h.update(bytes([seat]) + part)
    return h.digest()


@dataclass
class Verdict:
    """What a client's check of a finished game found: `ok`, or the list of what failed."""

    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_game(
    game: Game[Any],
    config: TableConfig,
    *,
    seat: int | None,
    commit: bytes,
    host_part: bytes,
    contributions: Mapping[int, bytes],
    my_contribution: bytes | None,
    actions: Sequence[tuple[int, Mapping[str, Any]]],
    received: Sequence[Mapping[str, Any]],
    finished: bool = True,
) -> Verdict:
    """Replay the revealed game and compare it with what this seat was sent during play.

    `finished` False checks a game the host stopped before its end (it closed the table)."""
    verdict = Verdict()
    if commitment(host_part) != commit:
        verdict.problems.append("the host's seed part does not match its commitment")
    if (
        seat is not None
        and my_contribution is not None
        and contributions.get(seat) != my_contribution
    ):
        verdict.problems.append("our random contribution is not the one used for the deal")
    state = game.setup(config, combine(host_part, contributions))
    replayed: list[dict[str, Any]] = []
    for index, (actor, data) in enumerate(actions):
        try:
            events = game.apply(state, actor, game.decode_action(data))
        except GameError as exc:
            verdict.problems.append(f"action {index + 1} (seat {actor}) is illegal: {exc}")
            return verdict
        replayed.extend(e.for_seat(seat) for e in events)
    if finished and game.outcome(state) is None:
        verdict.problems.append("the revealed actions do not finish the game")
    if len(replayed) != len(received):
        verdict.problems.append(
            f"we were sent {len(received)} events but the replay makes {len(replayed)}"
        )
    for index, (mine, theirs) in enumerate(zip(received, replayed, strict=False)):
        if dict(mine) != theirs:
            verdict.problems.append(
                f"event {index + 1} ({theirs.get('kind')}) differs from the replay"
            )
            break
    return verdict
