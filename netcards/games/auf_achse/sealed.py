"""Auf Achse at a sealed table: the classic rules over slots (netcards/sealed_cards.py), with
its simultaneous choices committed before any is opened (netcards/sealed_choices.py).

The host runs the rules over the public state alone; each seat runs the same rules and also
knows its own hand; the audit knows every slot. The state is the same in all of them, so it
holds no hidden card: hands, runs, face-down odometer cards, choices set aside and the draw pile
are slots, and a card becomes a card id in the state only when it is revealed to everyone.

**Chance.** Each stage's deal gathers all 109 cards: a new sealing round of them, the draw pile
its slots, dealt as the classic deal deals cards; a reshuffle of the discards (all of them
revealed cards) is a new round of those cards. Every card dealt or drawn is listed to be opened
to its new owner (`to_open`) before the next action. Stage 1's first player comes from the
public seed.

**Moves.** An odometer card is played face down: the action names the slot alone, checked to be
in the actor's hand. A run card and a Free road's cards are chosen by several seats at once:
each asked seat sends a commitment (`seal_action` makes it and keeps the opening in the seat's
knowledge); once all have committed, `choice_openings` names the seats that must open theirs
(`reveal_choice`: the slots and the nonce, checked against the commitment, a mismatch refused
naming the seat), and after the last opening the slots join the runs, face down as before.

**Reveals.** The rules need a hidden card's value at three points, and wait there until the
owners have revealed it (`to_reveal`, then `reveal_hand`, as at the end of a sealed Via Gladiola):
turning the next odometer card (its owner), a Level crossing (the last card of every run, shown
to everybody by the classic rules too) and scoring a stage (every run). Nothing else reads a
hidden card: the new stage's deal does not need the old hands.

**Legality.** No move's legality depends on a hidden hand: any card of one's hand may go to the
run or the odometer, and how many cards a Free road asks of a seat follows from its hand's size,
which is public. So the host checks every move in full (the slot is in the actor's hand, the
count, no slot twice), and what is left to the audit is that each revealed card is the card its
slot held and that each committed choice opened as committed, both checked as they happen by
every instance that knows the slot.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from netcards.action import Action, ActionCodec
from netcards.errors import GameOver, IllegalAction, NotYourTurn, StepPending
from netcards.event import Event
from netcards.game import Outcome, TableConfig
from netcards.games.auf_achse import views
from netcards.games.auf_achse.actions import AddToRun, FreeRoad, PlayOdometer
from netcards.games.auf_achse.cards import LEVEL_CROSSING, Deck, deck_for
from netcards.games.auf_achse.flow import HAND_SIZE, Flow
from netcards.games.auf_achse.rules import AufAchse, _legal
from netcards.games.auf_achse.state import FREE_ROAD, ODOMETER, RUN, AAState
from netcards.rng import Rng
from netcards.sealed_cards import (
    ByCard,
    ImpossibleCard,
    Knowledge,
    SealLedger,
    SealRound,
    is_slot,
)
from netcards.sealed_choices import (
    ChoiceLedger,
    ChoiceRefused,
    Opening,
    digest_items,
    items_digest,
)
from netcards.sealed_state import LEDGER, Extra, SealedFields, as_sealed, immutable

SEALED_EVENTS = frozenset({"cards_shown", "choice_opened"})
"""The events a sealed game has beside the classic game's: the rest are the classic ones."""

_NOBODY: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class SealedOdometer(Action):
    """Put the card at `slot` of the actor's hand face down on the odometer pile."""

    KIND: ClassVar[str] = "odometer"
    slot: int


@dataclass(frozen=True, slots=True)
class CommitChoice(Action):
    """The commitment to a simultaneous choice (run card or Free road cards): its 32 bytes."""

    KIND: ClassVar[str] = "commit"
    commitment: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ChooseSlots(Action):
    """A seat's own simultaneous choice, the slots left to right, as its legal actions list it.
    It is never sent: `seal_action` turns it into its commitment."""

    KIND: ClassVar[str] = "choose"
    slots: tuple[int, ...]


SEALED_CODEC = ActionCodec(SealedOdometer, CommitChoice)


@dataclass(frozen=True)
class _SealedDeck(Deck):
    @functools.cached_property
    def kind(self) -> tuple[int, ...]:
        return ByCard(c.kind for c in self.cards)

    @functools.cached_property
    def value(self) -> tuple[int, ...]:
        return ByCard(c.value for c in self.cards)


@functools.lru_cache(maxsize=16)
def _sealed_deck(deck_text: str | None) -> Deck:
    return _SealedDeck(deck_for(deck_text).cards)


