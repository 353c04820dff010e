"""Sealed Velonimo as messages: the host (its engine, relay and bots) and each remote seat, every
message through the sealed encoder, msgpack and the strict decoder (the harness of
test_sealed_game_wire). Honest games verify everywhere, with the duel's reward shown, its draw
pile never, turtles' steals made by public random draws and the cards that change hands passed
to their new owner alone; a draw opened early or falsely is refused and its seat named."""

from __future__ import annotations

import random
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import pytest

from netcards.errors import GameError
from netcards.games.velonimo.actions import Pass
from netcards.games.velonimo.rules import Velonimo
from netcards.games.velonimo.sealed import SealedVelonimo
from netcards.sealed_cards import is_slot
from protocol.sealed.draws import Draws
from protocol.sealed.errors import Caught
from protocol.sealed.messages import SealMessage, SealStep
from protocol.sealed_play.host import SealedHost
from protocol.sealed_play.progress import where
from protocol.sealed_play.seat import SealedSeat
from tests.protocol import test_sealed_game_wire as harness
from tests.protocol.sealed_table import stream
from tests.protocol.test_sealed_game_knowledge import BOT, HUMAN, search

ENGINE = SealedVelonimo()
SHORT = {"difficulties": [1, 2]}


class VelonimoTable(harness.Table):
    def __init__(self, players: int, humans: Sequence[int], seed: int = 1) -> None:
        config = Velonimo().make_config(players, dict(SHORT))
        rng = random.Random(seed)
        bots = {s: harness.bot(rng) for s in range(players) if s not in humans}
        self.host = SealedHost(
            ENGINE, config, harness.SEED, b"table", b"game 1", bots, stream(b"host %d" % seed)
        )
        self.seats = {
            s: SealedSeat(ENGINE, config, harness.SEED, s, stream(b"seat %d %d" % (s, seed)))
            for s in humans
        }
        self.rng = rng
        self._links()

    def play_until(self, done: Any, limit: int = 2000) -> None:
        for _ in range(limit):
            if done() or self.host.outcome is not None:
                return
            movers = [s for s, seat in self.seats.items() if seat.legal_actions()]
            s = movers[0]
            self.send(s, self.seats[s].act(self.rng.choice(self.seats[s].legal_actions())))


def passes(table: VelonimoTable) -> int:
    return sum(len(kept.moves.passed) for kept in table.host.relay.rounds.values())


@pytest.mark.parametrize(("players", "humans"), [(2, [0]), (3, [0, 2]), (5, [0, 1, 3])])
def test_an_honest_sealed_velonimo_game_is_verified_everywhere(
    players: int, humans: list[int]
) -> None:
    table = VelonimoTable(players, humans)
    table.start()
    table.play()
    host_state = table.host.state.to_data()
    for seat in table.seats.values():
        assert seat.state.to_data() == host_state
        assert seat.verdict == "deal verified"
    assert table.host.verdict == "deal verified"
    assert set(table.host.digests.values()) == {table.host.relay.transcript.digest}
    # Turtles stole: every steal waited for a draw, and the cards it took were passed.
    assert table.host.relay.draws.values and passes(table) > 0
    assert table.host.mirror.draws_done == len(table.host.relay.draws.values)
    state = table.host.state
    if players == 2:
        # The duel's reward was shown (at every deal); the draw pile never was.
        kinds = [e.kind for e in table.host.mirror.events]
        assert kinds.count("reveal") > kinds.count("play") - 1 >= 0
        last = table.host.relay.rounds[max(table.host.relay.rounds)]
        pile = [where(state, x)[1] for x in state.draw if is_slot(x)]
        assert pile and not set(pile) & (set(last.revealed) | set(last.owners))


