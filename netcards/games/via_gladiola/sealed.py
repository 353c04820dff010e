"""Via Gladiola at a sealed table: the classic rules over slots (netcards/sealed_cards.py).

The host runs the rules over the public state alone; each seat runs the same rules and also
knows its own hand; the audit knows every slot. The state is the same in all of them, so it
holds no hidden card: the draw pile and the hands are slots, and a card becomes a card id in the
state only when it is revealed to everyone. The classic rules then apply unchanged, because
Via Gladiola needs a hidden card's value in just two places:

- **A card played** (a walk or a Gladiola): the action names the slot and the card, the
  protocol having opened it with the owner's scalar. The engine refuses a card the slot cannot
  hold (`ImpossibleCard`), puts the card in the slot's place, and lets the classic rule judge.
- **The scoring after day 4** (or when the variant ends the game): the game is over, but its
  scores need every hand, so the engine names the slots still in hands (`to_reveal`) and emits
  `game_end` once their owners have revealed them. No day's end scores anything.

No move's legality depends on a hidden hand: resting is always allowed, even with a card that
could be walked, so the host checks every move in full and the audit has nothing left to check
but that each revealed card is the one its slot held.

The only chance that is not a sealing round is public: the first player, drawn from the public
seed. A reshuffle of a finished day cannot be shuffled by the engine (nobody may know the new
order), so it seals those cards as a new round with fresh slots and the new draw pile is those
slots; the protocol runs the round before the next action. Every card dealt or drawn is listed
to be opened to its new owner (`to_open`) before the next action too.
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
from netcards.games.via_gladiola import views
from netcards.games.via_gladiola.actions import REST, PlayGladiola, Rest, Walk
from netcards.games.via_gladiola.cards import DRAW_PILE_IDS, Deck, deck_for, start_card
from netcards.games.via_gladiola.moves import legal_moves
from netcards.games.via_gladiola.rules import HAND_SIZE, ViaGladiola, deal
from netcards.games.via_gladiola.state import VGState
from netcards.rng import Rng
from netcards.sealed_cards import (
    PUBLIC,
    ByCard,
    ImpossibleCard,
    Knowledge,
    SealLedger,
    SealRound,
    is_slot,
)
from netcards.sealed_state import LEDGER, SealedFields, as_sealed
from netcards.view import ABSENT


@dataclass(frozen=True, slots=True)
class SealedWalk(Action):
    """Walk the card at `slot` of the actor's hand, which the protocol opened as `card`."""

    KIND: ClassVar[str] = "walk"
    slot: int
    card: int


@dataclass(frozen=True, slots=True)
class SealedGladiola(Action):
    """Lay the Gladiola at `slot` of the actor's hand, opened as `card` (day 4 only)."""

    KIND: ClassVar[str] = "gladiola"
    slot: int
    card: int


SEALED_CODEC = ActionCodec(SealedWalk, Rest, SealedGladiola)


@dataclass(frozen=True)
class _SealedDeck(Deck):
    @functools.cached_property
    def value(self) -> tuple[int, ...]:
        return ByCard(c.value for c in self.cards)

    @functools.cached_property
    def blisters(self) -> tuple[int, ...]:
        return ByCard(c.blisters for c in self.cards)


@functools.lru_cache(maxsize=16)
def _sealed_deck(deck_text: str | None) -> Deck:
    return _SealedDeck(deck_for(deck_text).cards)


@dataclass(slots=True)
class SealedVGState(VGState):
    """A Via Gladiola state whose hidden places hold slots, and the ledger of its rounds."""

    ledger: SealLedger = field(default_factory=SealLedger)

    def copy(self) -> SealedVGState:
        return _FIELDS.copy(self)

    def to_data(self) -> dict[str, Any]:
        return _FIELDS.to_data(self)

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> SealedVGState:
        return _FIELDS.from_data(d)


def _with_sealed_deck(state: SealedVGState) -> None:
    state.deck = _sealed_deck(state.deck_text)


_FIELDS = SealedFields(VGState, SealedVGState, LEDGER, loaded=_with_sealed_deck)


def _hidden_in_hands(state: VGState) -> bool:
    return any(is_slot(x) for hand in state.hands for x in hand)


class _SealedRules(ViaGladiola):
    """The classic rules with the two steps that would need the whole deal replaced."""

    def _new_draw_pile(self, state: VGState, cards: list[int]) -> dict[str, Any]:
        state.draw = list(as_sealed(SealedVGState, state).ledger.seal(cards).slots)
        return {}  # nobody knows the new order, so there is no secret to keep either

    def _end_game(self, state: VGState, reason: str, events: list[Event]) -> None:
        if not _hidden_in_hands(state):
            super()._end_game(state, reason, events)
            return
        # Over, but not scored: `to_reveal` names the slots whose owners must show them. What
        # was drawn on the way out need not be opened to its owner first.
        state.over = True
        state.end_reason = reason
        as_sealed(SealedVGState, state).ledger.to_open.clear()

    def score(self, state: VGState, events: list[Event]) -> None:
        assert state.end_reason is not None
        super()._end_game(state, state.end_reason, events)


