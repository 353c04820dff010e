"""Auf Achse in sealed mode: one engine, three knowledges, against the classic game.

A simulated protocol stands in for the cryptography: a dict slot -> card plays the sealed deck,
opening a slot to a seat is telling that seat's instance, revealing is the owner telling
everyone, and a simultaneous choice travels as its commitment and later its opening. The classic
game, forced to the same deals and reshuffles, is the reference: every sealed instance keeps the
same public state, each seat sees exactly its classic view, the audit unseals to exactly the
classic state, and the host gets through every game knowing nothing but what was revealed.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import pytest

from netcards.action import Action
from netcards.errors import IllegalAction, NotYourTurn
from netcards.event import Event
from netcards.games.auf_achse import GAME
from netcards.games.auf_achse.actions import AddToRun, FreeRoad, PlayOdometer
from netcards.games.auf_achse.cards import KM
from netcards.games.auf_achse.sealed import (
    SEALED_CODEC,
    SEALED_EVENTS,
    ChooseSlots,
    CommitChoice,
    SealedAAState,
    SealedAufAchse,
    SealedOdometer,
)
from netcards.games.auf_achse.state import AAState
from netcards.rng import make_seed
from netcards.sealed_cards import (
    SLOT_BASE,
    HiddenCardNeeded,
    ImpossibleCard,
    Knowledge,
    StepPending,
    is_slot,
    seat_event,
)
from netcards.sealed_choices import ChoiceRefused, CommitmentMismatch, Opening

SEALED = SealedAufAchse()
_SEALED_ONLY = ("ledger", "choices", "stage_end", "rng")


@dataclass
class Instance:
    """One program's engine: the public state and what it knows."""

    state: SealedAAState
    knowledge: Knowledge = field(default_factory=Knowledge)
    public_events: list[dict[str, Any]] = field(default_factory=list)

    def record(self, events: list[Event]) -> None:
        self.public_events += [{"kind": e.kind, **e.public} for e in events]


def _pile_before_deal(hands: list[list[int]], draw: list[int]) -> list[int]:
    """The shuffled pile a classic deal dealt `hands` from (one card at a time, from its top)."""
    dealt = [hand[i] for i in range(len(hands[0])) for hand in hands]
    return list(draw) + dealt[::-1]