@dataclass(slots=True)
class SealedAAState(AAState):
    """An Auf Achse state whose hidden places hold slots, the ledger of its sealing rounds, the
    ledger of its simultaneous choices, and a stage over whose runs are still to be revealed
    (`stage_end`: why it ended)."""

    ledger: SealLedger = field(default_factory=SealLedger)
    choices: ChoiceLedger = field(default_factory=ChoiceLedger)
    stage_end: str | None = None

    def copy(self) -> SealedAAState:
        return _FIELDS.copy(self)

    def to_data(self) -> dict[str, Any]:
        return _FIELDS.to_data(self)

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> SealedAAState:
        return _FIELDS.from_data(d)


def _with_sealed_deck(state: SealedAAState) -> None:
    state.deck = _sealed_deck(state.deck_text)


_FIELDS = SealedFields(
    AAState,
    SealedAAState,
    LEDGER,
    Extra("choices", ChoiceLedger.copy, ChoiceLedger.to_data, ChoiceLedger.from_data),
    immutable("stage_end"),
    loaded=_with_sealed_deck,
)


class _SealedFlow(Flow):
    """The classic steps, with the shuffles sealed, the cards dealt or drawn listed to open to
    their owners, and the reveal and the scoring waiting for hidden cards to be revealed."""

    def shuffled(self, state: AAState, cards: list[int]) -> list[int]:
        return list(as_sealed(SealedAAState, state).ledger.seal(cards).slots)

    def can_turn(self, state: AAState) -> bool:
        return not _odometer_reveals(state)

    def deal(self, state: AAState, events: list[Event]) -> None:
        super().deal(state, events)
        ledger = as_sealed(SealedAAState, state).ledger
        for i in range(HAND_SIZE):
            for seat, hand in enumerate(state.hands):
                if i < len(hand):
                    ledger.open_to(seat, [hand[i]])

    def refill(self, state: AAState, seat: int, events: list[Event]) -> None:
        before = len(state.hands[seat])
        super().refill(state, seat, events)
        as_sealed(SealedAAState, state).ledger.open_to(seat, state.hands[seat][before:])

    def end_stage(self, state: AAState, reason: str, events: list[Event]) -> None:
        if not any(is_slot(x) for run in state.runs for x in run):
            super().end_stage(state, reason, events)
            return
        # Over, but not scored: `to_reveal` names every run's slots.
        as_sealed(SealedAAState, state).stage_end = reason
        state.need = [0] * state.players
        state.current = -1


def _odometer_reveals(state: AAState) -> dict[int, list[int]]:
    """What must be revealed before the next odometer card can be turned over: the card itself
    (by its owner), then for a Level crossing the last card of every run."""
    if state.phase != ODOMETER or state.current >= 0 or not state.reveal_order:
        return {}
    seat = state.reveal_order[0]
    card = state.odometer_down[seat][-1]
    if is_slot(card):
        return {seat: [card]}
    if state.deck.kind[card] != LEVEL_CROSSING:
        return {}
    return {s: [run[-1]] for s, run in enumerate(state.runs) if run and is_slot(run[-1])}


class _SealedRules(AufAchse):
    flow = _SealedFlow()


_RULES = _SealedRules()


def _shown(state: SealedAAState, knowledge: Knowledge, seats: range | list[int]) -> AAState:
    """The classic state as an instance that knows `knowledge` can show it: every committed,
    unopened choice set aside (its own as chosen, another's as its count of placeholder slots,
    since only its size is shown), and the places of `seats` resolved."""
    base = AAState.copy(state)
    base.deck = deck_for(state.deck_text)
    step = state.choices.current
    if step is not None:
        for seat, count in step.asked.items():
            if not step.committed(seat):
                continue
            opening = knowledge.openings.get((step.index, seat))
            hand = base.hands[seat]
            items = list(opening.items) if opening is not None else hand[len(hand) - count :]
            for x in items:
                hand.remove(x)
            base.pending[seat] = items
    for seat in seats:
        base.hands[seat] = knowledge.resolve_all(base.hands[seat])
        base.runs[seat] = knowledge.resolve_all(base.runs[seat])
        base.pending[seat] = knowledge.resolve_all(base.pending[seat])
        base.odometer_down[seat] = knowledge.resolve_all(base.odometer_down[seat])
    return base


