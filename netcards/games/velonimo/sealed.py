"""Velonimo at a sealed table: the classic rules over slots (netcards/sealed_cards.py).

The same interface as sealed Via Gladiola (`netcards/games/via_gladiola/sealed.py`): the host
runs the rules over the public state alone, each seat also knows its own hand, the audit knows
every slot, and after each action the engine lists what the protocol must do before the next
one. Velonimo has more chance and more private moves than Via Gladiola:

- **Every round is a new shuffle.** The deal of each round seals all 55 cards (in id order) as
  a new round with fresh slots and deals the slots as the classic game deals cards. The hands
  are opened to their owners; the cards set aside (3 to 5 players) and the duel's draw pile are
  never opened, not even at the end.
- **The duel's reward** is a slot of the draw pile turned face up: the engine asks for it to be
  shown to everyone (`to_show`, then `show`) before the next action, and from then on it is a
  card id in the state. An event that names it before (`round_start`'s `reward`,
  `reward_revealed`'s `card`) names its slot; the `reveal` event of `show` says which card.
- **Cards that change hands without being played** (dealt, drawn by water carriers, taken by
  turtles, given back) are opened to their new owner unless it was opened that slot before:
  a turtle's victim already knows what it gets back of its own, the giver knows what it gives.
  `opened` in the state is that public record, seat by seat, for the round being played.
- **A turtle's steal** takes random cards from a hand the stealer cannot see. Neither the
  stealer nor the victim may choose or foresee them: the stealer may know some of the victim's
  slots (cards it gave back earlier, a reward given away face up), and the victim knows every
  card of its hand, so positions drawn from the public seed, which everyone knows from the
  start, or chosen by either of them, would be a choice the classic game does not give. So the
  engine asks the protocol for a public random draw (`draws`, then `drawn`) once the victim is
  fixed, a value nobody could know before (a commitment of every seat, then their reveals),
  and the positions in the victim's hand list, whose order is public and no player's doing,
  follow from it (`steal_positions`). The taken slots are then opened to the stealer.
- **Played cards** name their slots and the cards they were opened as; the host refuses a card
  the slot cannot hold and lets the classic rule judge the play.

No move's legality depends on a hidden hand: a pass is always allowed (the rules let a player
pass though they could play), a give-back may give any card of the hand, and every other choice
(victim, next leader, the reward's hand) is made from public facts. So the host checks every
move in full, and the audit is left to check that each played card is the one its slot held.
Scoring needs no hand either: a round scores the order in which players went out. The last
player's cards are never revealed (the classic game keeps them secret too).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from netcards.action import Action, ActionCodec
from netcards.errors import GameOver, IllegalAction, NotYourTurn
from netcards.event import Event
from netcards.game import Outcome, TableConfig
from netcards.games.velonimo import views
from netcards.games.velonimo.actions import (
    ChooseLeader,
    ChooseVictim,
    GiveBack,
    GiveReward,
    Pass,
    Play,
)
from netcards.games.velonimo.cards import ALL_CARDS
from netcards.games.velonimo.choices import choices, jersey_wearable
from netcards.games.velonimo.rules import Velonimo, take
from netcards.games.velonimo.state import VelonimoState
from netcards.rng import Rng, make_seed
from netcards.sealed_cards import (
    ImpossibleCard,
    Knowledge,
    SealLedger,
    SealRound,
    is_slot,
)
from netcards.sealed_state import LEDGER, Extra, SealedFields, as_sealed


@dataclass(frozen=True, slots=True)
class SealedPlay(Action):
    """Play the cards at `slots` of the actor's hand, which the protocol opened as `cards`
    (increasing ids, position by position; a card already public stands for itself)."""

    KIND: ClassVar[str] = "play"
    slots: tuple[int, ...]
    cards: tuple[int, ...]
    jersey: bool


@dataclass(frozen=True, slots=True)
class SealedGiveBack(Action):
    """Give the card at `slot` of the actor's hand back to its victim. The card stays private:
    the protocol opens the slot to the victim alone."""

    KIND: ClassVar[str] = "give_back"
    slot: int


SEALED_CODEC = ActionCodec(SealedPlay, Pass, ChooseVictim, SealedGiveBack, ChooseLeader, GiveReward)


def steal_positions(value: bytes, size: int, count: int) -> list[int]:
    """The positions in a hand of `size` cards that a steal of `count` takes, in the order
    taken, from a public random draw's `value`."""
    return Rng(make_seed(value)).sample(list(range(size)), count)


