"""A whole sealed game of Auf Achse as messages: simultaneous choices committed as moves and
opened by signed `choice` steps, odometer cards face down until the rules turn them, every stage
a new sealing round, a reshuffle of the discards another. Every message goes through the sealed
encoder, msgpack and the strict decoder (tests/protocol/test_sealed_game_wire.py's `Table`).

An honest game ends with every program saying `deal verified` and the same public state; an
opening that does not match its commitment, one before every asked seat has committed, a copied
commitment and a choice of a slot not in the hand are refused naming their seat; a host that
alters a commitment it relays cannot pin the mismatch on the seat: the seats name the host."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter, deque
from importlib import resources
from typing import Any

import pytest

from netcards.action import Action
from netcards.games.auf_achse import GAME
from netcards.games.auf_achse.cards import KM, LOST_FREIGHT, REST
from netcards.games.auf_achse.sealed import (
    CommitChoice,
    SealedAufAchse,
    SealedOdometer,
)
from netcards.sealed_cards import is_slot
from netcards.sealed_choices import Opening, digest_items
from protocol.sealed.errors import Caught
from protocol.sealed.messages import SealAct, SealActed, SealMessage, SealReveal
from protocol.sealed.moves import moves_of
from protocol.sealed_play.choices import CHOICE, kept
from protocol.sealed_play.progress import HOST, where
from protocol.sealed_play.seat import SealedSeat
from tests.protocol.sealed_table import stream
from tests.protocol.test_sealed_game_knowledge import BOT, HUMAN, search
from tests.protocol.test_sealed_game_wire import Table, wire

ENGINE = SealedAufAchse()


def fast_deck() -> str:
    """The house deck with nearly every km card worth 120: a stage reaches its target in a round
    or two, so a whole five-stage game takes seconds (the deck is the title's only option that
    shortens a game). The action cards are the house deck's: Level crossings and Free roads
    still come up."""
    text = resources.files("netcards.games.auf_achse").joinpath("house_deck.toml").read_text()
    km = "".join(f"{v} = 1\n" for v in range(10, 120, 10)) + "120 = 66\n"
    return re.sub(r"\[km\]\n.*?\n\n", f"[km]\n{km}\n", text, count=1, flags=re.S)


FAST = fast_deck()


def table(players: int, humans: list[int], seed: int = 1, deck: str | None = FAST) -> Table:
    config = GAME.make_config(players, {} if deck is None else {"deck": deck})
    return Table(players, humans, seed, engine=ENGINE, config=config)


def effects(t: Table) -> Counter[str]:
    return Counter(e.public.get("effect") for e in t.host.mirror.events if e.kind == "reveal")


def check_verified(t: Table) -> None:
    host_state = t.host.state.to_data()
    for seat in t.seats.values():
        assert seat.state.to_data() == host_state
        assert seat.verdict == "deal verified"
        assert seat.openings == t.host.openings
    assert t.host.verdict == "deal verified"
    assert set(t.host.digests.values()) == {t.host.relay.transcript.digest}
    relayed = [s for s in t.host.relay.transcript.steps if s.step.kind == CHOICE]
    assert [kept(s.step) for s in relayed] == t.host.openings
    # Every commitment's nonce is fresh: drawn from its seat's own random bytes, never reused.
    nonces = [body["nonce"] for _, body in t.host.openings]
    assert len(set(nonces)) == len(nonces)


@pytest.mark.parametrize(("players", "humans"), [(2, [0]), (5, [0, 2, 4])])
def test_an_honest_sealed_auf_achse_game_is_played_and_verified_everywhere(
    players: int, humans: list[int]
) -> None:
    t = table(players, humans)
    t.start()
    t.play()
    check_verified(t)
    # Five stages, each its own sealing round of the 109 cards; runs revealed at each end.
    assert len(t.host.state.history) == 5
    assert sum(r.round.size == 109 for r in t.host.relay.rounds.values()) == 5
    # Every commitment was opened, by every asked seat, humans and bots alike.
    commits = [a for a in t.host.actions if a[1]["kind"] == CommitChoice.KIND]
    assert len(commits) == len(t.host.openings) > 0
    assert {s for s, _ in t.host.openings} == set(range(players))


def test_level_crossings_and_free_roads_are_played_through_in_every_program() -> None:
    """The rules turn a Level crossing (every run's last card revealed, whoever's it is) and a
    Free road (a second simultaneous step in the round), and every program still agrees."""
    t = table(2, [0], seed=2)
    t.start()
    t.play()
    check_verified(t)
    seen = effects(t)
    assert seen["level_crossing"] > 0 and seen["free_road"] > 0, seen


def test_a_reshuffle_of_the_discards_is_a_new_sealing_round() -> None:
    """Players who feed the odometer Lost freight, rests and small km hold the total down, so the
    draw pile runs out and the discards are sealed anew; cards of the stage's deal are played
    after that round was sealed."""
    t = table(5, [0, 1, 2, 3, 4], seed=3, deck=None)

    def lazy(s: int, legal: list[Action]) -> Action:
        seat = t.seats[s]
        odometer = [a for a in legal if isinstance(a, SealedOdometer)]
        if not odometer:
            return t.rng.choice(legal)
        deck = seat.state.deck

        def worth(a: SealedOdometer) -> int:
            card = seat.mirror.knowledge.resolve(a.slot)
            return {KM: deck.value[card], REST: 0, LOST_FREIGHT: -1}.get(deck.kind[card], 999)

        return min(odometer, key=worth)

    t.start()
    t.play(lazy)
    check_verified(t)
    sizes = [r.round.size for r in t.host.relay.rounds.values()]
    assert sizes.count(109) == 5 and len(sizes) > 5, sizes


# -- what the host could know ------------------------------------------------------------------


def hidden_places(t: Table) -> dict[tuple[int, int], int]:
    """(round, position) -> card of the human's hand, run, set-aside choice or face-down
    odometer still hidden from everyone."""
    state = t.host.state
    out = {}
    for place in (state.hands, state.runs, state.odometer_down, state.pending):
        for slot in place[HUMAN]:
            if is_slot(slot):
                sealed = state.ledger.round_of(slot)
                p = slot - sealed.first
                out[(sealed.index, p)] = t.seats[HUMAN].driver.rounds[sealed.index].hand[p]
    return out


def test_the_host_names_no_hidden_card_of_the_players_hand_run_or_odometer() -> None:
    """Searched when the host asks for the human's face-down odometer card to be revealed (the
    last moment before it is), in stage 1 and again in a later stage (a new sealing round of
    the same cards): no card of the human's hidden hand, run or odometer turns up in what the
    host holds, round by round, though the bot's cards do."""
    t = table(2, [HUMAN], seed=4)
    searched: list[int] = []

    def observe(to: int, msg: SealMessage) -> SealMessage:
        state = t.host.state
        latest = max(t.host.relay.rounds, default=0)
        asked = isinstance(msg, SealReveal) and any(is_slot(x) for x in state.odometer_down[HUMAN])
        if asked and len(searched) < 2 and (not searched or state.stage > 1):
            hidden = hidden_places(t)
            assert any(is_slot(x) for x in state.runs[HUMAN])
            sample = dict(list(t.host.bots[BOT].rounds[latest].hand.items())[:3])
            for number in {n for n, _ in hidden}:
                positions = {p for n, p in hidden if n == number}
                if number == latest:
                    positions |= set(sample)
                found = search(t, {}, only={number: positions})
                mine = {c for (n, _), c in hidden.items() if n == number}
                assert mine and not found & mine, f"round {number}, move {len(t.host.actions)}"
                if number == latest:
                    assert set(sample.values()) <= found  # what the host may know, it finds
            known = t.host.mirror.knowledge.cards
            assert all(known.get(state.ledger.rounds[n].first + p) is None for n, p in hidden)
            searched.append(latest)
        return msg

    t.tamper = observe
    t.start()
    t.play()
    assert len(searched) == 2 and searched[0] == 0 < searched[1]
    assert t.seats[HUMAN].verdict == "deal verified"


