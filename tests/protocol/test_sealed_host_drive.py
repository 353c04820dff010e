"""The host's bots work after a message is taken, not inside it: `take` answers a player's move
with its `seal_acted` alone, `drive` then plays the bots, and the two together send exactly
what `receive` sends, in the same order, with the same randomness (a resumed host replays its
journal with `receive`)."""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Sequence

import pytest

from protocol.sealed.errors import Caught
from protocol.sealed.messages import SealAct, SealActed, SealMessage, encode
from protocol.sealed.round_driver import Outgoing
from protocol.sealed_play.progress import HOST
from tests.protocol.test_sealed_game_wire import Table, wire


class TakenThenDriven(Table):
    """The same table, every message taken and the bots driven apart, as a table session does."""

    def send(self, seat: int, msgs: Sequence[SealMessage]) -> None:
        queue: deque[Outgoing] = deque()
        for msg in msgs:
            self.to_host.append((seat, wire(msg)))
            queue.extend(self.host.take(seat, wire(msg)))
            queue.extend(self.host.drive())
        self.run(queue)

    def run(self, queue: deque[Outgoing]) -> None:
        while queue:
            to, msg = queue.popleft()
            for reply in self.seats[to].receive(wire(msg)):
                self.to_host.append((to, wire(reply)))
                queue.extend(self.host.take(to, wire(reply)))
                queue.extend(self.host.drive())


def test_a_move_is_acknowledged_before_the_bot_replies() -> None:
    table = Table(2, [0], seed=3)
    table.start()
    seat, host = table.seats[0], table.host
    assert seat.legal_actions()  # the bot moved first, if it was its turn
    (act,) = seat.act(table.rng.choice(seat.legal_actions()))
    moves = len(host.actions)
    out = host.take(0, wire(act))
    assert isinstance(act, SealAct)
    assert [(to, type(m)) for to, m in out] == [(0, SealActed)]
    assert out[0][1].seat == 0 and out[0][1].seq == moves + 1
    assert len(host.actions) == moves + 1  # the bot has not moved yet
    assert host.pending
    with pytest.raises(RuntimeError):
        host.take(0, wire(act))  # nothing is taken before the bots' work is done
    later = host.drive()
    assert not host.pending
    acted = [m for _, m in later if isinstance(m, SealActed)]
    assert acted and acted[0].seat == 1  # the bot's reply comes with `drive`
    table.run(deque(out + later))
    table.play()
    assert host.verdict == "deal verified" and seat.verdict == "deal verified"


@pytest.mark.parametrize(("players", "humans", "seed"), [(2, [0], 1), (4, [0, 2], 2)])
def test_taking_then_driving_sends_what_receiving_sends(
    players: int, humans: list[int], seed: int
) -> None:
    tables = [Table(players, humans, seed), TakenThenDriven(players, humans, seed)]
    for table in tables:
        table.start()
        table.play()
    whole, apart = tables
    assert [(s, encode(m)) for s, m in apart.to_host] == [(s, encode(m)) for s, m in whole.to_host]
    assert apart.host.state.to_data() == whole.host.state.to_data()
    assert apart.host.relay.transcript.digest == whole.host.relay.transcript.digest
    assert apart.host.verdict == whole.host.verdict == "deal verified"


def _player_moves(table: Table) -> SealAct:
    """The player's next move that plays a card (its reveal inside it)."""
    seat = table.seats[0]
    while True:
        legal = seat.legal_actions()
        played = [a for a in legal if seat.engine.shows(a)]
        if played:
            (act,) = seat.act(played[0])
            assert isinstance(act, SealAct) and act.reveal
            return act
        table.send(0, seat.act(legal[0]))  # pragma: no cover - a rest first


@pytest.mark.parametrize("what", ["signature", "reveal"])
def test_a_players_own_move_said_back_altered_is_still_named(what: str) -> None:
    """A seat does not check its own signature again on what it signed, said back byte for
    byte; one byte changed (the signature, or the scalar of the card it shows) and it is
    checked, and the host named."""
    table = Table(2, [0], seed=3)
    table.start()
    act = _player_moves(table)

    def alter(to: int, msg: SealMessage) -> SealMessage:
        if isinstance(msg, SealActed) and msg.seat == 0:
            if what == "signature":
                return dataclasses.replace(msg, signature=bytes(64))
            (number, p, y), *rest = msg.reveal
            other = bytes([y[0] ^ 1]) + y[1:]
            return dataclasses.replace(msg, reveal=((number, p, other), *rest))
        return msg

    table.tamper = alter
    with pytest.raises(Caught) as caught:
        table.send(0, [act])
    assert (caught.value.seat, caught.value.kind) == (HOST, "forged")


def test_a_players_own_move_said_back_unaltered_is_applied() -> None:
    table = Table(2, [0], seed=3)
    table.start()
    act = _player_moves(table)
    moves = len(table.seats[0].actions)
    table.send(0, [act])
    assert table.seats[0].actions[moves] == (0, dict(act.action))
