"""Via Gladiola in sealed mode: one engine, three knowledges, against the classic game.

A simulated protocol stands in for the cryptography: a dict slot -> card plays the sealed deck,
opening a slot to a seat is telling that seat's instance, revealing is telling everyone. The
classic game, forced to the same deal and the same reshuffles, is the reference: every sealed
instance must keep the same public state, each seat must see exactly its classic view, the audit
must unseal to exactly the classic state, and the host must get through every game knowing
nothing but what was revealed.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import pytest

from netcards.action import Action
from netcards.errors import IllegalAction
from netcards.event import Event
from netcards.games.via_gladiola import GAME
from netcards.games.via_gladiola.actions import GLADIOLA, REST, WALK, Rest
from netcards.games.via_gladiola.cards import DRAW_PILE_IDS, start_card
from netcards.games.via_gladiola.rules import deal
from netcards.games.via_gladiola.sealed import (
    SEALED_CODEC,
    SealedGladiola,
    SealedVGState,
    SealedViaGladiola,
    SealedWalk,
)
from netcards.games.via_gladiola.state import VGState
from netcards.rng import make_seed
from netcards.sealed_cards import (
    SLOT_BASE,
    HiddenCardNeeded,
    ImpossibleCard,
    Knowledge,
    StepPending,
    is_slot,
)

SEALED = SealedViaGladiola()


@dataclass
class Instance:
    """One program's engine: the public state and what it knows."""

    state: SealedVGState
    knowledge: Knowledge = field(default_factory=Knowledge)
    public_events: list[dict[str, Any]] = field(default_factory=list)

    def record(self, events: list[Event]) -> None:
        self.public_events += [{"kind": e.kind, **e.public} for e in events]


def _classic(action: Action) -> Action:
    if isinstance(action, SealedWalk):
        return WALK[action.card]
    if isinstance(action, SealedGladiola):
        return GLADIOLA[action.card]
    return action


def _without_rng(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in ("rng", "ledger")}


