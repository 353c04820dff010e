"""A deck tampered with while it was sealed, found in the middle of a game: the seat that finds
it says so (`broken`), every seat publishes its secrets at once, and every honest program's
audit names who tampered. A seat that says so of a whole deck is named for the false alarm, and
secrets published mid-game with nobody having said so are refused.

A tampered step is refused when it is made, for its proof fails (tests/protocol/
test_sealed_proof_attacks.py); the tests here that need a tampered deck to reach the game
switch the proofs' checks off (`unproved`), to test the second line on its own."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from protocol.sealed.errors import Caught
from protocol.sealed.group import mul
from protocol.sealed.messages import SealMessage, SealStep
from protocol.sealed.round_driver import SeatDriver
from protocol.sealed_play.progress import HOST
from protocol.sealed_play.seat import BROKEN, SealedSeat, secrets_body
from tests.protocol.test_sealed_game_wire import Table, wire
from tests.protocol.unproved import unproved

__all__ = ["unproved"]  # the fixture


def doubled(driver: SeatDriver, msg: SealMessage) -> SealMessage:
    """`msg`, if it is a mask step, with every element times 2, signed again by `driver` (a
    modified program signs what it likes as its own): an element of no card of the deck, at
    every position. Any other message as it is."""
    if not (isinstance(msg, SealStep) and msg.kind == "mask"):
        return msg
    elements = [mul(x, 2) for x in msg.body["elements"]]
    return driver.sign("mask", {**msg.body, "elements": elements}, msg.round)


def doubling_masks(seat: SealedSeat) -> None:
    """Seat's program publishes every element of its mask steps times 2 (`doubled`)."""
    receive = seat.receive

    def tampering(msg: SealMessage) -> list[SealMessage]:
        return [doubled(seat.driver, reply) for reply in receive(msg)]

    seat.receive = tampering  # type: ignore[method-assign]


@pytest.mark.usefixtures("unproved")
@pytest.mark.parametrize("bot", [0, 1])
def test_a_host_bot_that_tampers_with_its_shuffle_is_named_and_plays_no_move(bot: int) -> None:
    """The host's own bot doubles its mask step: the bot's hand unmasks to no card either, so it
    says the deck is broken before the host would have it choose a move from a hand it cannot
    read (which used to stop the host's work on the player's message with an error, when the
    bot was the first to play)."""
    table = Table(2, [1 - bot])
    driver = table.host.bots[bot]
    honest_turn = driver._my_turn

    def doubling(number: int) -> list[SealMessage]:
        return [doubled(driver, m) for m in honest_turn(number)]

    driver._my_turn = doubling  # type: ignore[method-assign]
    table.start()
    assert table.host.actions == [] and table.host.claims
    named = f"deal NOT verified: seat {bot + 1}:"
    assert all(v and v.startswith(named) for v in verdicts(table))


def verdicts(table: Table) -> list[str | None]:
    return [table.host.verdict] + [seat.verdict for seat in table.seats.values()]


@pytest.mark.usefixtures("unproved")
@pytest.mark.parametrize(("players", "humans", "cheat"), [(3, [0, 1], 1), (2, [0, 1], 0)])
def test_a_seat_that_tampers_with_its_shuffle_is_named_by_every_program_mid_game(
    players: int, humans: Sequence[int], cheat: int
) -> None:
    table = Table(players, humans)
    doubling_masks(table.seats[cheat])
    table.start()
    # Every seat found its hand unmasked to no card: the game stopped before its first move.
    assert table.host.claims and table.host.actions == []
    assert all(seat.broken and seat.legal_actions() == [] for seat in table.seats.values())
    # Every seat, the host's bots too, published its secrets, and every audit names the seat.
    assert set(table.host.secrets) == set(range(players))
    for finding in [table.host.finding] + [s.finding for s in table.seats.values()]:
        assert finding is not None and finding.seat == cheat
        assert finding.kind not in ("false_alarm", "equivocated")
    assert all(v and v.startswith(f"deal NOT verified: seat {cheat + 1}:") for v in verdicts(table))


