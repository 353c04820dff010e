"""A whole sealed game of Via Gladiola as messages: the host (its engine, the relay, its bots'
seats) and each remote seat (its engine beside its seat driver), every message through the
sealed encoder, msgpack and the strict decoder. An honest game ends with every program saying
`deal verified`; a seat that claims a card its slot does not hold is refused and named; a host
that alters a step it relays is named by the seats."""

from __future__ import annotations

import dataclasses
import random
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from netcards.action import Action
from netcards.errors import NotYourTurn
from netcards.games.via_gladiola import GAME
from netcards.games.via_gladiola.actions import Rest
from netcards.games.via_gladiola.sealed import SealedViaGladiola, SealedWalk
from netcards.sealed_cards import SLOT_BASE, StepPending
from protocol.sealed.errors import Caught
from protocol.sealed.messages import (
    SealAct,
    SealActed,
    SealMessage,
    SealOpen,
    SealReveal,
    SealRound,
    SealStep,
    decode,
    encode,
)
from protocol.sealed.round_driver import Outgoing
from protocol.sealed_play.host import SealedHost
from protocol.sealed_play.progress import HOST, where
from protocol.sealed_play.seat import SealedSeat
from protocol.wire import pack, unpack
from tests.protocol.sealed_table import stream

ENGINE = SealedViaGladiola()
SEED = b"s" * 32


def wire(msg: SealMessage) -> SealMessage:
    return decode(unpack(pack(encode(msg))))


def bot(rng: random.Random) -> Callable[[int, dict[str, Any], list[Action]], Action]:
    def choose(seat: int, view: dict[str, Any], legal: list[Action]) -> Action:
        return rng.choice(legal)

    return choose


Tamper = Callable[[int, SealMessage], SealMessage]
Replies = Callable[[int, list[SealMessage]], list[SealMessage]]


class Table:
    def __init__(
        self,
        players: int,
        humans: Sequence[int],
        seed: int = 1,
        engine: Any = ENGINE,
        config: Any = None,
    ) -> None:
        config = config or GAME.make_config(players, {})
        rng = random.Random(seed)
        bots = {s: bot(rng) for s in range(players) if s not in humans}
        self.host = SealedHost(
            engine, config, SEED, b"table", b"game 1", bots, stream(b"host %d" % seed)
        )
        self.seats = {
            s: SealedSeat(engine, config, SEED, s, stream(b"seat %d %d" % (s, seed)))
            for s in humans
        }
        self.rng = rng
        self._links()

    def _links(self) -> None:
        self.tamper: Tamper = lambda to, msg: msg
        self.replies: Replies = lambda seat, replies: replies
        """What a seat's program sends for what it would send (a modified program's)."""
        self.to_host: list[tuple[int, SealMessage]] = []
        """Every message the host received, as it received it."""
        self.host_acted: list[SealActed] = []
        """Every move the host said it applied, as it said it."""
        self.queue: deque[Outgoing] = deque()
        """What the host sent that its seat has not received yet, in the order sent: each
        link delivers in order, so a message injected (`send`) goes behind it."""
        self.pause: Callable[[int, SealMessage], bool] | None = None
        """Stop delivering before the first queued message this says yes to (once)."""
        self.paused = False

    def send(self, seat: int, msgs: Sequence[SealMessage]) -> None:
        queue: deque[Outgoing] = deque()
        for msg in msgs:
            self.to_host.append((seat, wire(msg)))
            queue.extend(self.host.receive(seat, wire(msg)))
        self.run(queue)

    def run(self, queue: deque[Outgoing]) -> None:
        """Deliver `queue` after what is queued already, until nothing is left or `pause`
        says stop (`paused`: the rest stays queued, and the next `run` or `send` goes on)."""
        self.queue.extend(queue)
        self.paused = False
        try:
            while self.queue:
                to, msg = self.queue[0]
                if self.pause is not None and self.pause(to, msg):
                    self.pause, self.paused = None, True
                    return
                self.queue.popleft()
                self._deliver(to, msg)
        except BaseException:
            self.queue.clear()  # a cheat named: the table stops there
            raise

    def _deliver(self, to: int, msg: SealMessage) -> None:
        if isinstance(msg, SealActed) and (not self.host_acted or self.host_acted[-1] != msg):
            self.host_acted.append(msg)
        for reply in self.replies(to, self.seats[to].receive(wire(self.tamper(to, msg)))):
            self.to_host.append((to, wire(reply)))
            self.queue.extend(self.host.receive(to, wire(reply)))

    def start(self) -> None:
        for s, seat in self.seats.items():
            self.send(s, [seat.hello()])
        assert self.host.ready_to_start()
        self.run(deque(self.host.start()))

    def play(self, choose: Callable[[int, list[Action]], Action] | None = None) -> None:
        while self.host.outcome is None:
            movers = [s for s, seat in self.seats.items() if seat.legal_actions()]
            assert movers, "nobody can move and the game is not over"
            s = movers[0]
            legal = self.seats[s].legal_actions()
            action = choose(s, legal) if choose else self.rng.choice(legal)
            self.send(s, self.seats[s].act(action))


