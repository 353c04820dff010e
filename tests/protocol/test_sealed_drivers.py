"""The sealing round as a message exchange: seats and the relay driven in memory, every message
through the sealed encoder, msgpack and the strict decoder on its way, as it will cross a
socket. An honest round deals each seat its hand and nobody else's; every cheat a party can
try on the wire is refused by the first party that can tell, naming the seat (or the relay)
that did it."""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Callable, Sequence

import pytest

from netcards.registry import get_game
from protocol.sealed.audit import audit, final_cards
from protocol.sealed.errors import Caught
from protocol.sealed.messages import SealMessage, SealOpen, SealRound, SealStep, decode, encode
from protocol.sealed.round_driver import Outgoing, RelayDriver, SeatDriver
from protocol.wire import pack, unpack
from tests.protocol.sealed_table import stream

TABLE = b"kitchen table 7"
GAME = b"auf-achse game 3"
HAND = 10


def wire(msg: SealMessage) -> SealMessage:
    return decode(unpack(pack(encode(msg))))


Tamper = Callable[[int, SealMessage], SealMessage | None]


class Net:
    """A relay and its seats, wired in memory. `tamper` sees every message the relay sends a
    seat and may change it or (returning None) drop it: a cheating relay."""

    def __init__(self, players: int, relay: int = 0, seed: bytes = b"net") -> None:
        self.relay = RelayDriver(TABLE, relay)
        self.seats = {s: SeatDriver(s, relay, stream(seed + bytes([s]))) for s in range(players)}
        for s, seat in self.seats.items():
            assert self.relay.receive(s, wire(seat.hello())) == []
        self.tamper: Tamper | None = None
        self.held: list[tuple[int, SealMessage]] = []
        """Replies the test chose to keep back (`hold`)."""
        self.hold: Callable[[int, SealMessage], bool] = lambda seat, msg: False

    def run(self, outgoing: Sequence[Outgoing]) -> None:
        queue = deque(outgoing)
        while queue:
            to, msg = queue.popleft()
            if self.tamper is not None:
                changed = self.tamper(to, msg)
                if changed is None:
                    continue
                msg = changed
            for reply in self.seats[to].receive(wire(msg)):
                if self.hold(to, reply):
                    self.held.append((to, reply))
                else:
                    queue.extend(self.relay.receive(to, wire(reply)))

    def seal(
        self, cards: Sequence[int], order: Sequence[int] | None = None, round_no: int = 0
    ) -> None:
        seats = tuple(self.seats) if order is None else tuple(order)
        self.run(self.relay.begin(round_no, GAME, seats, cards))

    def deal(self, hand: int) -> None:
        assert self.relay.sealed
        for k, s in enumerate(self.relay.round.seats if self.relay.round else ()):
            self.run(self.relay.open(s, range(k * hand, (k + 1) * hand)))


def auf_achse_deck(players: int) -> list[int]:
    game = get_game("auf-achse")
    return [card["id"] for card in game.cards(game.make_config(players))]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_round_over_the_wire_deals_each_seat_its_hand_and_no_one_else_s(players: int) -> None:
    deck = auf_achse_deck(players)
    net = Net(players, relay=players - 1, seed=bytes([players]))
    net.seal(deck)
    assert net.relay.sealed and all(
        s.round and s.round.phase == "sealed" for s in net.seats.values()
    )
    net.deal(HAND)
    secrets = {s: d.secrets for s, d in net.seats.items() if d.secrets is not None}
    truth = final_cards(net.relay.round, secrets)  # type: ignore[arg-type]
    dealt: list[int] = []
    for k, seat in enumerate(net.seats.values()):
        mine = range(k * HAND, (k + 1) * HAND)
        assert seat.hand_known
        assert sorted(seat.hand) == list(mine)
        assert [seat.hand[p] for p in mine] == truth[k * HAND : (k + 1) * HAND]
        dealt += seat.hand.values()
    assert len(set(dealt)) == players * HAND and set(dealt) <= set(deck)
    # Nobody but a position's owner holds the owner's scalar for it: no other party, the relay
    # included, can unmask another seat's card.
    parties = [net.relay.round] + [d.round for d in net.seats.values()]
    for k, s in enumerate(net.seats):
        for r in parties:
            assert r is not None
            assert not set(range(k * HAND, (k + 1) * HAND)) & set(r.scalars.get(s, {}))
    transcripts = {s: d.transcript for s, d in net.seats.items() if d.transcript is not None}
    assert len({t.digest for t in transcripts.values()} | {net.relay.transcript.digest}) == 1
    assert audit(net.relay.round, secrets) is None  # type: ignore[arg-type]