def test_cards_taken_or_given_back_reach_their_new_owner_alone() -> None:
    """Three players, none the host's: after each pass, its new owner knows the card, the
    seat that is neither giver nor taker and the host do not."""
    table = VelonimoTable(3, [0, 1, 2], seed=2)
    table.start()
    checked = 0
    while table.host.outcome is None and checked < 6:
        before = {
            n: {p: set(s) for p, s in k.moves.passed.items()}
            for n, k in table.host.relay.rounds.items()
        }
        table.play_until(lambda: False, limit=1)
        for n, kept in table.host.relay.rounds.items():
            for p, seats in kept.moves.passed.items():
                for to in seats - before.get(n, {}).get(p, set()):
                    slot = state_slot(table, n, p)
                    keeper = kept.moves.keepers[p]
                    card = table.seats[to].driver.rounds[n].hand[p]
                    assert table.seats[to].mirror.knowledge.cards[slot] == card
                    for s, seat in table.seats.items():
                        if s not in (to, keeper) and s not in seats:
                            assert not seat.mirror.knowledge.knows(slot)
                            assert p not in seat.driver.rounds[n].hand
                    if slot not in table.host.state.ledger.revealed:
                        assert not table.host.mirror.knowledge.knows(slot)
                    checked += 1
    assert checked > 0


def state_slot(table: VelonimoTable, number: int, p: int) -> int:
    return table.host.state.ledger.rounds[number].first + p


def _hidden(table: VelonimoTable) -> dict[tuple[int, int], int]:
    """(round, position) -> card of seat 0's hand that the host's bot was never shown."""
    state = table.host.state
    out = {}
    for slot in state.hands[HUMAN]:
        if is_slot(slot) and slot not in state.opened[BOT]:
            n, p = where(state, slot)
            out[(n, p)] = table.seats[HUMAN].driver.rounds[n].hand[p]
    return out


def _passed_in(table: VelonimoTable) -> list[tuple[int, int]]:
    kept = table.host.relay.rounds
    return [(n, p) for n, p in _hidden(table) if HUMAN in kept[n].moves.passed.get(p, ())]


def test_the_host_names_no_card_of_a_players_hand_stolen_or_given_back_included() -> None:
    """The structural search of test_sealed_game_knowledge over a Velonimo game (seats 0 and 2
    players, seat 1 the host's bot), once seat 0's hand holds cards passed to it by seat 2 (taken
    or given back): no card of that hand the bot was never shown turns up, and the host's engine
    knows none of its slots."""
    for seed in range(1, 12):  # a game where seat 2's cards end up in seat 0's hand
        table = VelonimoTable(3, [HUMAN, 2], seed=seed)
        table.start()
        table.play_until(lambda t=table: bool(_passed_in(t)))
        if _passed_in(table):
            break
    hidden = _hidden(table)
    assert _passed_in(table), "seat 0's hand never held a card passed to it"
    number = max(n for n, _ in hidden)
    # Card ids come back every round (all 55 are sealed anew), so only this round's material is
    # searched: a card played last round names nothing now.
    latest = SimpleNamespace(rounds={number: table.host.relay.rounds[number]})
    host = SimpleNamespace(relay=latest, bots=table.host.bots)
    found = search(SimpleNamespace(host=host, to_host=table.to_host), {})  # type: ignore[arg-type]
    assert not found & set(hidden.values())
    kept = table.host.bots[BOT].rounds[number]
    bots = {c for p, c in kept.hand.items() if kept.moves.keepers.get(p) == BOT}
    assert bots and bots <= found  # what the host may know (its bot's own deal), it does find
    slots = [state_slot(table, n, p) for n, p in hidden]
    assert not any(table.host.mirror.knowledge.knows(x) for x in slots)


# -- draws: cheats, named -------------------------------------------------------------------------


def _draw_due(table: VelonimoTable) -> None:
    table.play_until(lambda: table.host.mirror.draw_due is not None)
    assert table.host.mirror.draw_due is not None