@dataclass(slots=True)
class SealedVelonimoState(VelonimoState):
    """A Velonimo state whose hidden places hold slots, the ledger of its rounds, and which
    slots of the current round were opened to which seat (public: who, not what)."""

    ledger: SealLedger = field(default_factory=SealLedger)
    opened: list[list[int]] = field(default_factory=list)

    def copy(self) -> SealedVelonimoState:
        return _FIELDS.copy(self)

    def to_data(self) -> dict[str, Any]:
        return _FIELDS.to_data(self)

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> SealedVelonimoState:
        return _FIELDS.from_data(d)


def _lists(lists: list[list[int]]) -> list[list[int]]:
    return [list(x) for x in lists]


_FIELDS = SealedFields(
    VelonimoState, SealedVelonimoState, LEDGER, Extra("opened", _lists, _lists, _lists)
)


class _SealedRules(Velonimo):
    """The classic rules with the two steps that would need hidden chance replaced."""

    state_type = SealedVelonimoState

    def _new_deck(self, state: VelonimoState) -> list[int]:
        sealed = as_sealed(SealedVelonimoState, state)
        sealed.opened = [[] for _ in range(state.players)]  # a new round's slots are all new
        return list(sealed.ledger.seal(ALL_CARDS).slots)

    def _steal(
        self, state: VelonimoState, seat: int, victim: int, leaders: int, events: list[Event]
    ) -> None:
        # The victim is fixed; which cards go waits for the draw (`SealedVelonimo.drawn`).
        state.phase = "victim"
        state.victim = victim
        state.steal_count = leaders
        state.current = seat
        as_sealed(SealedVelonimoState, state).ledger.ask_draw()


_RULES = _SealedRules()


def _public(events: list[Event]) -> list[Event]:
    """The events without their secret part (the hands left at a round's end: nobody holds
    them). A private part names the slots of the seat's own cards (its hand, its water
    carriers' draw, the cards a turtle took from it or for it, the card given back): its
    program reads them through what it knows (`seat_event`), as the classic game names them."""
    return [Event(e.kind, e.public, e.private) for e in events]


def _reveal_event(seat: int | None, cards: Mapping[int, int]) -> Event:
    slots = sorted(cards)
    return Event("reveal", {"seat": seat, "slots": slots, "cards": [cards[s] for s in slots]})


