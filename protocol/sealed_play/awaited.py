"""Whom a sealed table waits for, and for what: worked out by each program from its own state.

Between two moves a sealed table waits on steps (docs/sealed.md, section 7, "A sealed game"):
a seat's mask-and-shuffle or re-key step of a round, the other seats' scalars of a card dealt,
a key and a pass of a card handed privately, the scalars of a card shown to everyone, a public
random draw's commitments and openings, the openings of a simultaneous choice, and every
seat's secrets at the end. A seat that never sends its step stalls the table; every program
can tell which seat, and which step, from the public state it keeps anyway, without the host's
word: the engine's requests (what `GameMirror` waits for), the rounds' turns
(`SealedRound.turn`), who each opened position went to, which positions were asked to be shown,
the draws' commitments and openings. The host is awaited where only it can go on: a round, an
opening or a show the engine asks for and the host has not begun.

`awaited` is that answer, one `Awaited` per seat and step, in the order the table waits for
them; `waits` groups them for words (the seats awaited for one step, or the host), and
`wait_phrase` and `closing_reasons` word them in English for `netcards bot`, the host's log and
the verdict of a table closed halfway (`why_unchecked` gives its reasons). The app words them
in the player's language from the same `Wait`s and `Unchecked` reasons (`ui/awaited_words.py`).
Every program asks this module, so that a screen, a bot and the host say the same.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from netcards.sealed_game import SealedGame, draw_requests, to_show
from protocol.sealed.deck import SealedRound
from protocol.sealed.draws import Draws
from protocol.sealed.passing import Moves
from protocol.sealed_play import choices
from protocol.sealed_play.progress import HOST, where

SEAT_STEPS = (
    "key",
    "mask",
    "rekey",
    "scalars",
    "pass_key",
    "pass",
    "reveal",
    "draw_commit",
    "draw_open",
    "choice",
    "secrets",
)
"""The steps a seat is awaited for: its signing key (`seal_key`, which only the host sees
before the first round), and each kind of `seal_step` a seat sends unasked by a move."""
HOST_STEPS = ("round", "open", "show", "relay")
"""What the host is awaited for: to begin a round, to ask for an opening or a show (none of
which it has sent yet), or, as a seat sees it, to relay the step this seat has sent."""
STEPS = SEAT_STEPS + HOST_STEPS
TO_STEPS = frozenset({"scalars", "pass", "open"})
"""The steps that name the seat the cards go to (`Awaited.to`)."""


@dataclass(frozen=True)
class Awaited:
    """`seat` (`HOST` for the host) is awaited for `step` (one of `STEPS`); `to` is the seat
    the cards are opened or passed to, for the steps of `TO_STEPS`."""

    seat: int
    step: str
    to: int | None = None


class WatchedRound(Protocol):
    """A round as a driver keeps it (`SeatRound` at a seat, `RelayRound` at the host)."""

    @property
    def round(self) -> SealedRound: ...
    @property
    def owners(self) -> Mapping[int, int]: ...
    @property
    def revealing(self) -> Collection[int]: ...
    @property
    def revealed(self) -> Mapping[int, int]: ...
    @property
    def moves(self) -> Moves: ...


def awaited(
    engine: SealedGame,
    state: Any,
    rounds: Mapping[int, WatchedRound],
    draws: Draws,
    seats: Sequence[int],
    published: Collection[int],
    *,
    stopped: bool = False,
) -> tuple[Awaited, ...]:
    """Who the table waits for now, from one program's own state: `rounds` and `draws` as its
    driver keeps them (its `draws.asked` set by its mirror), `seats` every seat of the game,
    `published` the seats whose secrets it took, `stopped` a deck found tampered with (every
    seat publishes its secrets). Empty when nothing is awaited but a move."""
    if stopped or engine.outcome(state) is not None:
        return tuple(Awaited(s, "secrets") for s in seats if s not in published)
    requests = engine.seal_requests(state)
    if requests:
        kept = rounds.get(requests[0].index)
        if kept is None:
            return (Awaited(HOST, "round"),)
        r = kept.round
        turn = r.turn
        return () if turn is None else (Awaited(turn, r.phase),)
    opening = engine.to_open(state)
    if opening:
        found: dict[tuple[int, str, int | None], None] = {}  # in order, once each
        for to, slot in opening:
            number, p = where(state, slot)
            kept = rounds.get(number)
            if kept is not None:
                _opening(kept, to, p, found)
        return tuple(Awaited(*key) for key in found)
    shown = to_show(engine, state)
    slots = shown or [s for _, ss in sorted(engine.to_reveal(state).items()) for s in ss]
    if slots:
        return _unique([a for slot in slots for a in _showing(state, rounds, slot)])
    if draw_requests(engine, state) and draws.current < draws.asked:
        step = "draw_open" if draws.committed(draws.current) else "draw_commit"
        return tuple(Awaited(s, step) for s in draws.waiting_for())
    if state.ledger.ready():
        return tuple(Awaited(s, choices.CHOICE) for s in choices.pending(engine, state))
    return ()


def _opening(
    kept: WatchedRound, to: int, p: int, found: dict[tuple[int, str, int | None], None]
) -> None:
    """Position `p` on its way to seat `to`: dealt (every other seat's scalars), or handed from
    the seat that holds it (the new owner's key, then the keeper's pass). (Tuples, not
    `Awaited`s, while a deal's many positions are gone through: this runs after every message.)"""
    moves, r = kept.moves, kept.round
    if moves.passing.get(p) == to:
        if p not in moves.keys:
            found[(to, "pass_key", None)] = None
        else:
            found[(moves.keepers[p], "pass", to)] = None
    elif to in moves.passed.get(p, ()):
        return
    elif kept.owners.get(p) == to:
        for x in r.seats:
            if x != to and p not in r.scalars.get(x, ()):
                found[(x, "scalars", to)] = None
    else:
        found[(HOST, "open", to)] = None


def _showing(state: Any, rounds: Mapping[int, WatchedRound], slot: int) -> list[Awaited]:
    """A slot to show to everyone: asked by the host, then every seat's scalar of it."""
    number, p = where(state, slot)
    kept = rounds.get(number)
    if kept is None or p in kept.revealed:
        return []
    if p not in kept.revealing:
        return [Awaited(HOST, "show")]
    r = kept.round
    return [Awaited(x, "reveal") for x in r.seats if p not in r.scalars.get(x, {})]


def _unique(found: Sequence[Awaited]) -> tuple[Awaited, ...]:
    return tuple(dict.fromkeys(found))


# -- in words ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Wait:
    """One thing the table waits for, as a person reads it: the `seats` awaited for `step` (no
    seat: the host), and `to` for the steps of `TO_STEPS`."""

    seats: tuple[int, ...]
    step: str
    to: int | None = None


def waits(found: Sequence[Awaited], me: int | None = None) -> list[Wait]:
    """`found` grouped by step, as seat `me` reads it (None: the host, a spectator). The other
    seats come first: a step of `me`'s own was sent when it was due (a seat's program answers
    every message at once), so while only it is awaited, this program waits for the host to
    relay it; the host's own steps are named only when no seat is awaited."""
    others = [a for a in found if a.seat not in (HOST, me)]
    if others:
        grouped: dict[tuple[str, int | None], list[int]] = {}
        for a in others:
            grouped.setdefault((a.step, a.to), []).append(a.seat)
        return [Wait(tuple(s), step, to) for (step, to), s in grouped.items()]
    host = [a for a in found if a.seat == HOST]
    if host:
        return [Wait((), a.step, a.to) for a in _unique(host)]
    if any(a.seat == me for a in found):
        return [Wait((), "relay")]
    return []


def seat_label(seat: int, names: Sequence[str]) -> str:
    """A seat as players read it: its player's name and its number from 1 (`Bob (seat 2)`)."""
    name = names[seat] if 0 <= seat < len(names) else "?"
    return f"{name} (seat {seat + 1})"


STEP_WORDS = {
    "key": "to send their signing key",
    "mask": "to shuffle the cards",
    "rekey": "to re-key the cards",
    "scalars": "to open the cards dealt to {to}",
    "pass_key": "to send the key of a card passed to them",
    "pass": "to pass a card to {to}",
    "reveal": "to show a card to everyone",
    "draw_commit": "to commit to a random draw",
    "draw_open": "to open a random draw",
    "choice": "to open a committed choice",
    "secrets": "to publish their secrets",
    "round": "to begin a sealing round",
    "open": "to ask for the cards dealt to {to}",
    "show": "to ask for a card to be shown to everyone",
    "relay": "to relay the step of {me}",
}
"""Each step in English, after "waiting for Bob (seat 2)" (the app has its own sentences)."""


def wait_phrase(wait: Wait, names: Sequence[str], me: int | None = None) -> str:
    """`waiting for Bob (seat 2) to shuffle the cards`, in English."""
    labels = [seat_label(s, names) for s in wait.seats]
    who = "the host" if not labels else listed(labels)
    to = "" if wait.to is None else seat_label(wait.to, names)
    mine = "" if me is None else seat_label(me, names)
    return f"waiting for {who} " + STEP_WORDS[wait.step].format(to=to, me=mine)


def waiting_words(found: Sequence[Awaited], names: Sequence[str], me: int | None = None) -> str:
    """Everything awaited in one line (empty: nothing but a move)."""
    return "; ".join(wait_phrase(w, names, me) for w in waits(found, me))


@dataclass(frozen=True)
class Unchecked:
    """One reason a sealed game closed halfway was not checked: the table was waiting for
    something (`wait`), or a seat's program did not play when its time ran out, or a seat left
    without publishing its secrets (`seat`), or the game merely ended first. `closing_reasons`
    words it in English (the verdict's words, which programs compare); the app words the same
    reasons in its player's language."""

    kind: str
    """"waiting", "unanswered", "left" or "ended"."""
    wait: Wait | None = None
    seat: int | None = None


def why_unchecked(
    found: Sequence[Awaited],
    me: int | None,
    away: Collection[int],
    published: Collection[int],
    unanswered: Collection[int] = (),
) -> list[Unchecked]:
    """Why a sealed game its host closed halfway was not checked: each seat (or the host) the
    table was waiting for and the step, each seat whose program did not play when its time ran
    out (`unanswered`), then each seat that left (or was away) without publishing its secrets
    and is not named already; the game's end unnamed if none."""
    reasons: list[Unchecked] = []
    named: set[int] = set()
    for wait in waits(found, me):
        reasons.append(Unchecked("waiting", wait=wait))
        named.update(wait.seats)
    for who in sorted(set(unanswered) - named - {me}):
        reasons.append(Unchecked("unanswered", seat=who))
        named.add(who)
    for who in sorted(set(away) - set(published) - named - {me}):
        reasons.append(Unchecked("left", seat=who))
    return reasons or [Unchecked("ended")]


def unchecked_words(reason: Unchecked, names: Sequence[str], me: int | None) -> str:
    """One reason in the verdict's English words."""
    if reason.wait is not None:
        return "the table closed while " + wait_phrase(reason.wait, names, me)
    who = -1 if reason.seat is None else reason.seat
    if reason.kind == "unanswered":
        return f"{seat_label(who, names)} did not play when its time ran out"
    if reason.kind == "left":
        name = names[who] if 0 <= who < len(names) else "?"
        return f"seat {who + 1} ({name}) left before publishing its secrets"
    return "the game ended before every seat published its secrets"


def closing_reasons(
    found: Sequence[Awaited],
    names: Sequence[str],
    me: int | None,
    away: Collection[int],
    published: Collection[int],
    unanswered: Collection[int] = (),
) -> list[str]:
    """`why_unchecked`, in the verdict's English words."""
    return reasons_in_words(why_unchecked(found, me, away, published, unanswered), names, me)


def reasons_in_words(why: Sequence[Unchecked], names: Sequence[str], me: int | None) -> list[str]:
    """Reasons in the verdict's English words, one by one (`unchecked_words`)."""
    return [unchecked_words(reason, names, me) for reason in why]


def listed(labels: Sequence[str]) -> str:
    """Names as an English sentence lists them: "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    if len(labels) == 1:
        return labels[0]
    return ", ".join(labels[:-1]) + " and " + labels[-1]


def to_data(found: Sequence[Awaited]) -> list[dict[str, int | str]]:
    """`found` as the host tells it to spectators (the `awaited` notice's `steps`)."""
    out: list[dict[str, int | str]] = []
    for a in found:
        entry: dict[str, int | str] = {"seat": a.seat, "step": a.step}
        if a.to is not None:
            entry["to"] = a.to
        out.append(entry)
    return out


def from_data(data: object, players: int) -> tuple[Awaited, ...] | None:
    """The `awaited` notice's `steps` as a spectator's client reads them; None for anything
    that is not such a list (a seat out of range, a step of no such name, a wrong type)."""
    if not isinstance(data, list) or len(data) > 64:
        return None
    out = []
    for entry in data:
        if not isinstance(entry, dict) or not set(entry) <= {"seat", "step", "to"}:
            return None
        seat, step, to = entry.get("seat"), entry.get("step"), entry.get("to")
        if type(seat) is not int or not (seat == HOST or 0 <= seat < players):
            return None
        if step not in STEPS or (step in HOST_STEPS) != (seat == HOST) or step == "relay":
            return None
        if (to is None) == (step in TO_STEPS):
            return None
        if to is not None and (type(to) is not int or not 0 <= to < players):
            return None
        out.append(Awaited(seat, str(step), to))
    return tuple(out)