def test_an_opening_that_does_not_match_its_commitment_is_named_by_host_and_seats() -> None:
    table = VelonimoTable(3, [0, 2], seed=3)
    table.start()

    def falsify(seat: int, replies: list[SealMessage]) -> list[SealMessage]:
        out = []
        for r in replies:
            if isinstance(r, SealStep) and r.kind == "draw_open" and seat == 2:
                body = {**r.body, "nonce": bytes(32)}
                out.append(table.seats[2].driver.sign("draw_open", body, 0))
            else:
                out.append(r)
        return out

    table.replies = falsify
    with pytest.raises(Caught) as at_host:
        table.play()
    assert (at_host.value.seat, at_host.value.kind) == (2, "wrong_opening")
    # A host that relays it all the same: every seat names seat 2 too.
    wrong = table.to_host[-1][1]
    assert isinstance(wrong, SealStep) and wrong.kind == "draw_open"
    for seat in table.seats.values():
        with pytest.raises(Caught) as at_seat:
            seat.receive(harness.wire(wrong))
        assert (at_seat.value.seat, at_seat.value.kind) == (2, "wrong_opening")


def test_an_opening_before_every_commitment_is_refused_naming_its_sender() -> None:
    table = VelonimoTable(3, [0, 2], seed=3)
    table.start()

    def hasty(seat: int, replies: list[SealMessage]) -> list[SealMessage]:
        out = list(replies)
        for r in replies:
            if isinstance(r, SealStep) and r.kind == "draw_commit" and seat == 0:
                draw = r.body["draw"]
                nonce = table.seats[0].driver._nonces[draw]
                out.append(
                    table.seats[0].driver.sign("draw_open", {"draw": draw, "nonce": nonce}, 0)
                )
        return out

    table.replies = hasty
    with pytest.raises(Caught) as caught:
        table.play()
    assert (caught.value.seat, caught.value.kind) == (0, "out_of_turn")
    assert 2 not in table.host.relay.draws.commitments.get(table.host.relay.draws.current, {})


def test_a_seat_that_withholds_its_opening_stalls_the_draw_and_is_named() -> None:
    table = VelonimoTable(3, [0, 2], seed=3)
    table.start()
    table.replies = lambda seat, replies: [
        r for r in replies if not (seat == 2 and isinstance(r, SealStep) and r.kind == "draw_open")
    ]
    _draw_due(table)
    draws: Draws = table.host.relay.draws
    assert draws.committed(draws.current) and table.host.waiting_for() == [2]
    assert not table.host.state.ledger.ready() and not any(
        seat.legal_actions() for seat in table.seats.values()
    )


def test_a_commitment_to_a_draw_not_due_is_refused() -> None:
    table = VelonimoTable(3, [0, 2], seed=3)
    table.start()
    ahead = table.host.relay.draws.current + 1
    step = table.seats[0].driver.draw_commit(ahead)
    assert step is not None
    with pytest.raises(Caught) as caught:
        table.host.receive(0, harness.wire(step))
    assert (caught.value.seat, caught.value.kind) == (0, "out_of_turn")


def test_a_keeper_that_passes_a_wrong_scalar_is_named_by_every_program() -> None:
    """A modified keeper's program passes a stolen card on with a scalar that is not its own
    (well formed, signed by it): the new owner, the one seat that can open it, finds it fails
    the keeper's commitment and proves it to everyone with its key of the pass (`wrong_pass`);
    every program, the host's too, names the keeper, and the game stops there."""
    table = VelonimoTable(3, [0, 1, 2], seed=2)
    cheated: list[int] = []

    def lying_keeper(seat: int, replies: list[SealMessage]) -> list[SealMessage]:
        out = []
        for msg in replies:
            sent = msg
            if isinstance(msg, SealStep) and msg.kind == "pass" and not cheated:
                (p, sealed), *rest = msg.body["scalars"]
                bent = bytes([sealed[0] ^ 1]) + sealed[1:]
                body = {**msg.body, "scalars": [[p, bent], *rest]}
                sent = table.seats[seat].driver.sign("pass", body, msg.round)
                cheated.append(seat)
            out.append(sent)
        return out

    table.replies = lying_keeper
    table.start()
    with pytest.raises(Caught) as caught:
        table.play_until(lambda: False)
    assert cheated, "a card was passed"
    keeper = cheated[0]
    assert (caught.value.seat, caught.value.kind) == (keeper, "wrong_scalar")
    proofs = [m for _, m in table.to_host if isinstance(m, SealStep) and m.kind == "wrong_pass"]
    assert len(proofs) == 1
    finding = table.host.finding
    assert finding is not None and (finding.seat, finding.kind) == (keeper, "wrong_scalar")
    assert table.host.stopped
    for seat in table.seats.values():  # each program judges the proof itself
        with pytest.raises(Caught) as named:
            seat.receive(harness.wire(proofs[0]))
        assert (named.value.seat, named.value.kind) == (keeper, "wrong_scalar")