# -- cheats, named ---------------------------------------------------------------------------


def committed(t: Table, seat: int) -> None:
    """`seat` commits a random choice, honestly."""
    s = t.seats[seat]
    t.send(seat, s.act(t.rng.choice(s.legal_actions())))


def test_an_opening_that_does_not_match_its_commitment_is_refused_and_names_its_seat() -> None:
    t = table(2, [0, 1])
    t.start()
    committed(t, 0)
    seat = t.seats[1]
    choice = t.rng.choice(seat.legal_actions())
    sent = seat.act(choice)
    # Seat 1's program would open once its commitment came back; it opens another choice.
    step = ENGINE.choice_step(seat.state)
    opening = seat.mirror.knowledge.openings[(step, 1)]
    other = next(x for x in seat.state.hands[1] if (x,) != opening.items)
    t.host.receive(1, sent[0])
    lie = seat.driver.sign(CHOICE, {"step": step, "slots": [other], "nonce": opening.nonce}, 0)
    moves = len(t.host.actions)
    with pytest.raises(Caught) as caught:
        t.host.receive(1, lie)
    assert (caught.value.seat, caught.value.kind) == (1, "wrong_opening")
    # Nothing taken: seat 1 still has its choice to open, and the game waits for it.
    assert 1 in ENGINE.choice_openings(t.host.state)
    assert len(t.host.actions) == moves and not any(s == 1 for s, _ in t.host.openings)


