"""Cards nobody may see yet, as the rules engine handles them at a sealed table (docs/sealed.md).

At a sealed table nobody holds the whole deal, not even the host, so one engine runs with three
knowledges: the host knows the public record and every card revealed so far, each seat also
knows its own hand, the end-of-game audit knows everything. The state is the same for all of
them (it is public); only the knowledge beside it differs.

A card whose identity is hidden is a **slot**: an int at or above `SLOT_BASE` (real card ids
are below it), slot k being the k-th sealed position of the game. Each sealing round seals a
public list of card ids and gives them the next free slots, in order, so that slot k is position
k - first of its round: the protocol opens and reveals positions, the engine moves slots. The
rules move a slot like a card; a rule that needs its value asks `Knowledge.resolve`, which
raises `HiddenCardNeeded` when the instance does not know it. That is an engine bug (a rule the
host cannot run, or a seat peeking at another's hand), never a player's error, so it is no
`GameError`: a table must not turn it into a refusal and carry on.

`SealLedger` is the public bookkeeping every game's sealed state keeps: the rounds and their
cards, the rounds the protocol has still to run, the slots it has still to open to their owners,
and the cards revealed. It is what lets the host refuse a claimed card that its slot cannot hold
(not one of the round's cards, or a card already shown at another slot of that round) without
knowing any hidden card, and what tells the protocol, after each action, what it must do before
the next one. Nothing here knows any cryptography: the protocol layer drives it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from netcards.errors import IllegalAction, StepPending
from netcards.event import Event

if TYPE_CHECKING:
    from netcards.sealed_choices import Opening

SLOT_BASE = 1 << 16
"""The first slot: every game's card ids are below it, so a slot can never pass for a card."""


def is_slot(x: int) -> bool:
    return x >= SLOT_BASE


class HiddenCardNeeded(Exception):
    """An engine instance needed the identity of a slot it does not know: an engine bug."""

    def __init__(self, slot: int) -> None:
        super().__init__(
            f"the engine needed the card at slot {slot - SLOT_BASE}, which it may not know"
        )
        self.slot = slot


class ByCard(tuple[int, ...]):
    """A deck table by card id (a sealed game's deck tables are these) that, asked for a slot,
    says so: the classic rules read card values straight from such tables, and a slot reaching
    one is a hidden card a rule needed."""

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, int) and is_slot(index):
            raise HiddenCardNeeded(index)
        return tuple.__getitem__(self, index)


class ImpossibleCard(IllegalAction):
    """A card claimed for a slot (played, revealed or opened) that the slot cannot hold: not one
    of the cards its round sealed, a card already seen at another slot of that round, or not the
    card this instance knows is there."""


class Knowledge:
    """What one engine instance knows of the slots: slot -> card id.

    The host's holds the cards revealed to everyone (and its own bots' hands), a seat's also its
    own hand as it is opened to it, the audit's every slot.

    `openings`: the simultaneous choices this instance made and committed but has not yet
    opened (netcards/sealed_choices.py), by (step, seat): a seat's own, the host's bots', or
    at the audit every seat's. They are secrets of the seat like its hand.
    """

    __slots__ = ("cards", "openings")

    def __init__(self, cards: Mapping[int, int] | None = None) -> None:
        self.cards: dict[int, int] = dict(cards or {})
        self.openings: dict[tuple[int, int], Opening] = {}

    def knows(self, slot: int) -> bool:
        return slot in self.cards

    def learn(self, slot: int, card: int) -> None:
        if not is_slot(slot):
            raise ValueError(f"{slot} is a card id, not a slot")
        known = self.cards.get(slot)
        if known is not None and known != card:
            raise ImpossibleCard(
                f"slot {slot - SLOT_BASE} holds card {known}, not card {card}",
            )
        self.cards[slot] = card

    def resolve(self, x: int) -> int:
        """The card id `x` stands for: itself if it is one, the known card of a slot."""
        if x < SLOT_BASE:
            return x
        card = self.cards.get(x)
        if card is None:
            raise HiddenCardNeeded(x)
        return card

    def resolve_all(self, xs: Iterable[int]) -> list[int]:
        return [self.resolve(x) for x in xs]