@pytest.mark.parametrize(("players", "humans"), [(2, [0]), (4, [0, 2]), (3, [0, 1, 2])])
def test_an_honest_sealed_game_is_played_and_verified_everywhere(
    players: int, humans: list[int]
) -> None:
    table = Table(players, humans)
    table.start()
    table.play()
    host_state = table.host.state.to_data()
    for seat in table.seats.values():
        assert seat.state.to_data() == host_state
        assert seat.verdict == "deal verified"
    assert table.host.verdict == "deal verified"
    # Every seat published the digest of exactly the steps the relay relayed: none came later.
    assert set(table.host.digests.values()) == {table.host.relay.transcript.digest}
    assert len(table.host.relay.rounds) >= 1
    # The host's engine knew the cards revealed to everyone and its bots' hands, nothing else.
    ledger = table.host.state.ledger
    bots_slots = {
        ledger.rounds[n].first + p
        for driver in table.host.bots.values()
        for n, kept in driver.rounds.items()
        for p in kept.hand
    }
    assert set(table.host.mirror.knowledge.cards) <= set(ledger.revealed) | bots_slots


def test_a_move_while_a_step_is_pending_is_refused() -> None:
    table = Table(2, [0, 1])
    for s, seat in table.seats.items():
        table.send(s, [seat.hello()])
    table.host.start()  # round 0 begun, its steps not delivered
    with pytest.raises(StepPending):
        table.host.receive(
            table.host.state.current, wire(SealAct({"kind": "rest"}, 1, (), bytes(64)))
        )


def test_a_seat_that_claims_a_card_its_slot_does_not_hold_is_refused_and_named() -> None:
    for seed in range(20):
        table = Table(2, [0, 1], seed)
        table.start()
        s = table.host.state.current
        walks = [a for a in table.seats[s].legal_actions() if isinstance(a, SealedWalk)]
        hand = table.seats[s].view()["hand"]
        if walks:
            break
    walk = walks[0]
    other = next(c for c in hand if c != walk.card)
    seat = table.seats[s]
    (claimed,) = seat.act(SealedWalk(walk.slot, other))
    with pytest.raises(Caught) as caught:
        table.send(s, [claimed])
    assert (caught.value.seat, caught.value.kind) == (s, "false_claim")
    assert table.host.actions == []
    # The refused move showed its card to the host alone, and the host put its rounds back:
    # the slot shows nothing, its scalar is not on record.
    number, p = where(table.host.state, walk.slot)
    assert p not in table.host.relay.revealed(number)
    assert p not in table.host.relay.rounds[number].round.scalars.get(s, {})


def test_a_host_that_alters_a_relayed_step_is_named_by_the_seats() -> None:
    table = Table(2, [0])

    def alter(to: int, msg: SealMessage) -> SealMessage:
        if isinstance(msg, SealStep) and msg.kind == "rekey" and msg.seat == 1:
            elements = list(msg.body["elements"])
            elements[0], elements[1] = elements[1], elements[0]
            return dataclasses.replace(msg, body={**msg.body, "elements": elements})
        return msg

    table.tamper = alter
    with pytest.raises(Caught) as caught:
        table.start()
    assert (caught.value.seat, caught.value.kind) == (HOST, "forged")