def test_an_opening_before_every_asked_seat_has_committed_is_refused_and_names_it() -> None:
    t = table(2, [0, 1])
    t.start()
    seat = t.seats[0]
    t.send(0, seat.act(t.rng.choice(seat.legal_actions())))
    assert ENGINE.choice_openings(t.host.state) == []  # seat 1 has not committed
    step = ENGINE.choice_step(seat.state)
    opening = seat.mirror.knowledge.openings[(step, 0)]
    early = seat.driver.sign(
        CHOICE, {"step": step, "slots": list(opening.items), "nonce": opening.nonce}, 0
    )
    with pytest.raises(Caught) as caught:
        t.host.receive(0, early)
    assert (caught.value.seat, caught.value.kind) == (0, "out_of_turn")
    assert t.host.openings == []


def signed_act(seat: SealedSeat, data: dict[str, Any]) -> SealAct:
    """`data` as `seat`'s next move, signed by it (a cheat's program signs what it sends)."""
    number = moves_of(seat.actions, seat.seat) + 1
    return SealAct(data, number, (), seat.driver.sign_move(number, data).signature)


def test_a_copied_commitment_cannot_be_opened_by_the_copier() -> None:
    """Seat 1 sends seat 0's commitment as its own, waits for seat 0's opening and sends it as
    its own: the commitment holds seat 0's number, so it does not match seat 1's opening."""
    t = table(2, [0, 1])
    t.start()
    committed(t, 0)
    step = t.host.state.choices.current
    copied = step.commitments[0]
    t.send(1, [signed_act(t.seats[1], ENGINE.codec.encode(CommitChoice(digest_items(copied))))])
    # Every asked seat has committed: seat 0 opened at once (its program does), seat 1 cannot.
    assert [s for s, _ in t.host.openings] == [0]
    _, body = t.host.openings[0]
    stolen = t.seats[1].driver.sign(CHOICE, dict(body), 0)
    with pytest.raises(Caught) as caught:
        t.host.receive(1, stolen)
    assert (caught.value.seat, caught.value.kind) == (1, "wrong_opening")


def test_a_choice_of_a_slot_not_in_the_hand_is_refused_at_its_opening_naming_the_seat() -> None:
    t = table(2, [0, 1])
    t.start()
    committed(t, 0)
    seat = t.seats[1]
    step = ENGINE.choice_step(seat.state)
    theirs = t.host.state.hands[0][0]
    nonce = bytes(range(32))
    forged = Opening(step, 1, (theirs,), nonce)
    data = ENGINE.codec.encode(CommitChoice(digest_items(forged.commitment())))
    t.send(1, [signed_act(seat, data)])
    body = {"step": step, "slots": [theirs], "nonce": nonce}
    with pytest.raises(Caught) as caught:
        t.host.receive(1, seat.driver.sign(CHOICE, body, 0))
    assert (caught.value.seat, caught.value.kind) == (1, "bad_choice")


def test_a_host_that_alters_a_relayed_commitment_is_named_not_the_seat() -> None:
    """The commitment reaches the seats in the host's `seal_acted`, a move its seat signed: a
    host that changed it is named at once (`forged`), never the seat whose honest opening
    would no longer match."""
    t = table(2, [0], seed=2)

    def alter(to: int, msg: SealMessage) -> SealMessage:
        if isinstance(msg, SealActed) and msg.seat == BOT and msg.action["kind"] == "commit":
            changed = [(b + 1) % 256 for b in msg.action["commitment"]]
            return dataclasses.replace(msg, action={**msg.action, "commitment": changed})
        return msg

    t.tamper = alter
    with pytest.raises(Caught) as caught:
        t.start()
        t.play()
    assert (caught.value.seat, caught.value.kind) == (HOST, "forged")