def test_a_second_round_reshuffles_and_a_step_of_the_first_is_refused_in_it() -> None:
    net = Net(3)
    net.seal(list(range(12)))
    first_mask = net.relay.transcript.steps[0]
    net.seal([3, 5, 7, 9], order=(2, 0, 1), round_no=1)
    net.run(net.relay.open(1, [0, 1, 2, 3]))
    assert sorted(net.seats[1].hand.values()) == [3, 5, 7, 9]
    assert net.seats[0].hand == {}
    with pytest.raises(Caught) as caught:
        net.relay.receive(0, wire(SealStep.of(first_mask)))
    assert (caught.value.seat, caught.value.kind) == (0, "wrong_round")


# -- the relay refuses, naming the seat it came from ------------------------------------------


def started(players: int = 3, cards: int = 12) -> tuple[Net, list[tuple[int, SealMessage]]]:
    """A round begun, with the seats' replies held back."""
    net = Net(players)
    net.hold = lambda seat, msg: True
    net.run(net.relay.begin(0, GAME, tuple(range(players)), list(range(cards))))
    net.hold = lambda seat, msg: False
    return net, net.held


def test_a_step_out_of_turn_names_its_seat() -> None:
    net, held = started()
    assert [(s, m.kind) for s, m in held if isinstance(m, SealStep)] == [(0, "mask")]
    assert net.relay.round is not None
    (_, first) = held[0]
    assert isinstance(first, SealStep)
    early = net.seats[2].sign("mask", dict(first.body))
    with pytest.raises(Caught) as caught:
        net.relay.receive(2, wire(early))
    assert (caught.value.seat, caught.value.kind) == (2, "out_of_turn")


def test_a_forged_signature_names_the_seat_that_sent_it() -> None:
    net, held = started()
    (_, step) = held[0]
    assert isinstance(step, SealStep)
    elements = list(step.body["elements"])
    elements[0], elements[1] = elements[1], elements[0]
    forged = dataclasses.replace(step, body={**step.body, "elements": elements})
    with pytest.raises(Caught) as caught:
        net.relay.receive(0, wire(forged))
    assert (caught.value.seat, caught.value.kind) == (0, "forged")
    assert net.relay.round is not None and net.relay.round.masked == []


def test_a_replayed_step_names_its_sender() -> None:
    net, held = started()
    (_, step) = held[0]
    net.run(net.relay.receive(0, wire(step)))
    assert net.relay.round is not None and net.relay.round.phase == "sealed"
    with pytest.raises(Caught) as caught:
        net.relay.receive(0, wire(step))
    assert (caught.value.seat, caught.value.kind) == (0, "replayed")
    with pytest.raises(Caught) as caught:
        net.relay.receive(1, wire(step))  # seat 0's step, sent again by seat 1
    assert (caught.value.seat, caught.value.kind) == (1, "impersonated")


def test_a_step_for_another_round_names_its_sender() -> None:
    net, held = started()
    (_, step) = held[0]
    assert isinstance(step, SealStep)
    with pytest.raises(Caught) as caught:
        net.relay.receive(0, wire(dataclasses.replace(step, round=1)))
    assert (caught.value.seat, caught.value.kind) == (0, "wrong_round")


def test_a_step_signed_for_another_table_fails_its_signature() -> None:
    net = Net(3)
    other = RelayDriver(b"another table", 0)
    for s, seat in net.seats.items():
        other.receive(s, seat.hello())
    held: list[SealMessage] = []
    for to, msg in other.begin(0, GAME, (0, 1, 2), list(range(12))):
        held += net.seats[to].receive(msg)
    net.relay.begin(0, GAME, (0, 1, 2), list(range(12)))
    with pytest.raises(Caught) as caught:
        net.relay.receive(0, wire(held[0]))
    assert (caught.value.seat, caught.value.kind) == (0, "forged")


def test_a_scalar_that_fails_its_commitment_or_was_not_asked_for_names_its_seat() -> None:
    net = Net(3)
    net.seal(list(range(12)))
    net.hold = lambda seat, msg: True
    net.run(net.relay.open(2, [0, 1]))
    assert sorted(s for s, _ in net.held) == [0, 1]
    seat1 = net.seats[1]
    assert seat1.secrets is not None
    y5 = seat1.secrets.rekeys[5].to_bytes(32, "big")
    with pytest.raises(Caught) as caught:
        net.relay.receive(1, wire(seat1.sign("scalars", {"to": 2, "scalars": [[5, y5]]})))
    assert (caught.value.seat, caught.value.kind) == (1, "unrequested")
    # The honest answers still go through, and seat 2 reads its two cards.
    net.hold = lambda seat, msg: False
    for s, msg in net.held:
        net.run(net.relay.receive(s, wire(msg)))
    assert net.seats[2].hand_known and len(net.seats[2].hand) == 2
    assert net.relay.proved is None