class Simulation:
    """A sealed table run in memory beside the classic game it must equal."""

    def __init__(self, players: int, seed: int) -> None:
        config = GAME.make_config(players)
        public_seed = make_seed(f"public {seed}")
        self.host = Instance(SEALED.setup(config, public_seed))
        self.seats = [Instance(SEALED.setup(config, public_seed)) for _ in range(players)]
        self.audit = Instance(SEALED.setup(config, public_seed))
        self.players = players
        first = self.host.state.first_player
        classic_config = GAME.make_config(players, {"first_player": first})
        self.classic: AAState = GAME.setup(classic_config, make_seed(f"classic {seed}"))
        # The classic game's shuffles, in order, are the secret orders the rounds seal.
        self.piles: list[list[int]] = [_pile_before_deal(self.classic.hands, self.classic.draw)]
        self.truth: dict[int, int] = {}
        self.classic_events: list[dict[str, Any]] = []
        self.reshuffles = 0
        self.free_road_commits = 0
        self.level_crossings = 0
        self.bot = random.Random(seed * 7 + players)

    @property
    def everyone(self) -> list[Instance]:
        return [self.host, *self.seats, self.audit]

    # -- the protocol, simulated -------------------------------------------------------------------

    def settle(self) -> None:
        """What the protocol does between actions, until nothing is left: seal, open, reveal,
        open the committed choices."""
        while self._settle_once():
            pass
        assert not self.piles

    def _settle_once(self) -> bool:
        done = False
        requests = SEALED.seal_requests(self.host.state)
        for inst in self.everyone:
            assert SEALED.seal_requests(inst.state) == requests
        for request in requests:
            order = self.piles.pop(0)
            assert sorted(request.cards) == sorted(order)
            if request.cards != tuple(range(109)):  # not a deal: a reshuffle
                self.reshuffles += 1
            self.truth.update(zip(request.slots, order, strict=True))
            for slot in request.slots:
                self.audit.knowledge.learn(slot, self.truth[slot])
            for inst in self.everyone:
                SEALED.sealed(inst.state, request.index)
            done = True
        by_seat: dict[int, list[int]] = defaultdict(list)
        for seat, slot in SEALED.to_open(self.host.state):
            seat_inst = self.seats[seat]
            SEALED.learn(seat_inst.state, seat_inst.knowledge, slot, self.truth[slot])
            by_seat[seat].append(slot)
        for seat, slots in by_seat.items():
            for inst in self.everyone:
                SEALED.opened(inst.state, seat, slots)
            done = True
        for seat, slots in SEALED.to_reveal(self.host.state).items():
            # The owner reveals what it knows; the protocol's opening would show the same.
            owner = self.seats[seat]
            cards = {slot: owner.knowledge.resolve(slot) for slot in slots}
            assert all(self.truth[s] == c for s, c in cards.items())
            for inst in self.everyone:
                inst.record(SEALED.reveal_hand(inst.state, seat, cards, inst.knowledge))
            done = True
        for seat in SEALED.choice_openings(self.host.state):
            owner = self.seats[seat]
            opening = SEALED.opening(owner.state, seat, owner.knowledge)
            for inst in self.everyone:
                inst.record(
                    SEALED.reveal_choice(
                        inst.state, seat, opening.items, opening.nonce, inst.knowledge
                    )
                )
            done = True
        return done

    def _note_classic(self, events: list[Event]) -> None:
        self.classic_events += [{"kind": e.kind, **e.public} for e in events]
        for e in events:
            if e.kind == "stage_start":
                self.piles.append(
                    _pile_before_deal(e.secret["hands"], e.secret["draw_pile_top_last"])
                )
            elif e.kind == "reshuffle":
                self.piles.append(list(e.secret["draw_pile_top_last"]))
            elif e.kind == "reveal" and e.public["effect"] == "level_crossing":
                self.level_crossings += 1

    # -- the checks after every step ----------------------------------------------------------------

    def check(self) -> None:
        state = self.host.state
        data = state.to_data()
        for inst in self.everyone:
            assert inst.state.to_data() == data
        # Hidden places hold slots only: nobody, the host included, can read them off the state.
        assert all(is_slot(x) for x in state.draw)
        assert all(is_slot(x) for hand in state.hands for x in hand)
        if not state.over:  # the last stage's runs stay revealed
            assert all(is_slot(x) for run in state.runs for x in run)
        assert all(is_slot(x) for down in state.odometer_down for x in down)
        assert not any(is_slot(x) for x in state.discard + state.odometer_km)
        # The host knows exactly what was revealed to everyone, and nothing else.
        assert self.host.knowledge.cards == state.ledger.revealed
        assert not self.host.knowledge.openings
        assert all(self.truth[s] == c for s, c in state.ledger.revealed.items())
        assert SEALED.public_view(state) == GAME.public_view(self.classic)
        assert SEALED.to_act(state) == GAME.to_act(self.classic)
        for seat, inst in enumerate(self.seats):
            assert SEALED.view(inst.state, seat, inst.knowledge) == GAME.view(self.classic, seat)
            for other in range(self.players):
                if other != seat:
                    places = state.hands[other] + state.runs[other] + state.odometer_down[other]
                    assert not any(inst.knowledge.knows(x) for x in places)
            assert all(key[1] == seat for key in inst.knowledge.openings)
        unsealed = SEALED.unsealed(self.audit.state, self.audit.knowledge)
        expected = {k: v for k, v in self.classic.to_data().items() if k not in _SEALED_ONLY}
        assert {k: v for k, v in unsealed.to_data().items() if k not in _SEALED_ONLY} == expected

    # -- one game ------------------------------------------------------------------------------------

    def _classic_of(self, seat: int, action: Action) -> Action:
        knowledge = self.seats[seat].knowledge
        if isinstance(action, SealedOdometer):
            return PlayOdometer(knowledge.resolve(action.slot))
        assert isinstance(action, ChooseSlots)
        cards = tuple(knowledge.resolve_all(action.slots))
        return AddToRun(cards[0]) if self.classic.phase == "run" else FreeRoad(cards)

    def choose(self, seat: int) -> Action:
        inst = self.seats[seat]
        moves = SEALED.legal_actions(inst.state, seat, inst.knowledge)
        classic = [self._classic_of(seat, a) for a in moves]
        assert classic == GAME.legal_actions(self.classic, seat)
        if isinstance(moves[0], SealedOdometer) and self.bot.random() < 0.7:
            # Feed the odometer slowly (rests and actions, then short km): stages last long
            # enough for the draw pile to run out and be reshuffled.
            deck = self.classic.deck
            return min(
                moves,
                key=lambda a: (
                    deck.kind[self._card(seat, a)] == KM,
                    deck.value[self._card(seat, a)],
                ),
            )
        return self.bot.choice(moves)

    def _card(self, seat: int, action: Action) -> int:
        assert isinstance(action, SealedOdometer)
        return self.seats[seat].knowledge.resolve(action.slot)

    def step(self, seat: int, action: Action) -> None:
        classic_events = GAME.apply(self.classic, seat, self._classic_of(seat, action))
        if isinstance(action, ChooseSlots):
            self.assert_no_choice_is_known_before(seat)
            if self.host.state.phase == "free_road":
                self.free_road_commits += 1
            inst = self.seats[seat]
            nonce = self.bot.randbytes(32)
            action = SEALED.seal_action(inst.state, seat, action, inst.knowledge, nonce=nonce)
            assert isinstance(action, CommitChoice)
            # The audit will know every seat's secrets: it gets the opening now.
            self.audit.knowledge.openings.update(inst.knowledge.openings)
        self._note_classic(classic_events)
        for inst in self.everyone:
            inst.record(SEALED.apply(inst.state, seat, action, inst.knowledge))

    def assert_no_choice_is_known_before(self, seat: int) -> None:
        """At the moment `seat` commits: no choice of this step is opened, nothing another seat
        chose is in the public state, and `seat`'s program holds no other seat's opening."""
        state = self.seats[seat].state
        step = state.choices.current
        assert step is not None and seat in step.to_commit()
        assert not step.opened
        assert not SEALED.choice_openings(state)
        assert all(not p for p in state.pending)
        assert all(key[1] == seat for key in self.seats[seat].knowledge.openings)
        opened_now = [e for e in self.host.public_events if e["kind"] == "choice_opened"]
        assert all(e["step"] != step.index for e in opened_now)

    def play(self) -> None:
        self.settle()
        self.check()
        while not self.host.state.over:
            seats = sorted(SEALED.to_act(self.host.state))
            assert seats
            seat = self.bot.choice(seats)  # simultaneous choices arrive in any order
            self.step(seat, self.choose(seat))
            self.settle()
            self.check()
        assert SEALED.outcome(self.host.state) == GAME.outcome(self.classic) is not None
        for inst in self.everyone:
            assert inst.public_events == self.host.public_events
        classic_kinds = [e for e in self.host.public_events if e["kind"] not in SEALED_EVENTS]
        assert classic_kinds == self.classic_events


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_sealed_instances_play_the_classic_game_and_the_host_needs_no_hidden_card(
    players: int,
) -> None:
    reshuffles = free_roads = level_crossings = 0
    for seed in range(6):
        sim = Simulation(players, seed * 31 + players)
        sim.play()  # HiddenCardNeeded anywhere (the host's calls above all) fails the test
        reshuffles += sim.reshuffles
        free_roads += sim.free_road_commits
        level_crossings += sim.level_crossings
    assert free_roads > 0, "no Free road was chosen: the sample never went through one"
    assert level_crossings > 0, "no Level crossing was turned over in the sample"
    if players >= 3:
        assert reshuffles > 0, "no reshuffle was sealed: the games never went through one"


