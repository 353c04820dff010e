"""The verifiable deal: nobody, the host included, can choose how the cards fall.

Every contributor commits before anyone reveals. The host first commits to a hash of its secret
seed part (which also stands for its bots); each player then pledges a hash of a fresh random
part; only once the host has published every pledge do the players reveal their parts, and the
game seed hashes all of them together. Nobody can change a part after seeing another one: a part
must match the pledge made before any part was known. At the end the host reveals its own part
and the whole action list, and every client replays the game with its own engine: the commitment
must match, its own part must be in, and every event it was sent must be exactly what the replay
produces for its seat.
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
PLEDGE_LABEL = b"netcards deal pledge v1"
SEED_LABEL = b"netcards deal seed v1"


def commitment(host_part: bytes) -> bytes:
    """SHA-256(label || host part), as docs/protocol.md specifies for second clients."""
    if len(host_part) != PART_BYTES:
        raise ValueError("the host's seed part is 32 bytes")
    return hashlib.sha256(COMMIT_LABEL + host_part).digest()


def pledge(seat: int, part: bytes) -> bytes:
    """SHA-256(label || seat byte || part): a player's promise of its part before any reveal.
    The seat is inside so that nobody can pass off another seat's pledge as its own."""
    if not 0 <= seat < 256 or len(part) != PART_BYTES:
        raise ValueError("a pledge is for a 32-byte part from a seat 0-255")
    return hashlib.sha256(PLEDGE_LABEL + bytes([seat]) + part).digest()


def combine(host_part: bytes, contributions: Mapping[int, bytes]) -> bytes:
    """The game seed: SHA-256(label || host part || (seat byte || part) in seat order)."""
    h = hashlib.sha256(SEED_LABEL + host_part)
    for seat in sorted(contributions):
        part = contributions[seat]
        if not 0 <= seat < 256 or len(part) != PART_BYTES:
            raise ValueError("a contribution is 32 bytes from a seat 0-255")
        h.update(bytes([seat]) + part)
    return h.digest()


def part_problems(pledges: Mapping[int, bytes], contributions: Mapping[int, bytes]) -> list[str]:
    """What is wrong with the parts a host published, measured against the pledges it published
    before any part was revealed: a part nobody pledged, a pledged part left out, or a part that
    is not the one pledged (chosen after seeing the others)."""
    problems = []
    for seat in sorted(set(contributions) - set(pledges)):
        problems.append(f"seat {seat} has a seed part but made no pledge (an invented contributor)")
    for seat in sorted(set(pledges) - set(contributions)):
        problems.append(f"seat {seat} pledged a seed part that was left out of the deal")
    for seat in sorted(set(pledges) & set(contributions)):
        if pledge(seat, contributions[seat]) != pledges[seat]:
            problems.append(f"seat {seat}'s seed part is not the one it pledged")
    return problems


@dataclass
class Verdict:
    """What a client's check of a finished game found: `ok`, or the list of what failed.
    `caveats` say what could not be checked (they do not make the verdict fail)."""

    problems: list[str] = field(default_factory=list)
    caveats: list[str] = field(default_factory=list)

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
    received: Sequence[tuple[int, Sequence[Mapping[str, Any]]]],
    pledges: Mapping[int, bytes] | None = None,
    claimed_seed: bytes | None = None,
    finished: bool = True,
) -> Verdict:
    """Replay the revealed game and compare it with what this seat was sent during play:
    `received` holds (update number, events) for every update, update n being action n's.

    `pledges` are the pledges this client saw published before it revealed its own part (None
    if it did not see the deal being made); `claimed_seed` is the seed the host says it used.
    `finished` False checks a game the host stopped before its end (it closed the table)."""
    verdict = Verdict()
    if commitment(host_part) != commit:
        verdict.problems.append("the host's seed part does not match its commitment")
    if pledges is not None:
        verdict.problems.extend(part_problems(pledges, contributions))
    seed = combine(host_part, contributions)
    if claimed_seed is not None and claimed_seed != seed:
        verdict.problems.append("the seed the host revealed is not the one the seed parts make")
    if (
        seat is not None
        and my_contribution is not None
        and contributions.get(seat) != my_contribution
    ):
        verdict.problems.append("our random contribution is not the one used for the deal")
    state = game.setup(config, seed)
    sent = dict(received)
    differs = False
    for index, (actor, data) in enumerate(actions):
        try:
            events = game.apply(state, actor, game.decode_action(data))
        except GameError as exc:
            verdict.problems.append(f"action {index + 1} (seat {actor}) is illegal: {exc}")
            return verdict
        shown = sent.pop(index + 1, None)
        if differs:
            continue  # the first difference is the one worth reporting
        differs = shown is None or [dict(e) for e in shown] != [e.for_seat(seat) for e in events]
        if shown is None:
            verdict.problems.append(f"update {index + 1} never reached us")
        elif differs:
            verdict.problems.append(
                f"update {index + 1} (seat {actor}'s move) differs from the replay"
            )
    if finished and game.outcome(state) is None:
        verdict.problems.append("the revealed actions do not finish the game")
    if sent:
        verdict.problems.append(
            f"we were sent update {min(sent)}, which the revealed actions do not make"
        )
    return verdict