def test_a_seat_rebuilt_after_it_committed_finds_its_choice_again_and_opens_it() -> None:
    """A player's program restarts between its commitment and the openings: the choice was in
    memory only. Rebuilt from the same secret stream and the messages the host sent it, it
    derives the same nonce, finds which of its slots it had committed to, and opens them."""
    t = table(2, [0, 1])
    sent_to_0: list[SealMessage] = []

    def record(to: int, msg: SealMessage) -> SealMessage:
        if to == 0:
            sent_to_0.append(msg)
        return msg

    t.tamper = record
    t.start()
    committed(t, 0)
    before = t.seats[0]
    step = ENGINE.choice_step(before.state)
    chosen = before.mirror.knowledge.openings[(step, 0)]
    rebuilt = SealedSeat(ENGINE, before.config, before.public_seed, 0, stream(b"seat 0 1"))
    for msg in sent_to_0:
        rebuilt.receive(msg)  # its replies were sent and taken before: the host has them
    assert (step, 0) not in rebuilt.mirror.knowledge.openings
    t.seats[0] = rebuilt
    committed(t, 1)
    assert (0, {"step": step, "slots": list(chosen.items), "nonce": chosen.nonce}) in [
        (s, dict(body)) for s, body in t.host.openings
    ]
    t.tamper = lambda to, msg: msg
    t.play()
    check_verified(t)


def test_a_host_that_shows_two_seats_the_commitments_in_other_orders_is_named() -> None:
    """Both players commit to their first run card at once; the host tells seat 0 the moves in
    the order it took them and seat 1 in the other order (renumbered: `seq` is the host's word).
    Each order is one a host could have taken, and each seat's state ends the same, so no step
    that follows differs; but every move is in every transcript, so the digests differ and
    every audit names the host."""
    t = table(3, [0, 1])
    t.start()
    sent = {s: t.seats[s].act(t.rng.choice(t.seats[s].legal_actions())) for s in (0, 1)}
    assert all(len(m) == 1 and isinstance(m[0], SealAct) for m in sent.values())
    out = [o for s in (0, 1) for o in t.host.receive(s, wire(sent[s][0]))]
    acted = [m for to, m in out if to == 1 and isinstance(m, SealActed)]
    first, second = acted[0], acted[1]
    assert {first.seat, second.seat} == {0, 1}
    swapped = {
        id(first): dataclasses.replace(second, seq=first.seq),
        id(second): dataclasses.replace(first, seq=second.seq),
    }
    queue = deque((to, swapped.get(id(m), m) if to == 1 else m) for to, m in out)
    t.run(queue)
    t.play()
    for seat in t.seats.values():
        assert seat.finding is not None and (seat.finding.seat, seat.finding.kind) == (
            HOST,
            "equivocated",
        )


def test_a_host_that_asks_for_a_run_card_not_yet_due_is_named_and_told_nothing() -> None:
    """The rules show a face-down run card only under a Level crossing (the run's last card) or
    at a stage's end. A modified host slips a player's other face-down run cards into the
    `seal_reveal` of a reveal the rules do ask for (the next odometer card, or a Level
    crossing's last cards): the player's program shows only what its own engine asks, so it
    names the host before it sends any scalar."""
    t = table(2, [HUMAN], seed=2)
    slipped: list[tuple[int, tuple[int, ...]]] = []

    def slip(to: int, msg: SealMessage) -> SealMessage:
        state = t.host.state
        if to != HUMAN or not isinstance(msg, SealReveal) or state.stage_end is not None:
            return msg
        due = set(ENGINE.to_reveal(state).get(HUMAN, ()))
        first = state.ledger.rounds[msg.round].first
        hidden = [
            x - first
            for x in state.runs[HUMAN]
            if is_slot(x) and x not in due and where(state, x)[0] == msg.round
        ]
        if not hidden or slipped:
            return msg
        slipped.append((msg.round, tuple(hidden)))
        return SealReveal(msg.round, (*msg.positions, *hidden))

    t.tamper = slip
    t.start()
    with pytest.raises(Caught) as caught:
        t.play()
    assert slipped, "no reveal was asked while the player held a face-down run card"
    assert (caught.value.seat, caught.value.kind) == (HOST, "unrequested")
    # Nothing of the slipped run cards was sent: no scalar of them reached the host.
    number, positions = slipped[0]
    published = t.host.relay.rounds[number].round.scalars.get(HUMAN, {})
    assert not set(positions) & set(published)
