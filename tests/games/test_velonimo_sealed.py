"""Velonimo in sealed mode: one engine, three knowledges, against the classic game.

A simulated protocol stands in for the cryptography: a dict slot -> card plays the sealed deck
of each round, opening a slot to a seat is telling that seat's instance, showing is telling
everyone, a public random draw is a few bytes from the test's generator. The classic game,
forced to the same deals and the same steals, is the reference: every sealed instance must keep
the same public state, each seat must see exactly its classic view, the audit must unseal to
exactly the classic state, and the host must get through every game knowing nothing but what
was shown to everyone.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

import pytest

from netcards.action import Action
from netcards.errors import IllegalAction
from netcards.event import Event
from netcards.games.velonimo import GAME
from netcards.games.velonimo.actions import (
    ChooseVictim,
    GiveBack,
    Pass,
    Play,
)
from netcards.games.velonimo.cards import ALL_CARDS, LEADER, VALUE, WATER_CARRIER, is_hare
from netcards.games.velonimo.rules import Velonimo, take
from netcards.games.velonimo.sealed import (
    SEALED_CODEC,
    SealedGiveBack,
    SealedPlay,
    SealedVelonimo,
    SealedVelonimoState,
    steal_positions,
)
from netcards.games.velonimo.state import VelonimoState
from netcards.rng import make_seed
from netcards.sealed_cards import (
    HiddenCardNeeded,
    ImpossibleCard,
    Knowledge,
    StepPending,
    is_slot,
    seat_event,
)

SEALED = SealedVelonimo()


class ForcedVelonimo(Velonimo):
    """The classic game dealt the given orders, round after round, and whose steals take the
    positions a public draw's value picks (the value is made here and handed to the sealed
    side's protocol)."""

    def __init__(self, orders: list[list[int]], draw: random.Random) -> None:
        self.orders = [list(o) for o in orders]
        self.draw = draw
        self.values: list[bytes] = []  # made by a steal, not yet used by the sealed protocol

    def _new_deck(self, state: VelonimoState) -> list[int]:
        return self.orders.pop(0)

    def _steal(
        self, state: VelonimoState, seat: int, victim: int, leaders: int, events: list[Event]
    ) -> None:
        value = self.draw.randbytes(32)
        self.values.append(value)
        hand = state.hands[victim]
        positions = steal_positions(value, len(hand), min(leaders, len(hand)))
        take(state, seat, victim, leaders, [hand[i] for i in positions], events)