def test_games_that_reshuffle_are_verified_too() -> None:
    """Resting often drains the pile: days get reshuffled, so rounds after round 0 are sealed
    and round-0 cards are played after them."""
    reshuffled = 0
    for seed in range(6):
        table = Table(2, [0, 1], seed)
        table.start()

        def lazy(s: int, legal: list[Action], rng: random.Random = table.rng) -> Action:
            rests = [a for a in legal if isinstance(a, Rest)]
            return rests[0] if rests and rng.random() < 0.5 else rng.choice(legal)

        table.play(lazy)
        reshuffled += len(table.host.relay.rounds) - 1
        assert all(seat.verdict == "deal verified" for seat in table.seats.values())
    assert reshuffled > 0


def test_a_seat_that_publishes_secrets_it_did_not_play_with_is_named_by_every_audit() -> None:
    table = Table(3, [0, 1, 2])
    table.start()
    kept = table.seats[1].driver.rounds[0]
    kept.secrets = dataclasses.replace(kept.secrets, mask=kept.secrets.mask + 1)
    table.play()
    for seat in table.seats.values():
        assert seat.finding is not None and seat.finding.seat == 1
        assert seat.verdict is not None and seat.verdict.startswith("deal NOT verified: seat 2:")
    assert table.host.finding is not None and table.host.finding.seat == 1


def _first_move(table: Table) -> tuple[int, list[SealMessage]]:
    """The first human seat to move, and what it sends for a move of its choice."""
    s = next(s for s, seat in table.seats.items() if seat.legal_actions())
    return s, table.seats[s].act(table.rng.choice(table.seats[s].legal_actions()))


def test_a_host_that_plays_a_turn_for_a_player_is_named_by_the_seats() -> None:
    """The host applies a rest for seat 0, which never sent it: the signature is not seat 0's."""
    table = Table(2, [0, 1])
    table.start()
    s = table.host.state.current
    forged = SealActed(1, s, {"kind": "rest"}, 1, (), bytes(64))
    for seat in table.seats.values():
        with pytest.raises(Caught) as caught:
            seat.receive(wire(forged))
        assert (caught.value.seat, caught.value.kind) == (HOST, "forged")
        assert seat.actions == []


def test_a_host_that_changes_a_move_on_its_way_is_named_by_the_seats() -> None:
    table = Table(2, [0, 1])
    table.start()

    def change(to: int, msg: SealMessage) -> SealMessage:
        if isinstance(msg, SealActed) and msg.action.get("kind") != "rest":
            return dataclasses.replace(msg, action={"kind": "rest"})
        return msg

    s, msgs = _first_move(table)
    while msgs[-1].action.get("kind") == "rest":  # type: ignore[attr-defined]
        table.send(s, msgs)
        s, msgs = _first_move(table)
    table.tamper = change
    with pytest.raises(Caught) as caught:
        table.send(s, msgs)
    assert (caught.value.seat, caught.value.kind) == (HOST, "forged")


def test_a_host_that_applies_a_move_twice_is_named_by_the_seats() -> None:
    table = Table(2, [0, 1])
    table.start()
    s, msgs = _first_move(table)
    table.send(s, msgs)
    acted = dataclasses.replace(table.host_acted[-1], seq=2)
    other = next(x for x in table.seats if x != s)
    with pytest.raises(Caught) as caught:
        table.seats[other].receive(wire(acted))
    assert (caught.value.seat, caught.value.kind) == (HOST, "replayed")


def test_a_move_signed_by_no_one_is_refused_naming_its_link_and_a_stale_one_only_refused() -> None:
    table = Table(2, [0, 1])
    table.start()
    s, msgs = _first_move(table)
    *reveals, act = msgs
    assert isinstance(act, SealAct)
    unsigned = dataclasses.replace(act, signature=bytes(64))
    table.send(s, reveals)
    with pytest.raises(Caught) as caught:
        table.send(s, [unsigned])
    assert (caught.value.seat, caught.value.kind) == (s, "forged")
    assert table.host.actions == []
    table.send(s, [act])
    assert len(table.host.actions) >= 1
    taken = len(table.host.actions)
    with pytest.raises(NotYourTurn, match="its next move is move 2"):
        table.send(s, [act])  # the same move again: its number is spent
    assert len(table.host.actions) == taken


