"""What a client was shown of a game, kept small, to be held against the replay at the end
(`docs/protocol.md`, section 7, step 8, says what is checked).

The end-of-game check must cover everything the host showed and the client kept: every view
(the first snapshot, each update's, each snapshot after coming back), every update's events
(live, and again in a `history` after coming back: the two may not differ), the result, and
the parts of `start` that the game determines. What arrives is only noted as it comes (the
decoded message parts themselves, which nothing changes afterwards): reducing each view to a
digest of each of its top-level fields, enough to tell whether it is the replay's view and to
name the fields that differ, waits until the check asks for it. Hashing every view as it
arrived cost more than the rest of a client's work on an update; at the end it is one pass,
beside a replay of the whole game. The first `start` waits too: hashing its card catalogue
(0.4 ms for Via Gladiola's) held up the game's first move, which every program has just been
asked for.

Digests are of a canonical form of the plain data a message carries: a list and a tuple are
the same (the wire does not tell them apart), a map's order does not count, and a bool is not
the integer it equals in Python.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

DIGEST_BYTES = 16


def _feed(h: Any, data: Any) -> None:
    if data is None:
        h.update(b"n")
    elif isinstance(data, bool):
        h.update(b"t" if data else b"f")
    elif isinstance(data, int):
        h.update(b"i%d;" % data)
    elif isinstance(data, float):
        h.update(b"d" + repr(data).encode() + b";")
    elif isinstance(data, str):
        raw = data.encode()
        h.update(b"s%d:" % len(raw) + raw)
    elif isinstance(data, bytes | bytearray):
        h.update(b"b%d:" % len(data) + bytes(data))
    elif isinstance(data, Mapping):
        items = sorted((digest(k), v) for k, v in data.items())
        h.update(b"m%d:" % len(items))
        for key, value in items:
            h.update(key)
            _feed(h, value)
    elif isinstance(data, list | tuple):
        h.update(b"l%d:" % len(data))
        for item in data:
            _feed(h, item)
    else:
        raise TypeError(f"not plain data: {type(data).__name__}")


def digest(data: Any) -> bytes:
    """A digest of plain data that two equal payloads share, however they were built."""
    h = hashlib.blake2b(digest_size=DIGEST_BYTES)
    _feed(h, data)
    return h.digest()


def field_digests(data: Mapping[str, Any]) -> tuple[tuple[str, bytes], ...]:
    """A map as (key, digest of its value), in key order: what is kept of a view or a result."""
    return tuple(sorted((str(k), digest(v)) for k, v in data.items()))


def differing_fields(kept: Iterable[tuple[str, bytes]], real: Mapping[str, Any]) -> list[str]:
    """The fields whose value is not the real one (a field one side lacks included)."""
    mine = dict(kept)
    theirs = dict(field_digests(real))
    return sorted(k for k in mine.keys() | theirs.keys() if mine.get(k) != theirs.get(k))


@dataclass(frozen=True)
class ShownView:
    """A view the client was shown, as of update `seq` (0: before the first action)."""

    seq: int
    label: str
    fields: tuple[tuple[str, bytes], ...]
    to_act: tuple[int, ...]

    def difference(self, view: Mapping[str, Any], to_act: Sequence[int]) -> str | None:
        """How this view is not `view` (with `to_act` acting), in words; None if it is."""
        wrong = differing_fields(self.fields, view)
        if tuple(sorted(to_act)) != self.to_act:
            wrong.append("who must act")
        if not wrong:
            return None
        return f"{self.label} differs from the replay ({', '.join(wrong)})"


START_FACTS = ("game", "rules_version", "players", "options", "seat", "commitment", "parts")
"""The parts of `start` that the game and its deal determine (the names are the host's word)."""


def _start_digests(
    facts: Mapping[str, Any], cards: Sequence[Any]
) -> tuple[dict[str, bytes], bytes]:
    return {name: digest(facts.get(name)) for name in START_FACTS}, digest(list(cards))


@dataclass
class ShownGame:
    """Everything a client kept of what the host showed it, for the end-of-game check."""

    _views: list[ShownView] = field(default_factory=list)
    _events: dict[tuple[int, bytes], str] = field(default_factory=dict)
    """(update number, digest of its events) -> where we were shown them first."""
    result: tuple[tuple[str, bytes], ...] | None = None
    _first_start: tuple[Mapping[str, Any], Sequence[Any]] | None = None
    """The first `start`'s facts and card catalogue as they came, reduced to digests only
    when asked (`start`, `cards`): at the deal, every player's program is about to act."""
    _start_digests: tuple[dict[str, bytes], bytes] | None = None
    problems: list[str] = field(default_factory=list)
    """What could be told without the replay: two `start`s of one game that disagree."""
    _seen_views: set[tuple[int, tuple[tuple[str, bytes], ...], tuple[int, ...]]] = field(
        default_factory=set
    )
    _arrived: list[tuple[int, Mapping[str, Any], tuple[int, ...], bool]] = field(
        default_factory=list
    )
    """Views as they came, (seq, view, to_act, snapshot), not yet reduced to digests."""
    _arrived_events: list[tuple[int, Sequence[Mapping[str, Any]], bool]] = field(
        default_factory=list
    )
    """Events as they came, (seq, events, from a history), not yet reduced to digests."""

    @property
    def views(self) -> list[ShownView]:
        """Every view shown, each once, as digests."""
        self.settle()
        return self._views

    @property
    def events(self) -> dict[tuple[int, bytes], str]:
        """(update number, digest of its events) -> where we were shown them first."""
        self.settle()
        return self._events

    @property
    def start(self) -> dict[str, bytes]:
        """The digests of the first `start`'s facts (`START_FACTS`); empty before one came."""
        digests = self._first_digests()
        return {} if digests is None else digests[0]

    @property
    def cards(self) -> bytes | None:
        """The digest of the card catalogue of the first `start`."""
        digests = self._first_digests()
        return None if digests is None else digests[1]

    def _first_digests(self) -> tuple[dict[str, bytes], bytes] | None:
        if self._start_digests is None and self._first_start is not None:
            self._start_digests = _start_digests(*self._first_start)
        return self._start_digests

    def on_start(self, facts: Mapping[str, Any], cards: Sequence[Any]) -> None:
        """A `start`: the first one is kept (as it came: nothing changes a decoded message's
        parts); a later one (on coming back) must say the same."""
        if self._first_start is None:
            self._first_start = (facts, cards)
            return
        first, first_cards = self.start, self.cards
        digests, card_digest = _start_digests(facts, cards)
        wrong = [name for name in START_FACTS if digests[name] != first[name]]
        if card_digest != first_cards:
            wrong.append("cards")
        if wrong:
            self.problems.append(
                f"the 'start' sent again on coming back differs from the first ({', '.join(wrong)})"
            )

    def on_view(
        self, seq: int, view: Mapping[str, Any], to_act: Sequence[int], *, snapshot: bool
    ) -> None:
        """A view shown as of update `seq`: noted now, reduced to digests by `settle`."""
        self._arrived.append((seq, view, tuple(to_act), snapshot))

    def on_events(self, seq: int, events: Sequence[Mapping[str, Any]], *, history: bool) -> None:
        """The events of update `seq`: noted now, reduced to a digest by `settle`."""
        self._arrived_events.append((seq, events, history))

    def settle(self) -> None:
        """Reduce what arrived since the last call to the digests the check compares."""
        arrived, self._arrived = self._arrived, []
        for seq, view, to_act, snapshot in arrived:
            self._keep_view(seq, view, to_act, snapshot=snapshot)
        arrived_events, self._arrived_events = self._arrived_events, []
        for seq, events, history in arrived_events:
            self._keep_events(seq, events, history=history)

    def _keep_view(
        self, seq: int, view: Mapping[str, Any], to_act: Sequence[int], *, snapshot: bool
    ) -> None:
        fields = field_digests(view)
        acting = tuple(sorted(to_act))
        key = (seq, fields, acting)
        if key in self._seen_views:
            return  # the same view again (a snapshot after a reconnect): nothing new to check
        self._seen_views.add(key)
        if snapshot:
            first = not self._views
            label = "the first snapshot" if first else f"the snapshot at update {seq}"
        else:
            label = f"the view after update {seq}"
        self._views.append(ShownView(seq, label, fields, acting))

    def _keep_events(self, seq: int, events: Sequence[Mapping[str, Any]], *, history: bool) -> None:
        key = (seq, digest([dict(e) for e in events]))
        if key not in self._events:
            where = "in the history sent on coming back" if history else "as it was played"
            self._events[key] = f"update {seq} {where}"

    def on_result(self, outcome: Mapping[str, Any]) -> None:
        self.result = field_digests(outcome)

    def taken_back(self, first: int) -> None:
        """The host came back from a crash without action `first` and the later ones: what we
        were shown of them was of a game that is decided again, so it is not held against it."""
        self.settle()
        self._views = [v for v in self._views if v.seq < first]
        self._seen_views = {k for k in self._seen_views if k[0] < first}
        self._events = {k: w for k, w in self._events.items() if k[0] < first}

    def views_at(self) -> dict[int, list[ShownView]]:
        self.settle()
        out: dict[int, list[ShownView]] = {}
        for view in self._views:
            out.setdefault(view.seq, []).append(view)
        return out