def test_a_seat_that_calls_an_honest_pass_wrong_is_named_for_a_false_alarm() -> None:
    """A modified program proves nothing by calling a pass to it wrong: its key opens the pass,
    every scalar opens its commitment, and every program names it instead."""
    table = VelonimoTable(3, [0, 1, 2], seed=2)
    table.start()
    table.play_until(lambda: passes(table) > 0)
    given = {
        (n, to): moves
        for n, kept in table.host.relay.rounds.items()
        for to, moves in kept.moves.given.items()
    }
    (number, liar), moves = next(iter(given.items()))
    key = next(iter(moves.values()))[0]
    positions = [p for p, (k, _) in moves.items() if k == key]
    b = table.seats[liar].driver.rounds[number].pass_secrets[positions[0]]
    proof = table.seats[liar].driver.sign(
        "wrong_pass", {"positions": positions, "secret": b.to_bytes(32, "big")}, number
    )
    with pytest.raises(Caught) as caught:
        table.send(liar, [proof])
    assert (caught.value.seat, caught.value.kind) == (liar, "false_alarm")
    finding = table.host.finding
    assert finding is not None and (finding.seat, finding.kind) == (liar, "false_alarm")
    for seat in table.seats.values():
        with pytest.raises(Caught) as named:
            seat.receive(harness.wire(proof))
        assert (named.value.seat, named.value.kind) == (liar, "false_alarm")


def test_a_receiver_that_proved_a_pass_wrong_stops_and_names_the_keeper_without_the_echo() -> None:
    """The keeper is the host's accomplice (or its bot), and the host swallows the receiver's
    `wrong_pass` proof instead of relaying it, to play on as if nothing was proved: the
    receiver's own program judged its proof as every program does, names the keeper, and
    makes no move (its hand lacks the card it could not open)."""
    table = VelonimoTable(3, [0, 1, 2], seed=2)
    cheated: list[int] = []
    swallowed: list[tuple[int, SealStep]] = []

    def lying_keeper_and_silent_host(seat: int, replies: list[SealMessage]) -> list[SealMessage]:
        out: list[SealMessage] = []
        for msg in replies:
            sent = msg
            if isinstance(msg, SealStep) and msg.kind == "pass" and not cheated:
                (p, sealed), *rest = msg.body["scalars"]
                bent = bytes([sealed[0] ^ 1]) + sealed[1:]
                body = {**msg.body, "scalars": [[p, bent], *rest]}
                sent = table.seats[seat].driver.sign("pass", body, msg.round)
                cheated.append(seat)
            if isinstance(msg, SealStep) and msg.kind == "wrong_pass":
                swallowed.append((seat, msg))
                continue
            out.append(sent)
        return out

    table.replies = lying_keeper_and_silent_host
    table.start()
    table.play_until(lambda: bool(swallowed))
    assert cheated and swallowed, "a card was passed wrong and proved so"
    receiver = table.seats[swallowed[0][0]]
    assert not table.host.stopped, "the host never saw the proof"
    assert receiver.legal_actions() == []
    with pytest.raises(GameError):
        receiver.act(Pass())
    proved = receiver.driver.proved
    assert proved is not None and (proved.seat, proved.kind) == (cheated[0], "wrong_scalar")