class SealedAufAchse:
    """The sealed mode's entry points, as sealed Via Gladiola's (same names, same meanings), plus
    the simultaneous choices: `choice_openings` and `reveal_choice`, and `seal_action`'s nonce.

    Between two actions the protocol does, in this order and until none is left: the rounds of
    `seal_requests` (then `sealed`), the openings of `to_open` (`learn` at the seat, `opened`
    everywhere), the reveals of `to_reveal` (`reveal_hand`), the openings of `choice_openings`
    (`reveal_choice`). A reveal can lead to more of each: the last card of a round turned over
    ends it, refills open new cards, a new stage seals a new deal."""

    codec = SEALED_CODEC
    classic: ClassVar[AufAchse] = _RULES

    def setup(self, config: TableConfig, public_seed: bytes) -> SealedAAState:
        """Stage 1's deal, with round 0 (all 109 cards) still to seal and every hand's slots still
        to open, one card at a time in deal order; the first run card is then asked for."""
        opts = config.options
        rng = Rng(public_seed)
        first = opts.get("first_player")
        if first is None:
            first = rng.below(config.players)
        state = SealedAAState(
            players=config.players,
            deck_text=opts.get("deck"),
            deck=_sealed_deck(opts.get("deck")),
            rng=rng,
            first_player=first,
            hands=[],
            draw=[],
        )
        _RULES.flow.deal(state, [])
        _RULES.flow.start_round(state, [])
        self._ask(state)
        return state

    # -- what the protocol must do between actions --------------------------------------------------

    def seal_requests(self, state: SealedAAState) -> list[SealRound]:
        """Rounds to run, in order, before anything else: a stage's deal (all the cards) or a
        reshuffle (the discards, all of them shown already)."""
        return state.ledger.seal_requests()

    def sealed(self, state: SealedAAState, index: int) -> None:
        state.ledger.sealed(index)

    def to_open(self, state: SealedAAState) -> list[tuple[int, int]]:
        """(seat, slot) pairs to open to that seat before the next action: cards dealt or drawn."""
        return list(state.ledger.to_open)

    def learn(self, state: SealedAAState, knowledge: Knowledge, slot: int, card: int) -> None:
        """A seat's instance learns the card a slot of its hand was opened as, refused if the
        slot cannot hold it."""
        if not any(slot in hand for hand in state.hands):
            raise ImpossibleCard(f"{slot} is in nobody's hand")
        state.ledger.check(slot, card, knowledge)
        knowledge.learn(slot, card)

    def opened(self, state: SealedAAState, seat: int, slots: list[int]) -> None:
        state.ledger.opened(seat, slots)

    def to_reveal(self, state: SealedAAState) -> dict[int, list[int]]:
        """The slots each seat must reveal to everybody before the rules can go on: the next
        odometer card, the runs' last cards under a Level crossing, every run at a stage's end."""
        if state.stage_end is not None:
            return {
                seat: [x for x in run if is_slot(x)]
                for seat, run in enumerate(state.runs)
                if any(is_slot(x) for x in run)
            }
        return _odometer_reveals(state)

    def reveal_hand(
        self, state: SealedAAState, seat: int, cards: Mapping[int, int], knowledge: Knowledge
    ) -> list[Event]:
        """`seat` reveals the given slots that `to_reveal` asks of it (in its run or face down
        on the odometer, whatever the name says); once nothing is left to reveal, the rules go
        on from where they waited. All or nothing."""
        state.ledger.check_ready()
        pending = set(self.to_reveal(state).get(seat, ()))
        if not cards or not pending:
            raise IllegalAction(f"seat {seat + 1} has nothing to reveal now")
        claimed: set[tuple[int, int]] = set()
        for slot, card in cards.items():
            if slot not in pending:
                raise IllegalAction(f"slot {slot} is not one seat {seat + 1} must reveal now")
            state.ledger.check(slot, card, knowledge)
            key = (state.ledger.round_of(slot).index, card)
            if key in claimed:
                raise ImpossibleCard(f"card {card} was claimed at two slots of one round")
            claimed.add(key)
        for slot, card in cards.items():
            for place in (state.odometer_down[seat], state.runs[seat]):
                if slot in place:
                    place[place.index(slot)] = card
            state.ledger.reveal(slot, card, knowledge)
        slots = sorted(cards)
        events = [
            Event("cards_shown", {"seat": seat, "slots": slots, "cards": [cards[s] for s in slots]})
        ]
        if not self.to_reveal(state):
            reason = state.stage_end
            if reason is not None:
                state.stage_end = None
                _RULES.flow.end_stage(state, reason, events)
            else:
                _RULES.flow.reveal(state, events)
            self._ask(state)
        return events

    def choice_step(self, state: SealedAAState) -> int | None:
        """The number of the simultaneous step under way (inside every commitment), if any."""
        step = state.choices.current
        return None if step is None else step.index

    def choice_openings(self, state: SealedAAState) -> list[int]:
        """The seats that must open their committed choice now (`reveal_choice`): none until
        every seat asked in the step has committed, then each that has not opened yet."""
        return state.choices.to_open()

    def opening(self, state: SealedAAState, seat: int, knowledge: Knowledge) -> Opening:
        """What `seat`'s program sends to open its choice: kept in its knowledge since it
        committed (`seal_action`)."""
        step = state.choices.current
        if step is None or (step.index, seat) not in knowledge.openings:
            raise IllegalAction(f"this instance holds no committed choice of seat {seat + 1}")
        return knowledge.openings[(step.index, seat)]

    def reveal_choice(
        self,
        state: SealedAAState,
        seat: int,
        slots: tuple[int, ...],
        nonce: bytes,
        knowledge: Knowledge,
    ) -> list[Event]:
        """`seat` opens its committed choice: refused (naming the seat) if it does not match the
        commitment or is no legal choice. The slots are set aside as in the classic game; after
        the last opening they join the runs and the round goes on."""
        state.ledger.check_ready()
        step = state.choices.current
        if step is None:
            raise ChoiceRefused(seat, "no simultaneous choice is under way")
        step.check_opening(seat, slots, nonce)
        try:
            if not all(is_slot(x) for x in slots):
                raise IllegalAction("a choice names slots of the hand")
            _RULES._check_cards(state, seat, list(slots))
        except IllegalAction as exc:
            raise ChoiceRefused(seat, f"its choice is not legal: {exc}") from exc
        step.open(seat, slots, nonce)
        _RULES._take(state, seat, list(slots))
        knowledge.openings.pop((step.index, seat), None)
        events = [
            Event(
                "choice_opened",
                {"seat": seat, "step": step.index, "slots": list(slots), "nonce": nonce.hex()},
            )
        ]
        if step.done():
            state.choices.close()
            _RULES._resolve(state, events)
            self._ask(state)
        return events

    @staticmethod
    def _ask(state: SealedAAState) -> None:
        """Open a choice step when the rules ask several seats to choose at once."""
        if state.over or state.stage_end is not None or state.choices.current is not None:
            return
        if state.phase in (RUN, FREE_ROAD) and any(state.need):
            state.choices.ask(dict(enumerate(state.need)))

    # -- whose turn, what is legal, applying -------------------------------------------------------

    def to_act(self, state: SealedAAState) -> frozenset[int]:
        """The seat to play on the odometer, or the seats still to commit a choice; nobody while
        cards are to be revealed or choices opened."""
        if state.over or self.to_reveal(state):
            return _NOBODY
        if state.phase == ODOMETER:
            return frozenset({state.current}) if state.current >= 0 else _NOBODY
        step = state.choices.current
        return _NOBODY if step is None else frozenset(step.to_commit())

    def legal_actions(self, state: SealedAAState, seat: int, knowledge: Knowledge) -> list[Action]:
        """The classic moves of the seat's hand as resolved by `knowledge`, naming slots: an
        odometer card as `SealedOdometer`, a choice as `ChooseSlots` (to commit, never to send)."""
        if seat not in self.to_act(state) or not state.ledger.ready():
            return []
        hand = state.hands[seat]
        slot_of = dict(zip(knowledge.resolve_all(hand), hand, strict=True))
        return [
            self._with_slots(action, slot_of)
            for action in _legal(state.phase, list(slot_of), state.need[seat])
        ]

    @staticmethod
    def _with_slots(action: Action, slot_of: Mapping[int, int]) -> Action:
        if isinstance(action, PlayOdometer):
            return SealedOdometer(slot_of[action.card])
        if isinstance(action, AddToRun):
            return ChooseSlots((slot_of[action.card],))
        if isinstance(action, FreeRoad):
            return ChooseSlots(tuple(slot_of[c] for c in action.cards))
        return action

    def seal_action(
        self,
        state: SealedAAState,
        seat: int,
        action: Action,
        knowledge: Knowledge,
        nonce: bytes | None = None,
    ) -> Action:
        """A classic action (or a `ChooseSlots`) as the sealed action to send. A simultaneous
        choice becomes its commitment, for which the seat's program gives a fresh random
        `nonce` (32 bytes, never reused); the opening is kept in `knowledge` until
        `reveal_choice` sends it."""
        if not isinstance(action, ChooseSlots):
            hand = state.hands[seat]
            action = self._with_slots(
                action, dict(zip(knowledge.resolve_all(hand), hand, strict=True))
            )
        if not isinstance(action, ChooseSlots):
            return action
        step = state.choices.current
        if step is None or seat not in step.asked:
            raise IllegalAction(f"seat {seat + 1} is not asked to choose now")
        if nonce is None:
            raise ValueError("a simultaneous choice needs a fresh random nonce")
        opening = Opening(step.index, seat, action.slots, nonce)
        commitment = opening.commitment()
        knowledge.openings[(step.index, seat)] = opening
        return CommitChoice(digest_items(commitment))

    def shows(self, action: Action) -> dict[int, int]:
        """Nothing: an odometer card goes face down and a choice is a commitment; the rules
        ask for reveals themselves (`to_reveal`)."""
        del action
        return {}

    def apply(
        self, state: SealedAAState, seat: int, action: Action, knowledge: Knowledge
    ) -> list[Event]:
        """Validate, then change the state; on any error the state is untouched."""
        if state.over:
            raise GameOver("the game is over")
        state.ledger.check_ready()
        reveals = self.to_reveal(state)
        if reveals:
            who = min(reveals)
            raise StepPending(f"seat {who + 1} must reveal slot {reveals[who][0]} first")
        openings = state.choices.to_open()
        if openings:
            raise StepPending(f"seat {openings[0] + 1} must open its choice first")
        if seat not in self.to_act(state):
            if state.choices.committed(seat):
                others = sorted(self.to_act(state))
                raise NotYourTurn(
                    f"seat {seat + 1} has already chosen; waiting for "
                    f"seat(s) {', '.join(str(s + 1) for s in others)}"
                )
            raise NotYourTurn(f"seat {seat + 1} is not asked to act now")
        kind = type(action)
        if kind is SealedOdometer and state.phase == ODOMETER:
            slot: int = action.slot  # type: ignore[attr-defined]
            if not is_slot(slot) or slot not in state.hands[seat]:
                raise IllegalAction("that card is not in your hand")
            events = _RULES._odometer(state, seat, slot)
        elif kind is CommitChoice and state.phase in (RUN, FREE_ROAD):
            events = self._commit(state, seat, action, knowledge)
        elif kind is ChooseSlots:
            raise IllegalAction("a simultaneous choice is sent as its commitment, never as it is")
        elif kind not in (SealedOdometer, CommitChoice):
            raise IllegalAction(f"'{action.KIND}' is not an action of sealed Auf Achse")
        else:
            raise IllegalAction(f"'{action.KIND}' is not possible now")
        self._ask(state)
        return events

    @staticmethod
    def _commit(
        state: SealedAAState, seat: int, action: Action, knowledge: Knowledge
    ) -> list[Event]:
        """The choice goes in as its commitment. The program that made it (the seat's own, or
        the host's for its bot) keeps the opening, and its event names the chosen slots in the
        seat's private part, as the classic event names the cards: no other program can."""
        step = state.choices.current
        assert step is not None
        digest = items_digest(action.commitment)  # type: ignore[attr-defined]
        step.commit(seat, digest)
        kind = "run_chosen" if state.phase == RUN else "free_road_chosen"
        public = {"seat": seat, "count": step.asked[seat], "waiting": step.to_commit()}
        opening = knowledge.openings.get((step.index, seat))
        if opening is None:
            return [Event(kind, public)]
        return [Event(kind, public, {seat: {"cards": list(opening.items)}})]

    # -- the end -----------------------------------------------------------------------------------

    def outcome(self, state: SealedAAState) -> Outcome | None:
        return _RULES.standings(state) if state.over else None

    def standings(self, state: SealedAAState) -> Outcome:
        """The finished stages' scores: public, each stage scored once its runs were revealed."""
        return _RULES.standings(state)

    # -- views ---------------------------------------------------------------------------------------

    def public_view(self, state: SealedAAState) -> dict[str, Any]:
        return views.PUBLIC.build(_shown(state, Knowledge(), []), None)

    def view(self, state: SealedAAState, seat: int, knowledge: Knowledge) -> dict[str, Any]:
        """The classic view of `seat`: its hand, run, choice and odometer card resolved through
        its knowledge, the others' only counted."""
        return views.SEAT.build(_shown(state, knowledge, [seat]), seat)

    # -- the audit -----------------------------------------------------------------------------------

    def unsealed(self, state: SealedAAState, knowledge: Knowledge) -> AAState:
        """The classic state this one stands for, every slot resolved and every committed choice
        set aside (the audit's knowledge holds every slot and every opening)."""
        base = _shown(state, knowledge, range(state.players))
        base.draw = knowledge.resolve_all(base.draw)
        return base