class Simulation:
    """A sealed table run in memory beside the classic game it must equal."""

    def __init__(self, players: int, seed: int, variant: bool = False, eager: bool = False) -> None:
        self.eager = eager  # walk the smallest step whenever one can: hands run out
        options = {"variant_last_card": variant}
        config = GAME.make_config(players, options)
        public_seed = make_seed(f"public {seed}")
        self.host = Instance(SEALED.setup(config, public_seed))
        self.seats = [Instance(SEALED.setup(config, public_seed)) for _ in range(players)]
        self.audit = Instance(SEALED.setup(config, public_seed))
        self.players = players
        # The sealing round's secret order, and the classic game forced to it.
        rng = random.Random(seed)
        order = list(DRAW_PILE_IDS)
        rng.shuffle(order)
        self.truth = {SLOT_BASE + k: card for k, card in enumerate(order)}
        first = self.host.state.first_player
        classic_config = GAME.make_config(players, {**options, "first_player": first})
        self.classic: VGState = GAME.setup(classic_config, make_seed(f"classic {seed}"))
        self.classic.hands = deal(order, players)
        self.classic.draw = order
        self.classic_events: list[dict[str, Any]] = []
        self.reshuffled: list[list[int]] = []  # the classic game's new piles, to seal alike
        self.seal_requests = 0
        self.bot = random.Random(seed * 7 + players)

    @property
    def everyone(self) -> list[Instance]:
        return [self.host, *self.seats, self.audit]

    # -- the protocol, simulated -------------------------------------------------------------------

    def settle(self) -> None:
        """What the protocol does after each action: seal, open, and at the end reveal."""
        requests = SEALED.seal_requests(self.host.state)
        for inst in self.everyone:
            assert SEALED.seal_requests(inst.state) == requests
        for request in requests:
            if request.index > 0:
                order = self.reshuffled.pop(0)
                assert sorted(request.cards) == sorted(order)
                self.truth.update(zip(request.slots, order, strict=True))
                self.seal_requests += 1
            for slot in request.slots:
                self.audit.knowledge.learn(slot, self.truth[slot])
            for inst in self.everyone:
                SEALED.sealed(inst.state, request.index)
        assert not self.reshuffled
        by_seat: dict[int, list[int]] = defaultdict(list)
        for seat, slot in SEALED.to_open(self.host.state):
            seat_inst = self.seats[seat]
            SEALED.learn(seat_inst.state, seat_inst.knowledge, slot, self.truth[slot])
            by_seat[seat].append(slot)
        for seat, slots in by_seat.items():
            for inst in self.everyone:
                SEALED.opened(inst.state, seat, slots)
        for seat, slots in SEALED.to_reveal(self.host.state).items():
            # Revealing is opening to everyone: the card comes out of the cryptography, also
            # for a card drawn by the game's last move, which its owner was never shown.
            cards = {slot: self.truth[slot] for slot in slots}
            for inst in self.everyone:
                inst.record(SEALED.reveal_hand(inst.state, seat, cards, inst.knowledge))
        assert not SEALED.to_reveal(self.host.state)

    # -- the checks after every step ----------------------------------------------------------------

    def check(self) -> None:
        state = self.host.state
        data = state.to_data()
        for inst in self.everyone:
            assert inst.state.to_data() == data
        # Hidden places hold slots only: nobody, the host included, can read them off the state.
        assert all(is_slot(x) for x in state.draw)
        if not state.over:
            assert all(is_slot(x) for hand in state.hands for x in hand)
        # The host knows exactly what was revealed to everyone, and nothing else.
        assert self.host.knowledge.cards == state.ledger.revealed
        assert all(self.truth[s] == c for s, c in state.ledger.revealed.items())
        assert SEALED.public_view(state) == GAME.public_view(self.classic)
        for seat, inst in enumerate(self.seats):
            assert SEALED.view(inst.state, seat, inst.knowledge) == GAME.view(self.classic, seat)
            for other, hand in enumerate(state.hands):
                if other != seat:
                    assert not any(inst.knowledge.knows(x) for x in hand if is_slot(x))
        unsealed = SEALED.unsealed(self.audit.state, self.audit.knowledge)
        assert _without_rng(unsealed.to_data()) == _without_rng(self.classic.to_data())

    # -- one game ------------------------------------------------------------------------------------

    def choose(self, seat: int) -> Action:
        inst = self.seats[seat]
        moves = SEALED.legal_actions(inst.state, seat, inst.knowledge)
        assert [_classic(a) for a in moves] == GAME.legal_actions(self.classic, seat)
        if self.eager:
            return moves[0]  # the lowest card that can go (Rest is last)
        if self.bot.random() < 0.4:  # rest often: it drains the pile, so days get reshuffled
            return REST
        return self.bot.choice(moves)

    def step(self, action: Action) -> None:
        seat = self.host.state.current
        classic_events = GAME.apply(self.classic, seat, _classic(action))
        self.classic_events += [{"kind": e.kind, **e.public} for e in classic_events]
        self.reshuffled += [
            list(e.secret["draw_pile_top_last"]) for e in classic_events if e.kind == "reshuffle"
        ]
        for inst in self.everyone:
            inst.record(SEALED.apply(inst.state, seat, action, inst.knowledge))

    def play(self) -> None:
        self.settle()
        self.check()
        while not self.host.state.over:
            seat = self.host.state.current
            self.step(self.choose(seat))
            self.settle()
            self.check()
        assert SEALED.outcome(self.host.state) == GAME.outcome(self.classic) is not None
        for inst in self.everyone:
            assert inst.public_events == self.host.public_events
        assert [e for e in self.host.public_events if e["kind"] != "reveal"] == self.classic_events


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("variant", [False, True])
def test_sealed_instances_play_the_classic_game_and_the_host_needs_no_hidden_card(
    players: int, variant: bool
) -> None:
    seal_requests = 0
    for seed in range(20):
        sim = Simulation(players, seed * 31 + players, variant)
        sim.play()  # HiddenCardNeeded anywhere (the host's calls above all) fails the test
        seal_requests += sim.seal_requests
    assert seal_requests > 0, "no reshuffle was sealed: the games never went through one"