def seat_event(event: Event, seat: int, knowledge: Knowledge) -> dict[str, Any]:
    """`event` as `seat`'s own program shows it (`Event.for_seat`), its private part read
    through the seat's knowledge. A sealed engine's rules are the classic ones over slots, so
    the part of an event only its seat sees names slots where the classic game's names cards
    (a card put face down, the cards drawn); the seat knows them, and its screen, its log and
    its bot read card ids. A part naming a slot the seat does not know (yet) is left out, and
    the words for another seat's move say it."""
    out: dict[str, Any] = {"kind": event.kind}
    for key, value in event.public.items():
        out[key] = value if key == "slots" else _resolved(value, knowledge, strict=False)
    for key, value in event.private.get(seat, {}).items():
        try:
            out[key] = _resolved(value, knowledge, strict=True)
        except HiddenCardNeeded:
            continue
    return out


def _resolved(value: Any, knowledge: Knowledge, strict: bool) -> Any:
    """`value` with every slot `knowledge` knows turned into its card; one it does not know
    raises `HiddenCardNeeded` (`strict`) or stays a slot (a public part: a card everyone will
    see once it is shown, such as Velonimo's new reward, which the screen then says unnamed)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        if strict or not is_slot(value) or knowledge.knows(value):
            return knowledge.resolve(value)
        return value
    if isinstance(value, list | tuple):
        return [_resolved(v, knowledge, strict) for v in value]
    if isinstance(value, dict):
        return {k: _resolved(v, knowledge, strict) for k, v in value.items()}
    return value


PUBLIC = Knowledge()
"""Knows no slot: what rules that must run on the host resolve through. Never written to."""


@dataclass(frozen=True, slots=True)
class SealRound:
    """One sealing round: the public list of card ids it seals, and the slots they become
    (position j is slot `first + j`). What the cards are is public (the deck, or a finished pile
    being reshuffled); which slot holds which card is what the round hides."""

    index: int
    first: int
    cards: tuple[int, ...]

    @property
    def slots(self) -> range:
        return range(self.first, self.first + len(self.cards))

    def to_data(self) -> dict[str, Any]:
        return {"index": self.index, "first": self.first, "cards": list(self.cards)}

    @classmethod
    def from_data(cls, d: Mapping[str, Any]) -> SealRound:
        return cls(d["index"], d["first"], tuple(d["cards"]))


@dataclass(slots=True)
class SealLedger:
    """The public bookkeeping of a sealed game, kept in its state (so identical everywhere).

    `unsealed`: the first round the protocol has not yet reported sealed (rounds are run in
    order). `to_open`: (seat, slot) pairs to open to that seat, in the order they were dealt or
    drawn. `revealed`: every slot revealed to everyone, and its card. `to_show`: slots to open
    to everyone although nobody plays them (a card turned face up from a sealed pile, such as
    Velonimo's duel reward). `draws`: public random draws asked for and not yet made, each a
    value nobody can know or steer before it is drawn (a random pick among the cards of a hand,
    such as a Velonimo turtle's steal, cannot come from a seed the players already know).
    """

    rounds: list[SealRound] = field(default_factory=list)
    unsealed: int = 0
    to_open: list[tuple[int, int]] = field(default_factory=list)
    revealed: dict[int, int] = field(default_factory=dict)
    to_show: list[int] = field(default_factory=list)
    draws: int = 0

    # -- what the protocol must do ---------------------------------------------------------------

    def seal(self, cards: Iterable[int]) -> SealRound:
        """Ask for a new round sealing `cards`, in that order; returns it with its fresh slots."""
        first = self.rounds[-1].slots.stop if self.rounds else SLOT_BASE
        sealed = SealRound(len(self.rounds), first, tuple(cards))
        if len(set(sealed.cards)) != len(sealed.cards):
            raise ValueError("a sealing round cannot seal a card twice")
        self.rounds.append(sealed)
        return sealed

    def seal_requests(self) -> list[SealRound]:
        """The rounds the protocol must run, in this order, before the next action."""
        return self.rounds[self.unsealed :]

    def sealed(self, index: int) -> None:
        """The protocol ran round `index` (the first one still requested)."""
        if index != self.unsealed or index >= len(self.rounds):
            raise StepPending(f"round {index} is not the next round to seal")
        self.unsealed += 1

    def open_to(self, seat: int, slots: Iterable[int]) -> None:
        self.to_open.extend((seat, s) for s in slots)

    def opened(self, seat: int, slots: Iterable[int]) -> None:
        """The protocol opened `slots` to `seat`: they leave the list of openings to do."""
        done = {(seat, s) for s in slots}
        missing = done - set(self.to_open)
        if missing:
            raise StepPending(
                f"slot {min(missing)[1] - SLOT_BASE} was not to be opened to that seat"
            )
        if self.seal_requests() and any(self.round_of(s).index >= self.unsealed for _, s in done):
            raise StepPending("a slot cannot be opened before its round is sealed")
        self.to_open = [p for p in self.to_open if p not in done]

    def show(self, slots: Iterable[int]) -> None:
        """Ask for `slots` to be opened to everyone (no seat claims them: the protocol does)."""
        self.to_show.extend(slots)

    def shown(self, slot: int, card: int, knowledge: Knowledge) -> None:
        """The protocol opened `slot` to everyone as `card`: checked, then revealed."""
        if slot not in self.to_show:
            raise StepPending(f"slot {slot - SLOT_BASE} was not to be shown")
        if self.round_of(slot).index >= self.unsealed:
            raise StepPending("a slot cannot be shown before its round is sealed")
        self.check(slot, card, knowledge)
        self.to_show.remove(slot)
        self.reveal(slot, card, knowledge)

    def ask_draw(self) -> None:
        """Ask for one public random draw (see `draws`)."""
        self.draws += 1

    def drawn(self) -> None:
        """The protocol made the first draw still asked for."""
        if self.seal_requests() or self.to_open or self.to_show:
            raise StepPending("a draw waits for the seals and openings asked before it")
        if not self.draws:
            raise StepPending("no random draw was asked for")
        self.draws -= 1

    def ready(self) -> bool:
        """Nothing left for the protocol to do before the next action."""
        return not (self.seal_requests() or self.to_open or self.to_show or self.draws)

    def check_ready(self) -> None:
        if self.seal_requests():
            raise StepPending(f"round {self.unsealed} must be sealed before the next action")
        if self.to_open:
            seat, slot = self.to_open[0]
            raise StepPending(f"slot {slot - SLOT_BASE} must be opened to seat {seat + 1} first")
        if self.to_show:
            raise StepPending(f"slot {self.to_show[0] - SLOT_BASE} must be shown to everyone first")
        if self.draws:
            raise StepPending("a random draw must be made before the next action")

    # -- what a slot may hold --------------------------------------------------------------------

    def round_of(self, slot: int) -> SealRound:
        for sealed in reversed(self.rounds):  # a slot is at or above its round's first
            if slot >= sealed.first:
                if slot in sealed.slots:
                    return sealed
                break
        raise ImpossibleCard(f"{slot} is no sealed slot of this game")

    def check(self, slot: int, card: int, knowledge: Knowledge) -> None:
        """Refuse a claim that `slot` holds `card` that the public record (or `knowledge`) rules
        out: the card is not among its round's, or already seen at another of its slots."""
        sealed = self.round_of(slot)
        if card not in sealed.cards:
            raise ImpossibleCard(f"card {card} was not sealed in round {sealed.index}")
        if knowledge.knows(slot):
            knowledge.learn(slot, card)  # raises if it knows another card there
            return
        for other in sealed.slots:
            if other != slot and card in (self.revealed.get(other), knowledge.cards.get(other)):
                raise ImpossibleCard(
                    f"card {card} of round {sealed.index} was already seen at slot "
                    f"{other - SLOT_BASE}"
                )

    def reveal(self, slot: int, card: int, knowledge: Knowledge) -> None:
        """Record a checked card as shown to everyone; every instance learns it."""
        self.revealed[slot] = card
        knowledge.learn(slot, card)

    # -- copying and data --------------------------------------------------------------------------

    def copy(self) -> SealLedger:
        return SealLedger(
            list(self.rounds),
            self.unsealed,
            list(self.to_open),
            dict(self.revealed),
            list(self.to_show),
            self.draws,
        )

    def to_data(self) -> dict[str, Any]:
        """`to_show` and `draws` only when there are some, so that the record of a game that
        never uses them is the one it had before they existed."""
        out: dict[str, Any] = {
            "rounds": [r.to_data() for r in self.rounds],
            "unsealed": self.unsealed,
            "to_open": [list(p) for p in self.to_open],
            "revealed": [[s, c] for s, c in sorted(self.revealed.items())],
        }
        if self.to_show:
            out["to_show"] = list(self.to_show)
        if self.draws:
            out["draws"] = self.draws
        return out

    @classmethod
    def from_data(cls, d: Mapping[str, Any]) -> SealLedger:
        return cls(
            [SealRound.from_data(r) for r in d["rounds"]],
            d["unsealed"],
            [(p[0], p[1]) for p in d["to_open"]],
            dict(d["revealed"]),
            list(d.get("to_show", ())),
            int(d.get("draws", 0)),
        )