def _ready(players: int = 3, seed: int = 1) -> Simulation:
    sim = Simulation(players, seed)
    sim.settle()
    sim.check()
    return sim


def _commit_all_but_open_none(sim: Simulation) -> dict[int, Opening]:
    """Every asked seat commits its first legal run card; no choice is opened yet."""
    openings = {}
    for seat in sorted(SEALED.to_act(sim.host.state)):
        sim.step(seat, sim.choose(seat))
        step = sim.host.state.choices.current
        assert step is not None
        openings[seat] = sim.seats[seat].knowledge.openings[(step.index, seat)]
    assert SEALED.choice_openings(sim.host.state) == sorted(openings)
    return openings


def test_a_seats_own_program_tells_it_what_it_chose_and_no_other_program_can() -> None:
    """The classic game tells a seat the cards of its own simultaneous choice ("You chose 20 km
    for your run"); sealed, only the chooser's program knows them (its opening, kept since it
    committed), so only its engine's event names them, read through what it knows. Without
    them its log said "You chose a run card", in French "Vous a choisi une carte de course"."""
    sim = _ready()
    seat = min(SEALED.to_act(sim.host.state))
    action = sim.choose(seat)
    assert isinstance(action, ChooseSlots)
    chosen = sim.seats[seat].knowledge.resolve_all(action.slots)
    inst = sim.seats[seat]
    commit = SEALED.seal_action(inst.state, seat, action, inst.knowledge, nonce=bytes(32))
    told = {}
    for who, other in [(None, sim.host), *enumerate(sim.seats)]:
        (event,) = SEALED.apply(other.state, seat, commit, other.knowledge)
        assert event.kind == "run_chosen"
        reader = seat if who is None else who
        told[who] = seat_event(event, reader, other.knowledge)
    assert told[seat]["cards"] == chosen
    assert all("cards" not in e for who, e in told.items() if who != seat)
    assert all(e["count"] == 1 and e["seat"] == seat for e in told.values())