@pytest.mark.parametrize(
    ("to", "position", "which", "kind"),
    [(2, 0, 1, "wrong_scalar"), (1, 5, 5, "malformed")],
    ids=["fails-its-commitment", "opened-to-itself"],
)
def test_a_scalars_step_proving_its_signer_wrong_is_shown_to_every_seat_and_stops_the_game(
    to: int, position: int, which: int, kind: str
) -> None:
    """A wrong scalar (or a step opening a card to its own signer) is its signer's own proof
    against itself: the relay shows it to every seat, each names the signer, and the game
    stops (`proved`)."""
    net = Net(3)
    net.seal(list(range(12)))
    net.hold = lambda seat, msg: True
    net.run(net.relay.open(2, [0, 1]))
    seat1 = net.seats[1]
    assert seat1.secrets is not None
    y = seat1.secrets.rekeys[which].to_bytes(32, "big")
    body = {"to": to, "scalars": [[position, y]]}
    shown = net.relay.receive(1, wire(seat1.sign("scalars", body)))
    assert net.relay.proved is not None
    assert (net.relay.proved.seat, net.relay.proved.kind) == (1, kind)
    assert sorted(seat for seat, _ in shown) == [0, 1, 2]
    for seat, msg in shown:
        with pytest.raises(Caught) as caught:
            net.seats[seat].receive(wire(msg))
        assert (caught.value.seat, caught.value.kind) == (1, kind)


def test_a_repeated_element_names_its_seat() -> None:
    net, held = started()
    (_, step) = held[0]
    assert isinstance(step, SealStep)
    elements = list(step.body["elements"])
    copied = net.seats[0].sign("mask", {**step.body, "elements": [elements[0], *elements[:-1]]})
    shown = net.relay.receive(0, wire(copied))
    assert net.relay.proved is not None
    assert (net.relay.proved.seat, net.relay.proved.kind) == (0, "duplicated")
    assert net.relay.round is not None and net.relay.round.masked == []
    for to, msg in shown:
        if to == 0:
            continue
        with pytest.raises(Caught) as caught:
            net.seats[to].receive(wire(msg))
        assert (caught.value.seat, caught.value.kind) == (0, "duplicated")


# -- a cheating relay, named by the seats ------------------------------------------------------


def alter_first_mask(to: int, msg: SealMessage) -> SealMessage:
    if to == 2 and isinstance(msg, SealStep) and msg.kind == "mask" and msg.seat == 0:
        elements = list(msg.body["elements"])
        return dataclasses.replace(msg, body={**msg.body, "elements": elements[1:] + elements[:1]})
    return msg


def drop_first_mask(to: int, msg: SealMessage) -> SealMessage | None:
    if to == 2 and isinstance(msg, SealStep) and msg.kind == "mask" and msg.seat == 0:
        return None
    return msg


@pytest.mark.parametrize(
    ("tamper", "kind"),
    [(alter_first_mask, "forged"), (drop_first_mask, "out_of_turn")],
    ids=["altered", "left-out"],
)
def test_a_relay_that_alters_or_leaves_out_a_step_is_named_by_the_seat(
    tamper: Tamper, kind: str
) -> None:
    net = Net(4, relay=3)
    net.tamper = tamper
    with pytest.raises(Caught) as caught:
        net.seal(list(range(12)))
    assert (caught.value.seat, caught.value.kind) == (3, kind)


def test_a_relay_that_shows_a_step_twice_is_named() -> None:
    net = Net(3, relay=1)
    seen: list[SealMessage] = []

    def twice(to: int, msg: SealMessage) -> SealMessage:
        if to == 2 and isinstance(msg, SealStep) and msg.kind == "mask":
            seen.append(msg)
            if len(seen) == 2:
                return seen[0]
        return msg

    net.tamper = twice
    with pytest.raises(Caught) as caught:
        net.seal(list(range(12)))
    assert (caught.value.seat, caught.value.kind) == (1, "replayed")


def test_a_relay_that_opens_a_position_to_a_second_seat_is_refused() -> None:
    net = Net(3)
    net.seal(list(range(12)))
    net.run(net.relay.open(2, [0, 1]))
    assert len(net.seats[2].hand) == 2
    with pytest.raises(Caught) as caught:
        net.seats[0].receive(wire(SealOpen(0, 1, (1, 4))))
    assert (caught.value.seat, caught.value.kind) == (0, "reopened")