def test_a_seat_that_says_a_whole_deck_was_tampered_with_is_named_for_a_false_alarm() -> None:
    table = Table(3, [0, 1])
    table.start()
    for _ in range(4):
        s = next(s for s, seat in table.seats.items() if seat.legal_actions())
        table.send(s, table.seats[s].act(table.rng.choice(table.seats[s].legal_actions())))
    liar = table.seats[1]
    liar._said_broken = liar._published = True  # a modified program says it on its own
    secrets = liar.driver.sign("secrets", secrets_body(liar.driver), 0)
    table.send(1, [liar.driver.sign(BROKEN, {}, 0), secrets])
    assert table.host.claims == {1}
    for finding in [table.host.finding] + [s.finding for s in table.seats.values()]:
        assert finding is not None and (finding.seat, finding.kind) == (1, "false_alarm")


def test_secrets_mid_game_that_nobody_called_for_are_refused() -> None:
    table = Table(2, [0, 1])
    table.start()
    seat = table.seats[1]
    early = seat.driver.sign("secrets", secrets_body(seat.driver), 0)
    with pytest.raises(Caught) as caught:
        table.host.receive(1, wire(early))
    assert (caught.value.seat, caught.value.kind) == (1, "out_of_turn")
    # ... and a host that relays them so is named by the seat that gets them.
    with pytest.raises(Caught) as caught:
        table.seats[0].receive(wire(early))
    assert (caught.value.seat, caught.value.kind) == (HOST, "out_of_turn")
    assert table.seats[0].secrets == {}


def test_a_seat_says_a_broken_deck_once_and_not_after_the_game() -> None:
    table = Table(2, [0, 1])
    table.start()
    seat = table.seats[1]
    claim = seat.driver.sign(BROKEN, {}, 0)
    table.host.receive(1, wire(claim))
    with pytest.raises(Caught) as caught:
        table.host.receive(1, wire(claim))
    assert (caught.value.seat, caught.value.kind) == (1, "replayed")
    with pytest.raises(Caught) as caught:
        table.host.receive(0, wire(claim))  # seat 0's link sending seat 1's word
    assert (caught.value.seat, caught.value.kind) == (0, "impersonated")


def test_a_broken_step_relayed_to_one_seat_while_the_game_goes_on_names_its_signer() -> None:
    """The host's bot says the deck is broken to seat 1 alone and the game goes on with the
    others (seat 1, stopped, makes no move but follows): once the host tells seat 2 too and
    every seat's secrets are in, both seats' audits accept each other's digest (one was made
    before the other) and name the bot for the false alarm; nobody else."""
    table = Table(3, [1, 2])
    table.start()
    while not table.seats[2].legal_actions():
        table.send(1, table.seats[1].act(table.rng.choice(table.seats[1].legal_actions())))
    claim = table.host.bots[0].sign(BROKEN, {}, 0)
    secrets = {1: [m for m in table.seats[1].receive(wire(claim)) if isinstance(m, SealStep)]}
    assert [m.kind for m in secrets[1]] == ["secrets"] and table.seats[1].legal_actions() == []
    played = 0
    while table.seats[2].legal_actions() and played < 3:
        table.send(2, table.seats[2].act(table.rng.choice(table.seats[2].legal_actions())))
        played += 1
    assert played and not table.seats[1].legal_actions()
    secrets[2] = [m for m in table.seats[2].receive(wire(claim)) if isinstance(m, SealStep)]
    bot = table.host.bots[0]
    secrets[0] = [bot.sign("secrets", secrets_body(bot), 0)]
    for seat in table.seats.values():
        for s in (0, 1, 2):
            if s not in seat.secrets:
                seat.receive(wire(secrets[s][-1]))
        assert seat.finding is not None
        assert (seat.finding.seat, seat.finding.kind) == (0, "false_alarm")
