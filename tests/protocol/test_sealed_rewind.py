"""A host that drops a player's link and sends back a history that goes otherwise.

The player's program reconnects by itself and rebuilds its seat from its kept seed and the
history the host sends: the same secrets, so whatever the host has it answer in a made-up
history is answered with the real game's mask, permutation and scalars. Each attack below
would show the host the player's cards (tried without `remember`: the first one reads the
whole hand off the rebuilt seat's mask step); a seat that remembers what it was told names
the host instead, and an honest history is replayed as before."""

from __future__ import annotations

import pytest

from netcards.games.via_gladiola import GAME
from protocol.sealed import shuffle_proof
from protocol.sealed.errors import Caught
from protocol.sealed.group import commit, inverse, mul
from protocol.sealed.messages import SealActed, SealMessage, SealRound, SealStep
from protocol.sealed_play.progress import HOST
from protocol.sealed_play.seat import SealedSeat
from tests.protocol.sealed_table import stream
from tests.protocol.test_sealed_game_wire import ENGINE, SEED, Table, wire

PLAYER, BOT = 1, 0
"""The host's bot masks first, the player after it, as seat order has it."""


def _listened(seed: int = 1) -> tuple[Table, list[SealMessage]]:
    """A game of two, the player's seat hearing every message the host sends it."""
    table = Table(2, [PLAYER], seed)
    heard: list[SealMessage] = []

    def listen(to: int, msg: SealMessage) -> SealMessage:
        if to == PLAYER:
            heard.append(msg)
        return msg

    table.tamper = listen
    return table, heard


def _rebuilt(table: Table, seed: int = 1) -> SealedSeat:
    """The player's seat rebuilt from its seed, as its program does when the link comes back."""
    seat = SealedSeat(ENGINE, GAME.make_config(2, {}), SEED, PLAYER, stream(b"seat 1 %d" % seed))
    seat.remember(table.seats[PLAYER])
    return seat


def _one_move(table: Table) -> None:
    """The player moves once (the bot answers in between, as the host drives it)."""
    seat = table.seats[PLAYER]
    table.send(PLAYER, seat.act(table.rng.choice(seat.legal_actions())))


def _permutation(answer: list[bytes], logs: list[int]) -> list[int] | None:
    """The permutation of a mask step that masked elements x(k·G) of known k: the host's read."""
    index = {x: j for j, x in enumerate(answer)}
    for guess in logs:
        masked_g = mul(answer[0], inverse(guess))
        perm = [0] * len(answer)
        for i, k in enumerate(logs):
            j = index.get(mul(masked_g, k))
            if j is None:
                break
            perm[j] = i
        else:
            return perm
    return None


def test_a_host_that_rewinds_a_player_to_mask_elements_of_its_choice_is_named() -> None:
    """The host's bot's mask step replaced, in the history sent back, by x(k·G) for k it
    chose: the rebuilt seat would mask them with the mask and permutation it shuffled the real
    deck with, and the host, knowing its bot's permutation too, would read every card of the
    player's hand. The seat remembers the bot's real mask step and names the host."""
    table, heard = _listened()
    table.start()
    setup = heard[0]
    assert isinstance(setup, SealRound) and setup.seats[0] == BOT
    logs = [k + 2 for k in range(len(setup.cards))]
    real = next(m for m in heard if isinstance(m, SealStep) and m.kind == "mask" and m.seat == BOT)
    body = {**real.body, "elements": [commit(k) for k in logs]}
    chosen = table.host.bots[BOT].sign("mask", body, 0)
    seat = _rebuilt(table)
    assert seat.receive(wire(setup)) == []  # the same setup: nothing to say, as before
    answered: list[SealMessage] = []
    with pytest.raises(Caught) as caught:
        answered = seat.receive(wire(chosen))
    assert (caught.value.seat, caught.value.kind) == (HOST, "rewritten")
    assert answered == []
    # A seat that forgot (no record kept) still refuses it: no proof of shuffle can hold for
    # elements that are no shuffle of the cards, so it names the bot that signed it.
    forgetful = SealedSeat(ENGINE, GAME.make_config(2, {}), SEED, PLAYER, stream(b"seat 1 1"))
    forgetful.receive(wire(setup))
    with pytest.raises(Caught) as caught:
        forgetful.receive(wire(chosen))
    assert (caught.value.seat, caught.value.kind) == (BOT, "bad_proof")
    # What the answer would have told the host had the seat checked neither.
    forgetful = SealedSeat(ENGINE, GAME.make_config(2, {}), SEED, PLAYER, stream(b"seat 1 1"))
    forgetful.receive(wire(setup))
    with pytest.MonkeyPatch.context() as unchecked:
        unchecked.setattr(shuffle_proof, "verify", lambda *args: None)
        step = next(m for m in forgetful.receive(wire(chosen)) if isinstance(m, SealStep))
    perm = _permutation(list(step.body["elements"]), logs)
    assert perm is not None
    bots = table.host.bots[BOT].rounds[0].secrets.permutation
    hand = table.seats[PLAYER].driver.rounds[0].hand
    assert {p: setup.cards[bots[perm[p]]] for p in hand} == hand


def test_a_host_that_rewinds_a_player_and_has_its_bot_move_otherwise_is_named() -> None:
    """The bot's move replaced, in the history sent back, by another it signs: the game would
    go otherwise from there (a card the player drew drawn by the bot instead, opened to it with
    the player's real scalar; a game ended early, the player's hand shown). Named at once."""
    table, heard = _listened()
    table.start()
    while not any(isinstance(m, SealActed) and m.seat == BOT for m in heard):
        _one_move(table)
    at = next(i for i, m in enumerate(heard) if isinstance(m, SealActed) and m.seat == BOT)
    acted = heard[at]
    assert isinstance(acted, SealActed)
    other = {"kind": "rest"} if acted.action.get("kind") != "rest" else {"kind": "unknown"}
    signature = table.host.bots[BOT].sign_move(acted.number, other).signature
    forged = SealActed(acted.seq, BOT, other, acted.number, (), signature)
    seat = _rebuilt(table)
    for msg in heard[:at]:
        seat.receive(wire(msg))
    with pytest.raises(Caught) as caught:
        seat.receive(wire(forged))
    assert (caught.value.seat, caught.value.kind) == (HOST, "rewritten")


def test_a_player_back_with_the_true_history_plays_on_and_the_deal_is_verified() -> None:
    """The honest case: the history the host sent, sent again; the rebuilt seat's answers are
    the ones the host took already (dropped here, as the host ignores exact repeats)."""
    table, heard = _listened()
    table.start()
    for _ in range(6):
        _one_move(table)
    seat = _rebuilt(table)
    for msg in list(heard):
        seat.receive(wire(msg))
    assert seat.state.to_data() == table.host.state.to_data()
    table.seats[PLAYER] = seat
    table.play()
    assert seat.verdict == "deal verified"
    assert table.host.verdict == "deal verified"


def test_a_seat_remembers_only_its_own_game() -> None:
    table, _ = _listened()
    other = SealedSeat(ENGINE, GAME.make_config(2, {}), b"o" * 32, PLAYER, stream(b"x"))
    with pytest.raises(ValueError):
        other.remember(table.seats[PLAYER])