_RULES = _SealedRules()


def _final_hands(state: VGState, seat: int | None) -> Any:
    if not state.over or _hidden_in_hands(state):
        return ABSENT  # still to be revealed
    return [sorted(PUBLIC.resolve_all(h)) for h in state.hands]


PUBLIC_VIEW = views.PUBLIC.extended({"final_hands": _final_hands})
"""The classic public view, except that the final hands wait until they are all revealed."""


class SealedViaGladiola:
    """The sealed mode's entry points. Like a `Game`, it holds no per-game data; each engine
    instance brings its own `Knowledge` where a rule may resolve a slot, and nowhere else: the
    host's calls pass none but what was revealed, so a rule it runs cannot read a hidden card."""

    codec = SEALED_CODEC
    classic: ClassVar[ViaGladiola] = _RULES

    def setup(self, config: TableConfig, public_seed: bytes) -> SealedVGState:
        """The deal, with round 0 (the draw pile, slot k at position k, top last) still to seal
        and every hand's slots still to open, one card at a time in deal order."""
        opts = config.options
        rng = Rng(public_seed)
        ledger = SealLedger()
        draw = list(ledger.seal(DRAW_PILE_IDS).slots)
        players = config.players
        hands = deal(draw, players)
        for i in range(HAND_SIZE):
            for seat in range(players):
                ledger.open_to(seat, [hands[seat][i]])
        first = opts.get("first_player")
        if first is None:
            first = rng.below(players)
        return SealedVGState(
            players=players,
            variant_last_card=bool(opts.get("variant_last_card", False)),
            deck_text=opts.get("deck"),
            deck=_sealed_deck(opts.get("deck")),
            rng=rng,
            hands=hands,
            draw=draw,
            day=1,
            walk=[start_card(1)],
            finished=[],
            gladiolas=[],
            current=first,
            first_player=first,
            ledger=ledger,
        )

    # -- what the protocol must do between actions --------------------------------------------------

    def seal_requests(self, state: SealedVGState) -> list[SealRound]:
        """Rounds to run, in order, before anything else: their cards are public, the slots
        they become are theirs."""
        return state.ledger.seal_requests()

    def sealed(self, state: SealedVGState, index: int) -> None:
        state.ledger.sealed(index)

    def to_open(self, state: SealedVGState) -> list[tuple[int, int]]:
        """(seat, slot) pairs to open to that seat before the next action: cards dealt or drawn."""
        return list(state.ledger.to_open)

    def learn(self, state: SealedVGState, knowledge: Knowledge, slot: int, card: int) -> None:
        """A seat's instance learns the card a slot of its hand was opened as, refused if the
        slot cannot hold it (the protocol's own checks should have caught it first)."""
        if not any(slot in hand for hand in state.hands):
            raise ImpossibleCard(f"{slot} is in nobody's hand")
        state.ledger.check(slot, card, knowledge)
        knowledge.learn(slot, card)

    def opened(self, state: SealedVGState, seat: int, slots: list[int]) -> None:
        """Every instance notes that `slots` were opened to `seat`."""
        state.ledger.opened(seat, slots)

    def to_reveal(self, state: SealedVGState) -> dict[int, list[int]]:
        """Once the game is over: the slots each seat must reveal so that it can be scored."""
        if not state.over:
            return {}
        return {
            seat: [x for x in hand if is_slot(x)]
            for seat, hand in enumerate(state.hands)
            if any(is_slot(x) for x in hand)
        }

    def reveal_hand(
        self, state: SealedVGState, seat: int, cards: Mapping[int, int], knowledge: Knowledge
    ) -> list[Event]:
        """`seat` reveals the given slots of its hand (what `to_reveal` asked); once no hand
        holds a slot, the game is scored and `game_end` follows. All or nothing."""
        if state.ledger.seal_requests():  # a reshuffled slot drawn last: sealed first
            raise StepPending(f"round {state.ledger.unsealed} must be sealed before a reveal")
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
        hand = state.hands[seat]
        for slot, card in cards.items():
            hand[hand.index(slot)] = card
            state.ledger.reveal(slot, card, knowledge)
        events = [_reveal_event(seat, cards)]
        if not self.to_reveal(state):
            _RULES.score(state, events)
        return events

    # -- whose turn, what is legal, applying -------------------------------------------------------

    def to_act(self, state: SealedVGState) -> frozenset[int]:
        return _RULES.to_act(state)

    def legal_actions(self, state: SealedVGState, seat: int, knowledge: Knowledge) -> list[Action]:
        """The classic moves of the seat's hand as resolved by `knowledge`, naming slots."""
        if state.over or seat != state.current or not state.ledger.ready():
            return []
        hand = state.hands[seat]
        cards = knowledge.resolve_all(hand)
        return [
            self._with_slot(action, dict(zip(cards, hand, strict=True)))
            for action in legal_moves(cards, state.walk[-1], state.day)
        ]

    def seal_action(
        self, state: SealedVGState, seat: int, action: Action, knowledge: Knowledge
    ) -> Action:
        """A classic action (a bot's or a player's, chosen from the seat's view, which equals
        the classic one) as the sealed action that names its card's slot."""
        hand = state.hands[seat]
        return self._with_slot(action, dict(zip(knowledge.resolve_all(hand), hand, strict=True)))

    @staticmethod
    def _with_slot(action: Action, slot_of: Mapping[int, int]) -> Action:
        kind = type(action)
        if kind is Walk:
            card: int = action.card  # type: ignore[attr-defined]
            return SealedWalk(slot_of[card], card)
        if kind is PlayGladiola:
            card = action.card  # type: ignore[attr-defined]
            return SealedGladiola(slot_of[card], card)
        return action

    def shows(self, action: Action) -> dict[int, int]:
        """A walk or a Gladiola is played face up: its slot, as the card it claims."""
        if isinstance(action, (SealedWalk, SealedGladiola)):
            return {action.slot: action.card}
        return {}

    def apply(
        self, state: SealedVGState, seat: int, action: Action, knowledge: Knowledge
    ) -> list[Event]:
        """Validate, then change the state; on any error the state (and `knowledge`) is
        untouched. A played card is checked against what `knowledge` knows of its slot (the
        audit's knows them all) and then learnt by it, as by every instance."""
        if state.over:
            raise GameOver("the game is over")
        if seat != state.current:
            raise NotYourTurn(f"seat {seat + 1} is not asked to act now")
        state.ledger.check_ready()
        kind = type(action)
        before = set(state.hands[seat])
        if kind is Rest:
            events = _RULES._apply(state, seat, REST)
        elif kind is SealedWalk or kind is SealedGladiola:
            events = self._play(state, seat, action, knowledge)
        else:
            raise IllegalAction(f"'{action.KIND}' is not an action of sealed Via Gladiola")
        if not state.over:
            drawn = [x for x in state.hands[seat] if x not in before]
            state.ledger.open_to(seat, drawn)
        return events

    def _play(
        self, state: SealedVGState, seat: int, action: Action, knowledge: Knowledge
    ) -> list[Event]:
        slot: int = action.slot  # type: ignore[attr-defined]
        card: int = action.card  # type: ignore[attr-defined]
        hand = state.hands[seat]
        if not is_slot(slot) or slot not in hand:
            raise IllegalAction("that card is not in your hand")
        state.ledger.check(slot, card, knowledge)
        classic = Walk(card) if type(action) is SealedWalk else PlayGladiola(card)
        at = hand.index(slot)
        hand[at] = card
        try:
            events = _RULES._apply(state, seat, classic)
        except IllegalAction:
            hand[at] = slot
            raise
        state.ledger.reveal(slot, card, knowledge)
        return [_reveal_event(seat, {slot: card}), *events]

    # -- the end -----------------------------------------------------------------------------------

    def outcome(self, state: SealedVGState) -> Outcome | None:
        return self.standings(state) if state.over and not _hidden_in_hands(state) else None

    def standings(self, state: SealedVGState) -> Outcome:
        """The blisters in each hand: only once every hand is revealed, or it is an engine bug."""
        for hand in state.hands:
            PUBLIC.resolve_all(hand)
        return _RULES.standings(state)

    # -- views ---------------------------------------------------------------------------------------

    def public_view(self, state: SealedVGState) -> dict[str, Any]:
        return PUBLIC_VIEW.build(state, None)

    def view(self, state: SealedVGState, seat: int, knowledge: Knowledge) -> dict[str, Any]:
        """The classic view of `seat`: its hand resolved through its knowledge."""
        out = PUBLIC_VIEW.build(state, seat)
        out["hand"] = sorted(knowledge.resolve_all(state.hands[seat]))
        return out

    # -- the audit -----------------------------------------------------------------------------------

    def unsealed(self, state: SealedVGState, knowledge: Knowledge) -> VGState:
        """The classic state this one stands for, every slot resolved (the audit's knowledge)."""
        base = VGState.copy(state)
        base.deck = deck_for(state.deck_text)
        base.hands = [knowledge.resolve_all(h) for h in base.hands]
        base.draw = knowledge.resolve_all(base.draw)
        return base


def _reveal_event(seat: int, cards: Mapping[int, int]) -> Event:
    slots = sorted(cards)
    return Event("reveal", {"seat": seat, "slots": slots, "cards": [cards[s] for s in slots]})