def test_an_opening_that_does_not_match_its_commitment_is_refused_naming_the_seat() -> None:
    sim = _ready()
    openings = _commit_all_but_open_none(sim)
    state, host = sim.host.state, sim.host.knowledge
    seat = 1
    mine = openings[seat]
    other_slot = next(x for x in state.hands[seat] if x not in mine.items)
    before = state.to_data()
    wrong = [
        ((other_slot,), mine.nonce),  # another card than committed
        (mine.items, bytes(32)),  # the right card with another nonce
        (openings[2].items, openings[2].nonce),  # seat 2's opening, sent as seat 1's
    ]
    for items, nonce in wrong:
        with pytest.raises(CommitmentMismatch, match="seat 2: its opening does not match") as e:
            SEALED.reveal_choice(state, seat, items, nonce, host)
        assert e.value.seat == seat
    assert state.to_data() == before
    SEALED.reveal_choice(state, seat, mine.items, mine.nonce, host)  # the true one goes through
    assert state.choices.current is not None and seat in state.choices.current.opened


def test_a_copied_commitment_cannot_be_opened_by_the_copier() -> None:
    """The seat is inside the hash: a seat that sends another's commitment as its own cannot
    open it even once the other's opening is public."""
    sim = _ready(players=2)
    state = sim.host.state
    first, second = sorted(SEALED.to_act(state))
    sim.step(first, sim.choose(first))
    step = state.choices.current
    assert step is not None
    copied = CommitChoice(tuple(step.commitments[first]))
    for inst in sim.everyone:
        inst.record(SEALED.apply(inst.state, second, copied, inst.knowledge))
    opening = sim.seats[first].knowledge.openings[(step.index, first)]
    SEALED.reveal_choice(state, first, opening.items, opening.nonce, sim.host.knowledge)
    with pytest.raises(CommitmentMismatch) as e:
        SEALED.reveal_choice(state, second, opening.items, opening.nonce, sim.host.knowledge)
    assert e.value.seat == second


def test_no_choice_opens_before_every_asked_seat_has_committed() -> None:
    sim = _ready(players=3)
    state = sim.host.state
    seat = min(SEALED.to_act(state))
    sim.step(seat, sim.choose(seat))
    step = state.choices.current
    assert step is not None
    opening = sim.seats[seat].knowledge.openings[(step.index, seat)]
    assert SEALED.choice_openings(state) == []
    with pytest.raises(StepPending, match=r"before seat \d has committed"):
        SEALED.reveal_choice(state, seat, opening.items, opening.nonce, sim.host.knowledge)
    with pytest.raises(NotYourTurn, match="already chosen"):
        SEALED.apply(state, seat, CommitChoice(tuple(bytes(32))), sim.host.knowledge)


def test_a_committed_choice_of_a_slot_not_in_the_hand_is_refused_naming_the_seat() -> None:
    """A commitment hides its slots, so the host checks them when it opens: a seat that
    committed to a slot of another hand opens an illegal choice and is named."""
    sim = _ready()
    state = sim.host.state
    cheat = 0
    theirs = state.hands[1][0]
    openings: dict[int, Opening] = {}
    for seat in sorted(SEALED.to_act(state)):
        inst = sim.seats[seat]
        move = ChooseSlots((theirs,)) if seat == cheat else sim.choose(seat)
        action = SEALED.seal_action(
            inst.state, seat, move, inst.knowledge, nonce=bytes([seat]) * 32
        )
        for each in sim.everyone:
            SEALED.apply(each.state, seat, action, each.knowledge)
        step = state.choices.current
        assert step is not None
        openings[seat] = inst.knowledge.openings[(step.index, seat)]
    before = state.to_data()
    with pytest.raises(ChoiceRefused, match="seat 1: its choice is not legal") as e:
        SEALED.reveal_choice(state, cheat, (theirs,), openings[cheat].nonce, sim.host.knowledge)
    assert e.value.seat == cheat
    assert state.to_data() == before