@dataclass
class Instance:
    """One program's engine: the public state and what it knows."""

    state: SealedVelonimoState
    knowledge: Knowledge = field(default_factory=Knowledge)
    public_events: list[dict[str, Any]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    def record(self, events: list[Event]) -> None:
        self.public_events += [{"kind": e.kind, **e.public} for e in events]
        self.events += events


def _without_rng(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in ("rng", "ledger", "opened")}


class Simulation:
    """A sealed table run in memory beside the classic game it must equal."""

    def __init__(self, players: int, seed: int, difficulties: list[int] | None = None) -> None:
        options: dict[str, Any] = {}
        if difficulties is not None:
            options["difficulties"] = difficulties
        config = GAME.make_config(players, options)
        public_seed = make_seed(f"public {seed}")
        self.host = Instance(SEALED.setup(config, public_seed))
        self.seats = [Instance(SEALED.setup(config, public_seed)) for _ in range(players)]
        self.audit = Instance(SEALED.setup(config, public_seed))
        self.players = players
        rng = random.Random(seed)
        self.orders = []
        for _ in self.host.state.difficulties:
            order = list(ALL_CARDS)
            rng.shuffle(order)
            self.orders.append(order)
        first = self.host.state.first_player
        classic_config = GAME.make_config(players, {**options, "first_player": first})
        self.classic_game = ForcedVelonimo(self.orders, random.Random(seed * 11 + 1))
        self.classic = self.classic_game.setup(classic_config, make_seed(f"classic {seed}"))
        self.classic_events: list[dict[str, Any]] = []
        self.classic_raw: list[Event] = []
        self.truth: dict[int, int] = {}
        self.lawful: list[set[int]] = [set() for _ in range(players)]  # slots opened to a seat
        self.held: list[set[int]] = [set() for _ in range(players)]  # slots once in its hand
        self.bot = random.Random(seed * 7 + players)
        self.counts: Counter[str] = Counter()

    @property
    def everyone(self) -> list[Instance]:
        return [self.host, *self.seats, self.audit]

    def card(self, x: int) -> int:
        return self.truth[x] if is_slot(x) else x

    # -- the protocol, simulated -------------------------------------------------------------------

    def settle(self, show: bool = True) -> None:
        """What the protocol does after each action, until the engine asks for nothing more:
        seal, open to owners, show to everyone, draw at random (or, not `show`, stop before
        showing anything)."""
        while True:
            host = self.host.state
            for inst in self.everyone:
                assert SEALED.seal_requests(inst.state) == SEALED.seal_requests(host)
                assert SEALED.to_open(inst.state) == SEALED.to_open(host)
                assert SEALED.to_show(inst.state) == SEALED.to_show(host)
                assert SEALED.draw_requests(inst.state) == SEALED.draw_requests(host)
            for request in SEALED.seal_requests(host):
                assert request.cards == ALL_CARDS
                self.truth.update(zip(request.slots, self.orders[request.index], strict=True))
                for slot in request.slots:
                    self.audit.knowledge.learn(slot, self.truth[slot])
                for inst in self.everyone:
                    SEALED.sealed(inst.state, request.index)
                self.counts["rounds"] += 1
            by_seat: dict[int, list[int]] = defaultdict(list)
            for seat, slot in SEALED.to_open(host):
                seat_inst = self.seats[seat]
                SEALED.learn(seat_inst.state, seat_inst.knowledge, slot, self.truth[slot])
                by_seat[seat].append(slot)
                self.lawful[seat].add(slot)
            for seat, slots in by_seat.items():
                for inst in self.everyone:
                    SEALED.opened(inst.state, seat, slots)
            if not show and SEALED.to_show(host):
                return
            for slot in SEALED.to_show(host):
                for inst in self.everyone:
                    inst.record(SEALED.show(inst.state, slot, self.truth[slot], inst.knowledge))
                self.counts["shown"] += 1
            if SEALED.draw_requests(host):
                value = self.classic_game.values.pop(0)
                for inst in self.everyone:
                    inst.record(SEALED.drawn(inst.state, value, inst.knowledge))
                self.counts["draws"] += 1
            if host.ledger.ready():
                break
        assert not self.classic_game.values
        for seat, hand in enumerate(self.host.state.hands):
            self.held[seat].update(x for x in hand if is_slot(x))

    # -- the checks after every step ----------------------------------------------------------------

    def check(self) -> None:
        state = self.host.state
        data = state.to_data()
        for inst in self.everyone:
            assert inst.state.to_data() == data
        revealed = state.ledger.revealed
        public_cards = set(revealed.values())
        # Hidden places hold slots only, or cards shown to everyone (a reward given to a hand).
        assert all(is_slot(x) for x in state.aside + state.draw)
        assert all(is_slot(x) or x in public_cards for hand in state.hands for x in hand)
        assert state.reward is None or not is_slot(state.reward)
        # The host knows exactly what was shown to everyone, and nothing else.
        assert self.host.knowledge.cards == revealed
        assert all(self.truth[s] == c for s, c in revealed.items())
        assert SEALED.public_view(state) == GAME.public_view(self.classic)
        for seat, inst in enumerate(self.seats):
            assert SEALED.view(inst.state, seat, inst.knowledge) == GAME.view(self.classic, seat)
            # A seat knows what was opened to it and what everyone saw, nothing else; of another
            # hand, only cards that were once its own (a steal's or a give-back's).
            assert set(inst.knowledge.cards) == self.lawful[seat] | set(revealed)
            for other, hand in enumerate(state.hands):
                if other != seat:
                    for x in hand:
                        if is_slot(x) and inst.knowledge.knows(x):
                            assert x in self.held[seat]
        unsealed = SEALED.unsealed(self.audit.state, self.audit.knowledge)
        assert _without_rng(unsealed.to_data()) == _without_rng(self.classic.to_data())

    # -- one game ------------------------------------------------------------------------------------

    def classic_of(self, action: Action) -> Action:
        if isinstance(action, SealedPlay):
            return Play(action.cards, action.jersey)
        if isinstance(action, SealedGiveBack):
            return GiveBack(self.card(action.slot))
        return action

    def choose(self, seat: int) -> Action:
        inst = self.seats[seat]
        moves = SEALED.legal_actions(inst.state, seat, inst.knowledge)
        classic = GAME.legal_actions(self.classic, seat)
        assert [self.classic_of(a) for a in moves] == classic
        choice = self.bot.choice(moves)
        if self.host.state.phase == "play":
            plays = [a for a in moves if isinstance(a, SealedPlay)]
            special = [
                a
                for a in plays
                if any(not is_hare(c) and VALUE[c] in (LEADER, WATER_CARRIER) for c in a.cards)
            ]
            roll = self.bot.random()
            if roll < 0.25 and Pass() in moves:
                choice = Pass()
            elif roll < 0.7 and special:
                choice = self.bot.choice(special)  # turtles and dromedaries: steals and draws
            elif plays:
                choice = self.bot.choice(plays)
        # A classic choice sealed by the seat's own instance names the same slots.
        assert SEALED.seal_action(
            inst.state, seat, classic[moves.index(choice)], inst.knowledge
        ) == (choice)
        return choice

    def step(self, action: Action) -> None:
        seat = self.host.state.current
        classic_events = self.classic_game.apply(self.classic, seat, self.classic_of(action))
        self.classic_events += [{"kind": e.kind, **e.public} for e in classic_events]
        self.classic_raw += classic_events
        for e in classic_events:
            self.counts[e.kind] += 1
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
        # The events name the reward's slot before it is shown; the reveals say which card.
        revealed = self.host.state.ledger.revealed
        named = [
            {
                k: revealed[v] if k in ("card", "reward") and v is not None and is_slot(v) else v
                for k, v in e.items()
            }
            for e in self.host.public_events
            if e["kind"] != "reveal"
        ]
        assert named == self.classic_events


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_sealed_instances_play_the_classic_game_and_the_host_needs_no_hidden_card(
    players: int,
) -> None:
    counts: Counter[str] = Counter()
    for seed in range(20):
        sim = Simulation(players, seed * 31 + players)
        sim.play()  # HiddenCardNeeded anywhere (the host's calls above all) fails the test
        counts += sim.counts
    # The sample went through every private move and every kind of chance.
    assert counts["leader_take"] > 0 and counts["draws"] == counts["leader_take"]
    assert counts["leader_give"] > 0
    assert counts["rounds"] > 6
    if players == 2:
        assert counts["water_draw"] > 0 and counts["reward"] > 0 and counts["shown"] > 0


def _ready(players: int = 3, seed: int = 1) -> Simulation:
    sim = Simulation(players, seed)
    sim.settle()
    return sim


def _play_until(sim: Simulation, phase: str, limit: int = 400) -> None:
    """Play on (the bot's choices) until the state is in `phase`, settled."""
    for _ in range(limit):
        if sim.host.state.phase == phase:
            return
        sim.step(sim.choose(sim.host.state.current))
        sim.settle()
    raise AssertionError(f"never reached the {phase} phase")


def test_a_seat_cannot_resolve_another_seats_hand_and_the_host_none() -> None:
    sim = _ready()
    state, mine = sim.seats[0].state, sim.seats[0].knowledge
    other = state.hands[1][0]
    with pytest.raises(HiddenCardNeeded) as caught:
        mine.resolve(other)
    assert caught.value.slot == other
    with pytest.raises(HiddenCardNeeded):
        SEALED.view(state, 1, mine)
    seat = state.current
    with pytest.raises(HiddenCardNeeded):
        SEALED.legal_actions(sim.host.state, seat, sim.host.knowledge)
    with pytest.raises(HiddenCardNeeded):
        SEALED.unsealed(sim.host.state, sim.host.knowledge)


def test_no_action_before_the_deal_is_sealed_opened_and_its_reward_shown() -> None:
    sim = Simulation(2, 3)
    state, knowledge = sim.host.state, sim.host.knowledge
    seat = state.current
    action = SealedPlay((state.hands[seat][0],), (sim.orders[0][0],), False)
    with pytest.raises(StepPending, match="round 0 must be sealed"):
        SEALED.apply(state, seat, action, knowledge)
    SEALED.sealed(state, 0)
    assert len(SEALED.to_open(state)) == 2 * 11
    with pytest.raises(StepPending, match="must be opened"):
        SEALED.apply(state, seat, action, knowledge)
    for s in (0, 1):
        SEALED.opened(state, s, [x for o, x in SEALED.to_open(state) if o == s])
    assert SEALED.to_show(state) == [state.reward]
    with pytest.raises(StepPending, match="must be shown"):
        SEALED.apply(state, seat, action, knowledge)
    assert SEALED.legal_actions(state, seat, knowledge) == []


def test_a_slot_is_opened_only_to_the_seat_it_was_asked_for() -> None:
    sim = Simulation(3, 4)
    state = sim.host.state
    SEALED.sealed(state, 0)
    theirs = state.hands[1][0]
    with pytest.raises(StepPending, match="was not to be opened"):
        SEALED.opened(state, 0, [theirs])
    aside = state.aside[0]
    with pytest.raises(IllegalAction, match="nobody's hand"):
        SEALED.learn(state, Knowledge(), aside, 0)


def test_the_reward_is_checked_when_shown() -> None:
    sim = Simulation(2, 5)
    audit = sim.audit
    (request,) = SEALED.seal_requests(audit.state)
    SEALED.sealed(audit.state, 0)
    for slot, card in zip(request.slots, sim.orders[0], strict=True):
        audit.knowledge.learn(slot, card)
    for s in (0, 1):
        SEALED.opened(audit.state, s, [x for o, x in SEALED.to_open(audit.state) if o == s])
    slot = audit.state.reward
    assert slot is not None and SEALED.to_show(audit.state) == [slot]
    lie = (audit.knowledge.resolve(slot) + 1) % len(ALL_CARDS)
    before = audit.state.to_data()
    with pytest.raises(ImpossibleCard, match="holds card"):
        SEALED.show(audit.state, slot, lie, audit.knowledge)
    with pytest.raises(IllegalAction, match="not the reward"):
        SEALED.show(audit.state, audit.state.hands[0][0], 0, audit.knowledge)
    assert audit.state.to_data() == before
    SEALED.show(audit.state, slot, audit.knowledge.resolve(slot), audit.knowledge)
    assert audit.state.reward == audit.knowledge.resolve(slot) and audit.state.ledger.ready()


def _first_play(sim: Simulation) -> SealedPlay:
    seat = sim.host.state.current
    inst = sim.seats[seat]
    plays = [
        a
        for a in SEALED.legal_actions(inst.state, seat, inst.knowledge)
        if isinstance(a, SealedPlay) and len(a.cards) == 1
    ]
    return plays[0]


def test_a_played_card_its_slot_cannot_hold_is_refused_and_changes_nothing() -> None:
    sim = _ready()
    play = _first_play(sim)
    seat = sim.host.state.current
    host = sim.host
    before = host.state.to_data()
    with pytest.raises(ImpossibleCard, match="was not sealed"):
        SEALED.apply(host.state, seat, SealedPlay(play.slots, (999,), False), host.knowledge)
    # Once played, a card is public: no other slot of the round can be played as it.
    sim.step(play)
    sim.settle()
    seat = host.state.current
    slot = next(x for x in host.state.hands[seat] if is_slot(x))
    before = host.state.to_data()
    with pytest.raises(ImpossibleCard, match="already seen"):
        SEALED.apply(host.state, seat, SealedPlay((slot,), play.cards, False), host.knowledge)
    assert host.state.to_data() == before
    # A card the host cannot rule out, but the audit (which knows the slot) can.
    lie = next(sim.card(x) for x in host.state.hands[(seat + 1) % 3] if is_slot(x))
    audit_before = sim.audit.state.to_data()
    with pytest.raises(ImpossibleCard, match="holds card"):
        SEALED.apply(sim.audit.state, seat, SealedPlay((slot,), (lie,), False), sim.audit.knowledge)
    assert sim.audit.state.to_data() == audit_before


def test_a_slot_not_in_the_actors_hand_cannot_be_played_or_given() -> None:
    sim = _ready()
    seat = sim.host.state.current
    theirs = sim.host.state.hands[(seat + 1) % 3][0]
    with pytest.raises(IllegalAction, match="not in your hand"):
        SEALED.apply(
            sim.host.state, seat, SealedPlay((theirs,), (sim.card(theirs),), False), Knowledge()
        )
    _play_until(sim, "give_back")
    thief = sim.host.state.current
    victims = sim.host.state.victim
    assert victims is not None
    victim_slot = sim.host.state.hands[victims][0]
    before = sim.host.state.to_data()
    with pytest.raises(IllegalAction, match="not in your hand"):
        SEALED.apply(sim.host.state, thief, SealedGiveBack(victim_slot), sim.host.knowledge)
    assert sim.host.state.to_data() == before


def test_an_illegal_play_leaves_its_slots_hidden() -> None:
    """The cards are put in their slots' places for the classic rule to judge; when the rule
    refuses the play, the slots are back and the cards unrevealed, for the host as for all."""
    sim = _ready()
    seat = sim.host.state.current
    inst = sim.seats[seat]
    hand = inst.state.hands[seat]
    legal = set(SEALED.legal_actions(inst.state, seat, inst.knowledge))
    pairs = [(x, inst.knowledge.resolve(x)) for x in hand]
    illegal = next(
        SealedPlay((a[0], b[0]), (a[1], b[1]), False)
        for a in pairs
        for b in pairs
        if a[1] < b[1] and SealedPlay((a[0], b[0]), (a[1], b[1]), False) not in legal
    )
    before = sim.host.state.to_data()
    with pytest.raises(IllegalAction):
        SEALED.apply(sim.host.state, seat, illegal, sim.host.knowledge)
    assert sim.host.state.to_data() == before
    assert not sim.host.knowledge.cards


def test_a_steal_waits_for_the_draw_and_takes_the_positions_it_picks() -> None:
    """A turtle fixes the victim; which cards go is left to the draw, not to the public seed:
    nothing else can happen first, and the cards taken are those `steal_positions` names."""
    for seed in range(40):
        sim = _ready(players=2, seed=seed)
        seat = sim.host.state.current
        inst = sim.seats[seat]
        turtles = [
            a
            for a in SEALED.legal_actions(inst.state, seat, inst.knowledge)
            if isinstance(a, SealedPlay)
            and len(a.cards) == 1
            and not is_hare(a.cards[0])
            and VALUE[a.cards[0]] == LEADER
        ]
        if turtles:
            break
    else:
        raise AssertionError("no seed gave the first player a lone turtle")
    state = sim.host.state
    victim = 1 - seat
    sim.step(turtles[0])
    assert SEALED.draw_requests(state) == 1 and state.victim == victim
    with pytest.raises(StepPending, match="random draw"):
        SEALED.apply(state, seat, ChooseVictim(victim), sim.host.knowledge)
    assert SEALED.legal_actions(inst.state, seat, inst.knowledge) == []
    hand = list(state.hands[victim])
    value = sim.classic_game.values[0]
    (position,) = steal_positions(value, len(hand), 1)
    sim.settle()
    assert state.phase == "give_back" and state.taken == [hand[position]]
    assert (seat, hand[position]) not in state.ledger.to_open  # opened to the thief in settle
    assert sim.seats[seat].knowledge.knows(hand[position])
    assert not sim.seats[victim].knowledge.knows(state.hands[seat][0])
    with pytest.raises(StepPending, match="no random draw"):
        SEALED.drawn(state, value, sim.host.knowledge)
    # Given straight back, the card goes home: its owner knew it, nobody is to be told.
    sim.step(SealedGiveBack(hand[position]))
    assert SEALED.to_open(state) == [] and state.hands[victim][-1] == hand[position]
    sim.settle()
    sim.check()
    assert steal_positions(value, 11, 3) == steal_positions(value, 11, 3)
    assert len({tuple(steal_positions(bytes([b]) * 32, 11, 1)) for b in range(64)}) > 5


def test_a_give_back_opens_the_card_to_the_victim_alone_unless_it_was_its_own() -> None:
    for seed in range(40):
        sim = _ready(players=3, seed=seed)
        try:
            _play_until(sim, "give_back")
        except AssertionError:
            continue
        state = sim.host.state
        thief, victim = state.current, state.victim
        assert victim is not None
        own = [x for x in state.hands[thief] if is_slot(x) and x not in state.taken]
        if own:
            break
    else:
        raise AssertionError("no give-back of the thief's own card")
    slot = own[0]
    sim.step(SealedGiveBack(slot))
    assert SEALED.to_open(state) == [(victim, slot)]
    others = [s for s in range(3) if s not in (thief, victim)]
    sim.settle()
    assert sim.seats[victim].knowledge.resolve(slot) == sim.truth[slot]
    assert all(not sim.seats[s].knowledge.knows(slot) for s in others)
    assert not sim.host.knowledge.knows(slot)


def test_sealed_actions_and_state_round_trip() -> None:
    sim = _ready(players=2, seed=2)
    play = _first_play(sim)
    assert SEALED_CODEC.decode(SEALED_CODEC.encode(play)) == play
    assert SEALED_CODEC.decode({"kind": "give_back", "slot": 70000}) == SealedGiveBack(70000)
    data = sim.host.state.to_data()
    assert SealedVelonimoState.from_data(data).to_data() == data
    assert sim.host.state.copy().to_data() == data


def test_a_reward_not_yet_turned_up_is_in_no_view_as_a_slot() -> None:
    """The duel's reward is a slot of the draw pile until it is shown to everyone, just after
    the hands are opened: a view made in between (a player's screen, a spectator's) must not
    name the slot as a card (the duel's screen stopped on it). The seat's view waits for it,
    as for a card of its hand not opened yet; the public view says no reward is up yet."""
    sim = Simulation(2, 5)
    sim.settle(show=False)
    state = sim.host.state
    assert SEALED.to_show(state) == [state.reward] and is_slot(state.reward)
    assert state.reward is not None and not slots_in(SEALED.public_view(state))
    for seat, inst in enumerate(sim.seats):
        inst.knowledge.resolve_all(inst.state.hands[seat])  # its hand is opened to it
        with pytest.raises(HiddenCardNeeded):
            SEALED.view(inst.state, seat, inst.knowledge)
    sim.settle()
    for seat, inst in enumerate(sim.seats):
        assert SEALED.view(inst.state, seat, inst.knowledge)["reward"] == state.reward
    assert SEALED.public_view(state)["reward"] == state.reward


def slots_in(value: Any, named: str = "") -> list[int]:
    """Every slot anywhere in `value` (a view, an event), but under a key `named` (one that
    lists slots as slots, such as a reveal's `slots`)."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value] if is_slot(value) else []
    if isinstance(value, list | tuple):
        return [s for v in value for s in slots_in(v, named)]
    if isinstance(value, dict):
        return [s for k, v in value.items() if k != named for s in slots_in(v, named)]
    return []


def _same_cards(value: Any) -> Any:
    return sorted(value) if isinstance(value, list) else value


@pytest.mark.parametrize("players", [2, 3])
def test_each_seat_reads_its_private_part_of_every_event_as_the_classic_game_gives_it(
    players: int,
) -> None:
    """A seat's program writes its log from its own engine's events read through what it knows
    (`seat_event`): the cards a turtle took from it or for it, the card given back to it or by
    it, its water carriers' draw, its hand. Each is told there as the classic game tells it, or
    the log says "a card" where the seat knows which (the order of a list aside: slots are not
    in card order)."""
    for seed in range(3):
        sim = Simulation(players, seed * 17 + players, difficulties=[1, 2])
        sim.play()
        classic = sim.classic_raw
        for seat, inst in enumerate(sim.seats):
            sealed = [e for e in inst.events if e.kind != "reveal"]
            assert [e.kind for e in sealed] == [e.kind for e in classic]
            for ours, theirs in zip(sealed, classic, strict=True):
                told = seat_event(ours, seat, inst.knowledge)
                for key, value in theirs.private.get(seat, {}).items():
                    assert _same_cards(told.get(key)) == _same_cards(value), (theirs.kind, key)


def test_nothing_is_revealed_for_scoring() -> None:
    sim = Simulation(3, 9, difficulties=[1])
    sim.play()
    assert SEALED.to_reveal(sim.host.state) == {}
    with pytest.raises(IllegalAction, match="nothing to reveal"):
        SEALED.reveal_hand(sim.host.state, 0, {}, sim.host.knowledge)
    # The set-aside cards and the last player's hand were never opened to anyone.
    state = sim.host.state
    assert all(not any(s.knowledge.knows(x) for s in sim.seats) for x in state.aside)