def test_the_variants_last_card_ends_a_sealed_game_as_it_ends_the_classic_one() -> None:
    """Bots that always walk when they can empty a hand now and then: the game ends at once,
    before the walk's draws, and the other hands are revealed for the scoring."""
    endings = []
    for players in (2, 3, 4):
        for seed in range(20):
            sim = Simulation(players, seed * 31 + players, variant=True, eager=True)
            sim.play()
            endings.append(sim.host.state.end_reason)
    assert "last_card" in endings


def _ready(players: int = 3, seed: int = 1) -> Simulation:
    sim = Simulation(players, seed)
    sim.settle()
    return sim


def test_a_seat_cannot_resolve_another_seats_hand() -> None:
    sim = _ready()
    state, mine = sim.seats[0].state, sim.seats[0].knowledge
    other = state.hands[1][0]
    with pytest.raises(HiddenCardNeeded) as caught:
        mine.resolve(other)
    assert caught.value.slot == other
    with pytest.raises(HiddenCardNeeded):
        SEALED.view(state, 1, mine)
    state.current = 1  # as if it were seat 1's turn, asked through seat 0's knowledge
    with pytest.raises(HiddenCardNeeded):
        SEALED.legal_actions(state, 1, mine)


def test_the_host_cannot_score_a_game_in_progress() -> None:
    sim = _ready()
    with pytest.raises(HiddenCardNeeded):
        SEALED.standings(sim.host.state)
    assert SEALED.outcome(sim.host.state) is None


def test_a_classic_rule_that_reads_a_slot_names_it() -> None:
    """The sealed state's deck tables refuse slots: a classic rule run on the host that needed
    a hidden card says which, rather than failing some other way or reading a wrong value."""
    sim = _ready()
    slot = sim.host.state.hands[0][0]
    with pytest.raises(HiddenCardNeeded) as caught:
        SealedViaGladiola.classic.standings(sim.host.state)
    assert is_slot(caught.value.slot)
    with pytest.raises(HiddenCardNeeded):
        sim.host.state.deck.value[slot]


def test_hands_are_revealed_only_when_the_game_is_over() -> None:
    sim = _ready()
    slot = sim.host.state.hands[0][0]
    with pytest.raises(IllegalAction, match="nothing to reveal"):
        SEALED.reveal_hand(sim.host.state, 0, {slot: sim.truth[slot]}, sim.host.knowledge)
    assert not SEALED.to_reveal(sim.host.state)


def test_no_action_before_the_deal_is_sealed_and_opened() -> None:
    config = GAME.make_config(3)
    state = SEALED.setup(config, b"x" * 32)
    with pytest.raises(StepPending, match="round 0 must be sealed"):
        SEALED.apply(state, state.current, REST, Knowledge())
    SEALED.sealed(state, 0)
    with pytest.raises(StepPending, match="must be opened"):
        SEALED.apply(state, state.current, REST, Knowledge())
    assert len(SEALED.to_open(state)) == 3 * 8


def _walkable(sim: Simulation) -> SealedWalk:
    """A walk the current seat may make (from its own legal actions); games are re-seeded until
    the first player has one."""
    seat = sim.host.state.current
    inst = sim.seats[seat]
    walks = [
        a
        for a in SEALED.legal_actions(inst.state, seat, inst.knowledge)
        if isinstance(a, SealedWalk)
    ]
    assert walks
    return walks[0]


def _sim_with_walk() -> tuple[Simulation, SealedWalk]:
    for seed in range(50):
        sim = _ready(seed=seed)
        seat = sim.host.state.current
        inst = sim.seats[seat]
        if any(
            isinstance(a, SealedWalk)
            for a in SEALED.legal_actions(inst.state, seat, inst.knowledge)
        ):
            return sim, _walkable(sim)
    raise AssertionError("no seed gave the first player a walk")


def test_a_played_card_that_was_never_sealed_is_refused_and_changes_nothing() -> None:
    sim, walk = _sim_with_walk()
    before = sim.host.state.to_data()
    for bogus in (start_card(2), 9999):
        with pytest.raises(ImpossibleCard, match="was not sealed"):
            SEALED.apply(
                sim.host.state, sim.host.state.current, SealedWalk(walk.slot, bogus), Knowledge()
            )
    assert sim.host.state.to_data() == before


