"""The outside client's rules (tests/outsider/sealed_titles.py, written from the game pages'
sections "At a sealed table") step for step beside the title's sealed engine, over whole games
with every card known (no cryptography: the steps are said done as the engine asks for them):
at every point both ask for the same rounds with the same cards, the same openings in the same
order, the same shows and reveals, the same draws and choice openings, and the same seats to act.
Auf Achse with 2 to 5 players, Level crossings, Free roads and reshuffles of the discards; the
Velonimo duel with its steals, give-backs, water carriers and rewards."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from netcards.action import Action
from netcards.games.auf_achse.sealed import SealedAufAchse, SealedOdometer
from netcards.games.velonimo.sealed import SealedVelonimo
from netcards.registry import get_game
from netcards.sealed_cards import Knowledge, is_slot
from netcards.sealed_game import public_seed
from tests.outsider.sealed_titles import AufAchse, Model, VelonimoDuel
from tests.outsider.test_sealed_outside_client import FAST_DECK


class Done:
    """The steps the engine asked for, said done (what a seat's rounds would show)."""

    def __init__(self, truth: Knowledge) -> None:
        self.truth = truth
        self.rounds: set[int] = set()
        self.opened: set[tuple[int, int]] = set()
        self.shown_slots: set[int] = set()
        self.values: list[bytes] = []

    def sealed(self, number: int) -> bool:
        return number in self.rounds

    def opened_to(self, seat: int, slot: int) -> bool:
        return (seat, slot) in self.opened

    def shown(self, slot: int) -> int | None:
        return self.truth.resolve(slot) if slot in self.shown_slots else None

    def own(self, slot: int) -> int:
        return self.truth.resolve(slot)

    def draw_value(self, draw: int) -> bytes | None:
        return self.values[draw] if draw < len(self.values) else None


def same(engine: Any, state: Any, model: Model) -> None:
    """Everything a seat reads off the rules, the same in the engine and the client's model."""
    ledger = state.ledger
    assert model.rounds == [(r.first, list(r.cards)) for r in ledger.rounds]
    assert model.unsealed == ledger.unsealed
    assert model.to_open == list(engine.to_open(state))
    assert model.to_show == list(getattr(engine, "to_show", lambda s: [])(state))
    assert model.to_reveal == [x for _, xs in sorted(engine.to_reveal(state).items()) for x in xs]
    assert model.draws_asked - model.draws_done == ledger.draws
    assert model.over == (engine.outcome(state) is not None)
    openings = engine.choice_openings(state) if hasattr(engine, "choice_openings") else []
    assert model.choices_due() == openings
    acting = set(engine.to_act(state)) if ledger.ready() and not openings else set()
    assert model.acting() == acting


def lazy(
    cards: list[dict[str, Any]], truth: Knowledge, legal: list[Action], rng: random.Random
) -> Action:
    """Feed the odometer what holds the total down (a Rest, a Lost freight, the smallest km),
    so that the draw pile runs out and the discards are sealed anew."""
    odometer = [a for a in legal if isinstance(a, SealedOdometer)]
    if not odometer:
        return rng.choice(legal)

    def weight(action: SealedOdometer) -> int:
        card = cards[truth.resolve(action.slot)]
        return {"rest": 0, "lost_freight": -50}.get(card["kind"], card["value"] or 1000)

    return min(odometer, key=weight)


def drive(engine: Any, model: Model, state: Any, rng: random.Random, slow: bool = False) -> Any:
    truth = Knowledge()
    done = Done(truth)
    for _ in range(20000):
        same(engine, state, model)
        requests = engine.seal_requests(state)
        if requests:
            r = requests[0]
            truth.cards.update(
                (r.first + j, c) for j, c in enumerate(rng.sample(r.cards, len(r.cards)))
            )
            engine.sealed(state, r.index)
            done.rounds.add(r.index)
        elif engine.to_open(state):
            by_seat: dict[int, list[int]] = {}
            for seat, slot in engine.to_open(state):
                by_seat.setdefault(seat, []).append(slot)
                done.opened.add((seat, slot))
            for seat, slots in by_seat.items():
                engine.opened(state, seat, slots)
        elif getattr(engine, "to_show", lambda s: [])(state):
            for slot in engine.to_show(state):
                done.shown_slots.add(slot)
                engine.show(state, slot, truth.resolve(slot), truth)
        elif engine.to_reveal(state):
            for seat, slots in sorted(engine.to_reveal(state).items()):
                done.shown_slots.update(slots)
                engine.reveal_hand(state, seat, {s: truth.resolve(s) for s in slots}, truth)
        elif state.ledger.draws:
            value = rng.randbytes(32)
            done.values.append(value)
            engine.drawn(state, value, truth)
        elif hasattr(engine, "choice_openings") and engine.choice_openings(state):
            for seat in engine.choice_openings(state):
                opening = engine.opening(state, seat, truth)
                engine.reveal_choice(state, seat, opening.items, opening.nonce, truth)
                body = {"step": opening.step, "slots": list(opening.items), "nonce": opening.nonce}
                assert isinstance(model, AufAchse)
                model.take_choice(seat, body)
        elif engine.outcome(state) is not None:
            return state
        else:
            seat = min(engine.to_act(state))
            legal = engine.legal_actions(state, seat, truth)
            chosen = lazy(model.cards, truth, legal, rng) if slow else rng.choice(legal)
            if isinstance(engine, SealedAufAchse):
                action = engine.seal_action(state, seat, chosen, truth, nonce=rng.randbytes(32))
            else:
                action = engine.seal_action(state, seat, chosen, truth)
            data = engine.codec.encode(action)
            engine.apply(state, seat, action, truth)
            model.apply(seat, data)
        model.settle(done)
    raise AssertionError("the game did not end")


SEED = hashlib.sha256(b"outsider").digest()


@pytest.mark.parametrize(
    ("players", "deck", "slow"),
    [(2, FAST_DECK, False), (3, None, False), (5, None, True), (4, FAST_DECK, True)],
    ids=["2-fast", "3-house", "5-house-slow", "4-fast-slow"],
)
@pytest.mark.parametrize("seed", [1, 2])
def test_auf_achse_s_page_is_the_engine(
    players: int, deck: str | None, slow: bool, seed: int
) -> None:
    engine = SealedAufAchse()
    options = {} if deck is None else {"deck": deck}
    config = get_game("auf-achse").make_config(players, options)
    public = public_seed(bytes([seed]) * 32, {0: bytes(32)})
    state = engine.setup(config, public)
    cards = get_game("auf-achse").cards(config)
    model = AufAchse(players, 0, cards, state.first_player)
    state = drive(engine, model, state, random.Random(seed), slow)
    assert len(state.history) == 5 and model.stage == 5
    if deck is None:  # the house deck's long stages turn Level crossings and Free roads over
        assert model.turned.get("level_crossing", 0) and model.turned.get("free_road", 0)
    if slow and deck is None:
        assert len(state.ledger.rounds) > 5, "the discards were sealed anew"


@pytest.mark.parametrize("seed", range(4))
def test_the_velonimo_duel_s_page_is_the_engine(seed: int) -> None:
    engine = SealedVelonimo()
    options = {"difficulties": [1, 2, 3]}
    config = get_game("velonimo").make_config(2, options)
    state = engine.setup(config, public_seed(bytes([seed]) * 32, {}))
    cards = get_game("velonimo").cards(config)
    model = VelonimoDuel(0, cards, options, state.first_player)
    drive(engine, model, state, random.Random(seed))
    assert model.totals == list(engine.outcome(state).scores)
    assert model.steals == model.draws_done > 0
    assert any(is_slot(x) for x in state.draw) or not state.draw
