"""The verifiable deal: nobody, the host included, can choose how the cards fall.

Every contributor commits before anyone reveals. The host first commits to a hash of its secret
seed part (which also stands for its bots); each player then pledges a hash of a fresh random
part; only once the host has published every pledge do the players reveal their parts, and the
game seed hashes all of them together. Nobody can change a part after seeing another one: a part
must match the pledge made before any part was known. At the end the host reveals its own part
and the whole action list, and every client replays the game with its own engine: the commitment
must match, its own part must be in, and every event it was sent must be exactly what the replay
produces for its seat, as must every view it was shown, the cards `start` described and the
result (`netcards.shown` keeps what it was shown).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from netcards.errors import GameError
from netcards.game import Game, TableConfig
from netcards.shown import ShownGame, differing_fields, digest

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
        problems.append(
            f"seat {seat + 1} has a seed part but made no pledge (an invented contributor)"
        )
    for seat in sorted(set(pledges) - set(contributions)):
        problems.append(f"seat {seat + 1} pledged a seed part that was left out of the deal")
    for seat in sorted(set(pledges) & set(contributions)):
        if pledge(seat, contributions[seat]) != pledges[seat]:
            problems.append(f"seat {seat + 1}'s seed part is not the one it pledged")
    return problems


NOT_CHECKED = "deal not checked: "
"""How a verdict begins when the deal could not be checked at all (`Verdict.unchecked`)."""


@dataclass
class Verdict:
    """What a client's check of a finished game found: `ok`, or the list of what failed.
    `caveats` say what could not be checked (they do not make the verdict fail). `unchecked`
    says why the deal could not be checked at all (a sealed game ended before every seat
    published its secrets; a spectator of a sealed table, which holds none): neither verified
    nor caught, so never `ok`, and never worded as either."""

    problems: list[str] = field(default_factory=list)
    caveats: list[str] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and not self.unchecked

    @property
    def headline(self) -> str:
        """The verdict in one line, as a program prints it: what was caught comes first."""
        if self.problems:
            return "deal NOT verified: " + "; ".join(self.problems)
        if self.unchecked:
            return NOT_CHECKED + "; ".join(self.unchecked)
        return "deal verified"


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
    shown: ShownGame | None = None,
) -> Verdict:
    """Replay the revealed game and compare it with what this seat was sent during play:
    `received` holds (update number, events) for every update, update n being action n's.

    `pledges` are the pledges this client saw published before it revealed its own part (None
    if it did not see the deal being made); `claimed_seed` is the seed the host says it used.
    `finished` False checks a game the host stopped before its end (it closed the table).
    `shown` is everything else the host showed this seat (None for a spectator) and the client
    kept: each view must be the replay's for this seat at its update, each update's events the
    replay's however often they were sent, the result the replay's outcome, and the card
    catalogue the table's deck."""
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
    against = _Against(game, seat, shown or ShownGame())
    if shown is not None:
        verdict.problems.extend(shown.problems)
        if shown.cards is not None and shown.cards != digest(list(game.cards(config))):
            verdict.problems.append("the card catalogue in 'start' is not this table's deck")
    against.views(0, state)
    sent = dict(received)
    differs = False
    for index, (actor, data) in enumerate(actions):
        try:
            events = game.apply(state, actor, game.decode_action(data))
        except GameError as exc:
            verdict.problems.append(f"action {index + 1} (seat {actor + 1}) is illegal: {exc}")
            verdict.problems.extend(against.problems)
            return verdict
        mine = [e.for_seat(seat) for e in events]
        against.events(index + 1, mine)
        against.views(index + 1, state)
        shown_events = sent.pop(index + 1, None)
        if differs:
            continue  # the first difference is the one worth reporting
        differs = shown_events is None or [dict(e) for e in shown_events] != mine
        if shown_events is None:
            verdict.problems.append(f"update {index + 1} never reached us")
        elif differs:
            verdict.problems.append(
                f"update {index + 1} (seat {actor + 1}'s move) differs from the replay"
            )
    outcome = game.outcome(state)
    if finished and outcome is None:
        verdict.problems.append("the revealed actions do not finish the game")
    if sent:
        verdict.problems.append(
            f"we were sent update {min(sent)}, which the revealed actions do not make"
        )
    verdict.problems.extend(against.problems)
    verdict.problems.extend(against.beyond(len(actions), reported_updates=bool(sent)))
    if shown is not None and shown.result is not None:
        if outcome is None:
            verdict.problems.append("the host sent a result, but the game it played is not over")
        else:
            wrong = differing_fields(shown.result, outcome.to_data())
            if wrong:
                verdict.problems.append(f"the result differs from the replay ({', '.join(wrong)})")
    return verdict


class _Against:
    """What the client was shown, held against the replay one update at a time; only the first
    difference of each kind is reported (what follows from it says nothing new)."""

    def __init__(self, game: Game[Any], seat: int | None, shown: ShownGame) -> None:
        self.game, self.seat = game, seat
        self.shown_views = shown.views_at()
        self.shown_events: dict[int, list[tuple[bytes, str]]] = {}
        for (seq, events_digest), where in shown.events.items():
            self.shown_events.setdefault(seq, []).append((events_digest, where))
        self.problems: list[str] = []
        self.view_differs = self.events_differ = False

    def views(self, seq: int, state: Any) -> None:
        shown = self.shown_views.pop(seq, ())
        if not shown or self.view_differs:
            return
        game = self.game
        view = game.public_view(state) if self.seat is None else game.view(state, self.seat)
        to_act = sorted(game.to_act(state))
        for each in shown:
            difference = each.difference(view, to_act)
            if difference is not None:
                self.problems.append(difference)
                self.view_differs = True
                return

    def events(self, seq: int, real: list[dict[str, Any]]) -> None:
        shown = self.shown_events.pop(seq, ())
        if not shown or self.events_differ:
            return
        real_digest = digest(real)
        for events_digest, where in shown:
            if events_digest != real_digest:
                self.problems.append(f"the events of {where} differ from the replay")
                self.events_differ = True
                return

    def beyond(self, actions: int, reported_updates: bool) -> list[str]:
        """What we were shown of updates the revealed actions do not make (an update already
        reported from the log is not reported again)."""
        out = []
        for seq in sorted(self.shown_views):
            if seq > actions:
                out.append(
                    f"we were shown {self.shown_views[seq][0].label}, which the revealed "
                    "actions do not make"
                )
                break
        later = [seq for seq in self.shown_events if seq > actions]
        if later and not reported_updates:
            out.append(f"we were shown update {min(later)}, which the revealed actions do not make")
        return out