def test_a_relay_that_gives_a_seat_a_wrong_key_or_opens_before_sealing_is_named() -> None:
    net = Net(3, relay=2)
    (_, setup), *_ = net.relay.begin(0, GAME, (0, 1, 2), list(range(12)))
    assert isinstance(setup, SealRound)
    keys = tuple(
        dataclasses.replace(k, key=setup.keys[1].key) if k.seat == 0 else k for k in setup.keys
    )
    with pytest.raises(Caught) as caught:
        net.seats[0].receive(wire(dataclasses.replace(setup, keys=keys)))
    assert (caught.value.seat, caught.value.kind) == (2, "bad_setup")
    net.seats[1].receive(wire(setup))
    with pytest.raises(Caught) as caught:
        net.seats[1].receive(wire(SealOpen(0, 0, (0,))))
    assert (caught.value.seat, caught.value.kind) == (2, "out_of_turn")


def test_a_relay_that_tells_seats_different_setups_is_named_at_the_first_step() -> None:
    """Every step signs the digest of the list it was made from: a seat shown other cards
    than the first seat masked holds another starting list, and names the relay as soon as
    that step reaches it, before it makes any step of its own."""
    net = Net(3, relay=0)

    def other_cards(to: int, msg: SealMessage) -> SealMessage:
        if to == 2 and isinstance(msg, SealRound):
            return dataclasses.replace(msg, cards=(*msg.cards[:-1], 99))
        return msg

    net.tamper = other_cards
    with pytest.raises(Caught) as caught:
        net.seal(list(range(12)))
    assert (caught.value.seat, caught.value.kind) == (0, "wrong_input")
    assert net.seats[2].round is not None and net.seats[2].round.masked == []


# -- several rounds at once: a game reshuffles while round-0 cards are still in hands ----------


def test_round_zero_is_opened_and_its_card_played_after_a_reshuffle_was_sealed() -> None:
    """Every party keeps its rounds by number: a slot of round 0 opened after round 1 was
    sealed still reaches its owner, and the owner can still show its round-0 card to everyone
    (its scalar of round 0 was kept), which every party, the relay too, then reads."""
    net = Net(3, relay=2)
    net.seal(list(range(12)))
    net.run(net.relay.open(0, [0, 1], round_no=0))
    net.seal([20, 21, 22, 23], order=(1, 2, 0), round_no=1)
    net.run(net.relay.open(1, [0, 1], round_no=1))
    net.run(net.relay.open(0, [2], round_no=0))  # a round-0 card drawn after the reshuffle
    seat0 = net.seats[0]
    assert seat0.hand_known and sorted(seat0.rounds[0].hand) == [0, 1, 2]
    assert sorted(net.seats[1].rounds[1].hand) == [0, 1]
    assert seat0.rounds[1].hand == {}
    card = seat0.rounds[0].hand[2]
    net.run(net.relay.receive(0, wire(seat0.reveal(0, [2]))))
    assert net.relay.revealed(0) == {2: card}
    assert all(d.rounds[0].revealed == {2: card} for d in net.seats.values())
    assert all(d.rounds[1].revealed == {} for d in net.seats.values())
    secrets0 = {s: d.rounds[0].secrets for s, d in net.seats.items()}
    secrets1 = {s: d.rounds[1].secrets for s, d in net.seats.items()}
    assert audit(net.relay.rounds[0].round, secrets0) is None
    assert audit(net.relay.rounds[1].round, secrets1) is None
    assert final_cards(net.relay.rounds[0].round, secrets0)[2] == card
    digests = {d.transcript.digest for d in net.seats.values() if d.transcript is not None}
    assert digests == {net.relay.transcript.digest}


def test_only_an_owner_reveals_its_position_unless_everyone_was_asked() -> None:
    net = Net(3)
    net.seal(list(range(12)))
    net.run(net.relay.open(1, [4]))
    # Seat 2 shows position 4, which is seat 1's: the relay refuses it, naming seat 2.
    with pytest.raises(Caught) as caught:
        net.relay.receive(2, wire(net.seats[2].reveal(0, [4])))
    assert (caught.value.seat, caught.value.kind) == (2, "unrequested")
    # A relay that passes such a step on anyway is named by the seats.
    with pytest.raises(Caught) as caught:
        net.seats[0].receive(wire(net.seats[2].reveal(0, [4])))
    assert (caught.value.seat, caught.value.kind) == (0, "unrequested")
    # Positions never opened to anyone (cards drawn by a game's last move) are shown when the
    # relay asks every seat for its scalars.
    net.run(net.relay.reveal([7, 8]))
    shown = net.relay.revealed(0)
    assert sorted(shown) == [7, 8]
    assert all(d.rounds[0].revealed == shown for d in net.seats.values())
    assert all(7 not in d.rounds[0].hand for d in net.seats.values())