class SealedVelonimo:
    """The sealed mode's entry points, as `SealedViaGladiola`'s, plus `to_show`/`show` (a slot
    opened to everyone: the duel's reward) and `draw_requests`/`drawn` (a public random draw:
    a turtle's steal). Holds no per-game data; each instance brings its own `Knowledge`."""

    codec = SEALED_CODEC
    classic: ClassVar[Velonimo] = _RULES

    def setup(self, config: TableConfig, public_seed: bytes) -> SealedVelonimoState:
        """Round 1's deal, with its sealing round still to run, its hands to open and (in the
        duel) its reward to show. Only the first player comes from the public seed."""
        state = as_sealed(SealedVelonimoState, _RULES.setup(config, public_seed))
        _after(state)
        return state

    # -- what the protocol must do between actions --------------------------------------------------

    def seal_requests(self, state: SealedVelonimoState) -> list[SealRound]:
        """Rounds to run, in order, before anything else: all 55 cards, each round's deal."""
        return state.ledger.seal_requests()

    def sealed(self, state: SealedVelonimoState, index: int) -> None:
        state.ledger.sealed(index)

    def to_open(self, state: SealedVelonimoState) -> list[tuple[int, int]]:
        """(seat, slot) pairs to open to that seat before the next action: cards dealt, drawn by
        water carriers, taken by turtles, or given back (to the victim, privately)."""
        return list(state.ledger.to_open)

    def learn(self, state: SealedVelonimoState, knowledge: Knowledge, slot: int, card: int) -> None:
        """A seat's instance learns the card a slot of its hand was opened as, refused if the
        slot cannot hold it."""
        if not any(slot in hand for hand in state.hands):
            raise ImpossibleCard(f"{slot} is in nobody's hand")
        state.ledger.check(slot, card, knowledge)
        knowledge.learn(slot, card)

    def opened(self, state: SealedVelonimoState, seat: int, slots: list[int]) -> None:
        """Every instance notes that `slots` were opened to `seat`."""
        state.ledger.opened(seat, slots)

    def to_show(self, state: SealedVelonimoState) -> list[int]:
        """Slots to open to everyone before the next action: the duel's reward, turned up."""
        return list(state.ledger.to_show)

    def show(
        self, state: SealedVelonimoState, slot: int, card: int, knowledge: Knowledge
    ) -> list[Event]:
        """The protocol opened `slot` to everyone as `card`: every instance learns it, and the
        reward becomes that card in the state."""
        if state.reward != slot:
            raise IllegalAction(f"{slot} is not the reward")
        state.ledger.shown(slot, card, knowledge)
        state.reward = card
        return [_reveal_event(None, {slot: card})]

    def draw_requests(self, state: SealedVelonimoState) -> int:
        """Public random draws to make, after the seals, openings and shows: a turtle's steal."""
        return state.ledger.draws

    def drawn(self, state: SealedVelonimoState, value: bytes, knowledge: Knowledge) -> list[Event]:
        """The draw made `value`: the steal it waited for takes the cards at
        `steal_positions(value, ...)` of the victim's hand, and they are listed to be opened to
        the stealer. `knowledge` is unused (nobody learns a card here) but kept for symmetry."""
        del knowledge
        state.ledger.drawn()
        victim = state.victim
        assert victim is not None and state.phase == "victim"
        seat = state.current
        hand = state.hands[victim]
        count = min(state.steal_count, len(hand))
        taken = [hand[i] for i in steal_positions(value, len(hand), count)]
        events: list[Event] = []
        take(state, seat, victim, state.steal_count, taken, events)
        _after(state)
        return _public(events)

    def to_reveal(self, state: SealedVelonimoState) -> dict[int, list[int]]:
        """Nothing, ever: no Velonimo score reads a hand (kept for the shared interface)."""
        return {}

    def reveal_hand(
        self, state: SealedVelonimoState, seat: int, cards: Mapping[int, int], knowledge: Knowledge
    ) -> list[Event]:
        raise IllegalAction(f"seat {seat + 1} has nothing to reveal: Velonimo scores no hand")

    # -- whose turn, what is legal, applying -------------------------------------------------------

    def to_act(self, state: SealedVelonimoState) -> frozenset[int]:
        return _RULES.to_act(state)

    def legal_actions(
        self, state: SealedVelonimoState, seat: int, knowledge: Knowledge
    ) -> list[Action]:
        """The classic choices of the seat, its hand resolved by `knowledge`, naming slots.
        Only the play and give-back phases read the hand."""
        if state.over or seat != state.current or not state.ledger.ready():
            return []
        hand = state.hands[seat]
        cards = knowledge.resolve_all(hand) if state.phase in ("play", "give_back") else hand
        slot_of = dict(zip(cards, hand, strict=True))
        classic = choices(
            state.phase,
            seat,
            cards,
            state.attack[-1][3] if state.attack else None,
            jersey_wearable(state.duel, state.jersey, state.jersey_used, seat),
            state.active,
        )
        return [self._with_slots(a, slot_of) for a in classic]

    def seal_action(
        self, state: SealedVelonimoState, seat: int, action: Action, knowledge: Knowledge
    ) -> Action:
        """A classic action (chosen from the seat's view, which equals the classic one) as the
        sealed action that names its cards' slots."""
        if type(action) not in (Play, GiveBack):
            return action
        hand = state.hands[seat]
        return self._with_slots(action, dict(zip(knowledge.resolve_all(hand), hand, strict=True)))

    @staticmethod
    def _with_slots(action: Action, slot_of: Mapping[int, int]) -> Action:
        if isinstance(action, Play):
            return SealedPlay(tuple(slot_of[c] for c in action.cards), action.cards, action.jersey)
        if isinstance(action, GiveBack):
            return SealedGiveBack(slot_of[action.card])
        return action

    def shows(self, action: Action) -> dict[int, int]:
        """A play shows each of its cards still sealed; a give-back goes to the victim alone."""
        if isinstance(action, SealedPlay):
            return {x: c for x, c in zip(action.slots, action.cards, strict=False) if is_slot(x)}
        return {}

    def apply(
        self, state: SealedVelonimoState, seat: int, action: Action, knowledge: Knowledge
    ) -> list[Event]:
        """Validate, then change the state; on any error the state (and `knowledge`) is
        untouched. Played cards are checked against what `knowledge` knows of their slots."""
        if state.over:
            raise GameOver("the game is over")
        if seat != state.current:
            raise NotYourTurn(f"seat {seat + 1} is not asked to act now")
        state.ledger.check_ready()
        kind = type(action)
        if kind is SealedPlay:
            assert isinstance(action, SealedPlay)
            events = self._play(state, seat, action, knowledge)
        elif kind is SealedGiveBack:
            assert isinstance(action, SealedGiveBack)
            # The classic rule moves whatever int is in the hand: the slot goes as it is.
            events = _RULES._apply(state, seat, GiveBack(action.slot))
        elif kind in (Pass, ChooseVictim, ChooseLeader, GiveReward):
            events = _RULES._apply(state, seat, action)
        else:
            raise IllegalAction(f"'{action.KIND}' is not an action of sealed Velonimo")
        _after(state)
        return _public(events)

    def _play(
        self, state: SealedVelonimoState, seat: int, action: SealedPlay, knowledge: Knowledge
    ) -> list[Event]:
        slots, cards = action.slots, action.cards
        hand = state.hands[seat]
        if len(slots) != len(cards) or len(set(slots)) != len(slots):
            raise IllegalAction("a play names each of its cards' slots once")
        if not all(x in hand for x in slots):
            raise IllegalAction("that card is not in your hand")
        for x, card in zip(slots, cards, strict=True):
            if is_slot(x):
                state.ledger.check(x, card, knowledge)
            elif x != card:
                raise IllegalAction(f"card {x} is shown: it cannot be played as card {card}")
        if len(set(cards)) != len(cards):
            raise IllegalAction("a play names each card once")
        at = [hand.index(x) for x in slots]
        for i, card in zip(at, cards, strict=True):
            hand[i] = card
        try:
            events = _RULES._apply(state, seat, Play(cards, action.jersey))
        except IllegalAction:
            for i, x in zip(at, slots, strict=True):
                hand[i] = x
            raise
        shown = {x: c for x, c in zip(slots, cards, strict=True) if is_slot(x)}
        for x, card in shown.items():
            state.ledger.reveal(x, card, knowledge)
        return [_reveal_event(seat, shown), *events] if shown else events

    # -- the end -----------------------------------------------------------------------------------

    def outcome(self, state: SealedVelonimoState) -> Outcome | None:
        return _RULES.outcome(state)

    def standings(self, state: SealedVelonimoState) -> Outcome:
        return _RULES.standings(state)

    # -- views ---------------------------------------------------------------------------------------

    def public_view(self, state: SealedVelonimoState) -> dict[str, Any]:
        """The classic public view; a reward still face down (a slot of the draw pile, shown to
        everyone a moment later) is no card yet: none is up."""
        out = views.PUBLIC.build(state, None)
        if out.get("reward") is not None and is_slot(out["reward"]):
            out["reward"] = None
        return out

    def view(self, state: SealedVelonimoState, seat: int, knowledge: Knowledge) -> dict[str, Any]:
        """The classic view of `seat`: its hand, the reward, and the cards taken in an exchange
        it is part of, resolved through its knowledge (`HiddenCardNeeded` until each is opened
        to it: the seat's program keeps the view it had until then)."""
        out = views.PUBLIC.build(state, seat)
        out["hand"] = sorted(knowledge.resolve_all(state.hands[seat]))
        if out.get("reward") is not None:
            out["reward"] = knowledge.resolve(out["reward"])
        exchange = out.get("exchange")
        if exchange is not None and "taken" in exchange:
            exchange["taken"] = sorted(knowledge.resolve_all(state.taken))
        return out

    # -- the audit -----------------------------------------------------------------------------------

    def unsealed(self, state: SealedVelonimoState, knowledge: Knowledge) -> VelonimoState:
        """The classic state this one stands for, every slot resolved (the audit's knowledge)."""
        base = VelonimoState.copy(state)
        base.hands = [knowledge.resolve_all(h) for h in base.hands]
        base.aside = knowledge.resolve_all(base.aside)
        base.draw = knowledge.resolve_all(base.draw)
        base.taken = knowledge.resolve_all(base.taken)
        if base.reward is not None:
            base.reward = knowledge.resolve(base.reward)
        return base


def _after(state: SealedVelonimoState) -> None:
    """List what the protocol must do after a step: every slot that entered a hand opened to
    that hand's owner (unless it was opened to it before), and the reward shown."""
    ledger = state.ledger
    for seat, hand in enumerate(state.hands):
        mine = state.opened[seat]
        new = [x for x in hand if is_slot(x) and x not in mine]
        if new:
            ledger.open_to(seat, new)
            mine.extend(new)
    reward = state.reward
    if reward is not None and is_slot(reward) and reward not in ledger.to_show:
        ledger.show([reward])