def test_an_odometer_card_must_be_a_slot_of_the_actors_hand() -> None:
    sim = _ready()
    # Run the run step through, to the first odometer turn.
    for seat in sorted(SEALED.to_act(sim.host.state)):
        sim.step(seat, sim.choose(seat))
    sim.settle()
    state = sim.host.state
    assert state.phase == "odometer"
    seat = state.current
    before = state.to_data()
    for slot in (state.hands[(seat + 1) % 3][0], state.runs[seat][0], 3):
        with pytest.raises(IllegalAction, match="not in your hand"):
            SEALED.apply(state, seat, SealedOdometer(slot), sim.host.knowledge)
    with pytest.raises(NotYourTurn):
        SEALED.apply(
            state, (seat + 1) % 3, SealedOdometer(state.hands[(seat + 1) % 3][0]), Knowledge()
        )
    assert state.to_data() == before


def _to_first_odometer_reveal(sim: Simulation) -> None:
    """Play until the rules wait for the first odometer card to be revealed."""
    while not SEALED.to_reveal(sim.host.state):
        seat = min(SEALED.to_act(sim.host.state))
        sim.step(seat, sim.choose(seat))
        if not SEALED.to_reveal(sim.host.state):
            sim.settle()


def test_a_revealed_card_its_slot_cannot_hold_is_refused() -> None:
    sim = _ready()
    _to_first_odometer_reveal(sim)
    state = sim.host.state
    ((seat, [slot]),) = SEALED.to_reveal(state).items()
    truth = sim.truth[slot]
    before = state.to_data()
    with pytest.raises(ImpossibleCard, match="was not sealed"):
        SEALED.reveal_hand(state, seat, {slot: 5000}, sim.host.knowledge)
    # Another card of the deal, still hidden from the host: only who knows the slot can tell.
    lie = next(c for s, c in sim.truth.items() if c != truth and s in state.hands[seat])
    with pytest.raises(ImpossibleCard, match="holds card"):
        SEALED.reveal_hand(sim.audit.state, seat, {slot: lie}, sim.audit.knowledge)
    with pytest.raises(IllegalAction, match="not one seat"):
        SEALED.reveal_hand(state, seat, {state.hands[seat][0]: truth}, sim.host.knowledge)
    assert state.to_data() == before == sim.audit.state.to_data()
    sim.settle()  # the true reveal goes through everywhere
    sim.check()


def test_no_action_before_the_deal_is_sealed_and_opened_nor_before_a_reveal() -> None:
    config = GAME.make_config(3)
    state = SEALED.setup(config, b"x" * 32)
    commit = CommitChoice(tuple(bytes(32)))
    with pytest.raises(StepPending, match="round 0 must be sealed"):
        SEALED.apply(state, 0, commit, Knowledge())
    SEALED.sealed(state, 0)
    with pytest.raises(StepPending, match="must be opened"):
        SEALED.apply(state, 0, commit, Knowledge())
    assert len(SEALED.to_open(state)) == 3 * 10
    assert SEALED.legal_actions(state, 0, Knowledge()) == []
    sim = _ready()
    _to_first_odometer_reveal(sim)
    state = sim.host.state
    seat = state.current if state.current >= 0 else 0
    with pytest.raises(StepPending, match="must reveal"):
        SEALED.apply(state, seat, SealedOdometer(state.hands[seat][0]), sim.host.knowledge)


def test_the_host_cannot_read_a_hidden_card() -> None:
    sim = _ready()
    state = sim.host.state
    slot = state.hands[0][0]
    with pytest.raises(HiddenCardNeeded) as caught:
        SEALED.view(state, 0, sim.host.knowledge)
    assert caught.value.slot in state.hands[0]
    with pytest.raises(HiddenCardNeeded):
        sim.seats[1].knowledge.resolve(slot)
    with pytest.raises(HiddenCardNeeded):
        state.deck.kind[slot]
    assert SEALED.outcome(state) is None
    _commit_all_but_open_none(sim)
    sim.settle()
    assert all(state.runs)
    with pytest.raises(HiddenCardNeeded):
        SealedAufAchse.classic.view(state, 0)  # the classic run score reads the run's cards


def test_sealed_actions_and_state_round_trip() -> None:
    sim = _ready()
    _commit_all_but_open_none(sim)
    commit = CommitChoice(tuple(range(32)))
    assert SEALED_CODEC.decode(SEALED_CODEC.encode(commit)) == commit
    odometer = SealedOdometer(SLOT_BASE + 3)
    assert SEALED_CODEC.decode(SEALED_CODEC.encode(odometer)) == odometer
    data = sim.host.state.to_data()
    assert SealedAAState.from_data(data).to_data() == data
    assert sim.host.state.copy().to_data() == data