def _hand_positions(table: Table, seat: int) -> tuple[int, list[int]]:
    """The round and positions of the cards `seat` holds, as its own program knows them."""
    state = table.seats[seat].state
    held = [where(state, x) for x in state.hands[seat] if x >= SLOT_BASE]
    number = held[0][0]
    return number, [p for n, p in held if n == number]


def test_a_host_that_asks_a_seat_to_reveal_its_hand_unasked_is_named_and_told_nothing() -> None:
    """A modified host sends `seal_reveal` of a player's hand in the middle of the game: an
    honest seat answers only what its own engine asks to show, so it names the host and sends
    no scalar."""
    table = Table(2, [0])
    table.start()
    number, positions = _hand_positions(table, 0)
    with pytest.raises(Caught) as caught:
        table.seats[0].receive(wire(SealReveal(number, tuple(positions))))
    assert (caught.value.seat, caught.value.kind) == (HOST, "unrequested")


def test_a_host_that_opens_a_players_card_to_its_own_bot_is_named_and_told_nothing() -> None:
    """A modified host sends `seal_open` of a player's card to the seat of its own bot (whose
    key it holds): the player's program would pass its secret scalar on. It opens only what
    its own engine says is dealt or drawn to that seat, so it names the host."""
    table = Table(2, [0])
    table.start()
    number, positions = _hand_positions(table, 0)
    with pytest.raises(Caught) as caught:
        table.seats[0].receive(wire(SealOpen(number, 1, (positions[0],))))
    assert (caught.value.seat, caught.value.kind) == (HOST, "unrequested")


def test_a_host_that_opens_an_undealt_card_to_its_own_bot_is_named() -> None:
    """The draw pile's next card opened early to the host's bot: the host would know what a
    player is about to draw. Every seat refuses an opening its engine did not ask for."""
    table = Table(2, [0])
    table.start()
    state = table.seats[0].state
    dealt = {where(state, x) for hand in state.hands for x in hand if x >= SLOT_BASE}
    number = 0
    size = table.host.relay.rounds[number].round.size
    undealt = next(p for p in range(size) if (number, p) not in dealt)
    with pytest.raises(Caught) as caught:
        table.seats[0].receive(wire(SealOpen(number, 1, (undealt,))))
    assert (caught.value.seat, caught.value.kind) == (HOST, "unrequested")


def test_a_host_that_seals_other_cards_than_the_engine_asks_is_named() -> None:
    """A round whose cards are not those the engine asks to seal (one left out, so that the
    host could deal it where it likes later): refused at once, naming the host."""
    table = Table(2, [0])
    seat = table.seats[0]
    table.send(0, [seat.hello()])
    out = table.host.start()
    setup = next(msg for to, msg in out if to == 0 and isinstance(msg, SealRound))
    short = dataclasses.replace(setup, cards=setup.cards[:-1])
    with pytest.raises(Caught) as caught:
        seat.receive(wire(short))
    assert (caught.value.seat, caught.value.kind) == (HOST, "unrequested")


def test_a_host_that_leaves_a_seat_out_of_a_round_is_named() -> None:
    """A round sealed by seat 0 and the host's bot alone, shown to seat 0: the cards the game
    deals seat 1 would then be opened with every scalar of the round, the bot's included, so
    the host would read them and, by elimination, narrow seat 0's hand. Every seat of the game
    seals every round: refused at once, naming the host, before any step is signed."""
    table = Table(3, [0, 1])
    seat = table.seats[0]
    for s, player in table.seats.items():
        table.send(s, [player.hello()])
    out = table.host.start()
    setup = next(msg for to, msg in out if to == 0 and isinstance(msg, SealRound))
    assert setup.seats == (0, 1, 2)
    short = dataclasses.replace(
        setup, seats=(0, 2), keys=tuple(k for k in setup.keys if k.seat != 1)
    )
    with pytest.raises(Caught) as caught:
        seat.receive(wire(short))
    assert (caught.value.seat, caught.value.kind) == (HOST, "unrequested")
    assert seat.driver.rounds == {}