def test_a_played_card_already_seen_at_another_slot_is_refused_by_the_host() -> None:
    sim, walk = _sim_with_walk()
    sim.step(walk)
    sim.settle()
    # The next seat claims the card just walked (public now) for a slot of its own hand.
    seat = sim.host.state.current
    slot = next(x for x in sim.host.state.hands[seat] if is_slot(x))
    before = sim.host.state.to_data()
    with pytest.raises(ImpossibleCard, match="already seen"):
        SEALED.apply(sim.host.state, seat, SealedWalk(slot, walk.card), sim.host.knowledge)
    assert sim.host.state.to_data() == before


def test_a_card_that_is_not_the_slots_is_refused_by_whoever_knows_the_slot() -> None:
    sim, walk = _sim_with_walk()
    seat = sim.host.state.current
    # Another card of the deal, still unseen by the host: it cannot tell, the audit can.
    lie = next(
        c for s, c in sim.truth.items() if s != walk.slot and s in sim.host.state.hands[1 - seat]
    )
    before = sim.audit.state.to_data()
    with pytest.raises(ImpossibleCard, match="holds card"):
        SEALED.apply(sim.audit.state, seat, SealedWalk(walk.slot, lie), sim.audit.knowledge)
    assert sim.audit.state.to_data() == before
    assert sim.audit.knowledge.resolve(walk.slot) == walk.card


def test_a_seat_refuses_an_opening_that_repeats_a_card_it_holds() -> None:
    config = GAME.make_config(2)
    state = SEALED.setup(config, b"y" * 32)
    SEALED.sealed(state, 0)
    mine = Knowledge()
    (s0, a), (_, b) = [p for p in SEALED.to_open(state) if p[0] == 0][:2]
    SEALED.learn(state, mine, a, 5)
    with pytest.raises(ImpossibleCard, match="already seen"):
        SEALED.learn(state, mine, b, 5)
    with pytest.raises(ImpossibleCard, match="was not sealed"):
        SEALED.learn(state, mine, b, start_card(1))
    assert s0 == 0 and not mine.knows(b)


def test_a_slot_of_another_hand_cannot_be_played() -> None:
    sim, walk = _sim_with_walk()
    seat = sim.host.state.current
    theirs = sim.host.state.hands[(seat + 1) % 3][0]
    with pytest.raises(IllegalAction, match="not in your hand"):
        SEALED.apply(sim.host.state, seat, SealedWalk(theirs, walk.card), sim.host.knowledge)


def test_an_illegal_walk_leaves_the_slot_hidden() -> None:
    """The card is put in its slot's place for the classic rule to judge; when the rule refuses
    the move, the slot is back and the card unrevealed, for the host as for everyone."""
    sim, _ = _sim_with_walk()
    seat = sim.host.state.current
    inst = sim.seats[seat]
    hand = inst.state.hands[seat]
    legal = set(SEALED.legal_actions(inst.state, seat, inst.knowledge))
    illegal = [
        SealedWalk(x, inst.knowledge.resolve(x))
        for x in hand
        if SealedWalk(x, inst.knowledge.resolve(x)) not in legal
    ]
    assert illegal  # day 1, top card 0: only cards of 1 to 15 km can go
    before = sim.host.state.to_data()
    with pytest.raises(IllegalAction):
        SEALED.apply(sim.host.state, seat, illegal[0], sim.host.knowledge)
    assert sim.host.state.to_data() == before
    assert not sim.host.knowledge.cards


def test_sealed_actions_and_state_round_trip() -> None:
    sim, walk = _sim_with_walk()
    assert SEALED_CODEC.decode(SEALED_CODEC.encode(walk)) == walk
    assert isinstance(SEALED_CODEC.decode({"kind": "rest"}), Rest)
    data = sim.host.state.to_data()
    assert SealedVGState.from_data(data).to_data() == data
    assert sim.host.state.copy().to_data() == data
