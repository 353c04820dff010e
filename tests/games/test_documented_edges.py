"""The answers docs/games/*.md gives to what a replayer would otherwise guess, held to the code:
the tie-breaks behind `places`, the order of secret lists, Via Gladiola's draws from an empty
pile and its stalemate count, and where Auf Achse's `scored_from` starts around rest cards."""

from __future__ import annotations

import random

import pytest

from netcards.games.auf_achse import GAME as AUF_ACHSE
from netcards.games.auf_achse.cards import KM, LEVEL_CROSSING, REST, house_deck
from netcards.games.auf_achse.scoring import score_run
from netcards.games.velonimo import GAME as VELONIMO
from netcards.games.via_gladiola import GAME as VIA_GLADIOLA
from netcards.games.via_gladiola.actions import PlayGladiola, Rest, Walk
from netcards.games.via_gladiola.cards import FIRST_FINISH, FIRST_GLADIOLA, start_card
from netcards.rng import make_seed
from tests.games.test_via_gladiola import d, kinds, make_state
from tests.games.velonimo_helpers import make_state as velonimo_state

# -- Via Gladiola ---------------------------------------------------------------------------------


def test_via_gladiola_places_by_blisters_then_cards_in_hand() -> None:
    # Blisters (house deck): 5 -> 1, 16 -> 1, 18 -> 0, 6 -> 5, 11 -> 0, 27 -> 0.
    state = make_state([[d(6), d(11)], [d(5)], [d(16), d(18)], [d(6)]], day=4)
    state.over = True
    outcome = VIA_GLADIOLA.outcome(state)
    assert outcome is not None
    assert outcome.scores == (5, 1, 1, 5)
    assert outcome.places == (4, 1, 2, 3), "equal blisters: fewer cards first, at every place"


def test_a_walk_owing_two_cards_from_a_one_card_pile_with_nothing_to_shuffle_draws_one() -> None:
    state = make_state([[d(15), d(1)], [d(2)]], draw=[d(30)], day=2)
    state.finished = [None]
    events = VIA_GLADIOLA.apply(state, 0, Walk(d(15)))
    assert [(e.kind, e.public.get("count")) for e in events] == [("walk", None), ("draw", 1)]
    assert events[0].public["cadence_draws"] == 2


def test_a_walk_owing_cards_from_an_empty_pile_with_nothing_to_shuffle_draws_zero() -> None:
    state = make_state([[d(10), d(1)], [d(2)]], draw=[], day=2)
    state.finished = [None]
    events = VIA_GLADIOLA.apply(state, 0, Walk(d(10)))
    assert [(e.kind, e.public.get("count")) for e in events] == [("walk", None), ("draw", 0)]
    assert events[1].private == {0: {"cards": []}}


def test_a_draw_starting_on_an_empty_pile_is_reshuffle_then_draw() -> None:
    state = make_state([[d(1)], [d(2)]], draw=[], day=2)
    state.finished = [[start_card(1), d(40), d(41)]]
    events = VIA_GLADIOLA.apply(state, 0, Rest())
    assert [(e.kind, e.public.get("count")) for e in events] == [
        ("rest", None),
        ("reshuffle", None),
        ("draw", 1),
    ]


def test_a_day_pile_of_only_its_start_card_is_used_up_without_a_reshuffle_event() -> None:
    state = make_state([[d(1)], [d(2)]], draw=[], day=3)
    state.finished = [[start_card(1)], [start_card(2), d(40)]]
    events = VIA_GLADIOLA.apply(state, 0, Rest())
    assert kinds(events) == ["rest", "reshuffle", "draw"]
    assert events[1].public == {"day": 2, "size": 1}
    assert VIA_GLADIOLA.public_view(state)["reshuffled_days"] == [1, 2]


def test_a_gladiola_resets_the_stalemate_count() -> None:
    gladiola = FIRST_GLADIOLA
    state = make_state([[d(1)], [gladiola, d(2)]], draw=[], day=4)
    state.finished = [None, None, None]
    VIA_GLADIOLA.apply(state, 0, Rest())
    assert state.idle_rests == 1
    VIA_GLADIOLA.apply(state, 1, PlayGladiola(gladiola))
    assert state.idle_rests == 0
    VIA_GLADIOLA.apply(state, 0, Rest())
    assert state.day == 4 and not state.over, "one empty rest since the Gladiola, not two"


def test_a_new_day_starts_its_stalemate_count_at_zero() -> None:
    state = make_state([[d(1)], [d(2)], [d(3)]], day=2, draw=[])
    state.finished = [None]
    VIA_GLADIOLA.apply(state, 0, Rest())
    VIA_GLADIOLA.apply(state, 1, Rest())
    assert state.idle_rests == 2
    state.walk.append(d(40))
    state.hands[2] = [FIRST_FINISH]
    events = VIA_GLADIOLA.apply(state, 2, Walk(FIRST_FINISH))
    assert kinds(events)[-2:] == ["day_end", "day_start"]
    assert state.day == 3 and state.idle_rests == 0
    assert VIA_GLADIOLA.view(state, 0)["idle_rests"] == 0


# -- Velonimo -------------------------------------------------------------------------------------


def _velonimo_over(round_scores: list[list[int]], jersey: int | None) -> object:
    state = velonimo_state([[0], [1], [2], [3]], round_scores=round_scores, jersey=jersey)
    state.over = True
    return VELONIMO.outcome(state)


def test_velonimo_places_by_total_then_last_round_then_the_jersey() -> None:
    # Totals 6, 6, 6, 4; last round 1, 3, 3, 4; seat 2 holds the jersey.
    outcome = _velonimo_over([[5, 3, 3, 0], [1, 3, 3, 4]], jersey=2)
    assert outcome.places == (3, 2, 1, 4)  # type: ignore[attr-defined]
    assert outcome.winners == (2,)  # type: ignore[attr-defined]
    # Without a holder the two equal on both share the place, and the next is skipped.
    outcome = _velonimo_over([[5, 3, 3, 0], [1, 3, 3, 4]], jersey=None)
    assert outcome.places == (3, 1, 1, 4)  # type: ignore[attr-defined]
    assert outcome.winners == (1, 2)  # type: ignore[attr-defined]


def test_velonimo_secret_lists_hands_left_sorted_by_seat_set_aside_in_pile_order() -> None:
    state = VELONIMO.setup(VELONIMO.make_config(3, {"first_player": 0}), make_seed(3))
    record = VELONIMO.deal_record(state)
    assert record["set_aside"] == state.aside and len(state.aside) == 22
    rng = random.Random(3)
    while True:  # random legal moves to the end of round 1
        seat = state.current
        events = VELONIMO.apply(state, seat, rng.choice(VELONIMO.legal_actions(state, seat)))
        ends = [e for e in events if e.kind == "round_end"]
        if ends:
            break
    left = ends[0].secret["hands_left"]
    assert len(left) == 3 and all(h == sorted(h) for h in left)
    assert sum(1 for h in left if h) == 1, "only the seat left holding cards has any"
    start = next(e for e in events if e.kind == "round_start")
    assert start.secret["set_aside"] == state.aside, "pile order, top last"
    assert sorted(start.secret["set_aside"]) != start.secret["set_aside"]


# -- Auf Achse ------------------------------------------------------------------------------------

DECK = house_deck()


def card(kind: int, value: int = 0, skip: int = 0) -> int:
    return [c for c in range(len(DECK.kind)) if DECK.kind[c] == kind and DECK.value[c] == value][
        skip
    ]


@pytest.mark.parametrize(
    ("run", "score", "scored_from", "breaks"),
    [
        ([(KM, 50), (REST, 0), (KM, 30)], 30, 1, [2]),
        ([(KM, 60), (REST, 0), (REST, 0), (KM, 40)], 40, 2, [2]),
        ([(KM, 70), (LEVEL_CROSSING, 0)], 0, 2, [1]),
        ([], 0, 0, []),
        ([(KM, 50), (REST, 0), (REST, 0), (KM, 30), (KM, 20)], 20, 4, [2, 4]),
    ],
)
def test_scored_from_around_rest_cards_as_the_page_says(
    run: list[tuple[int, int]], score: int, scored_from: int, breaks: list[int]
) -> None:
    seen: dict[tuple[int, int], int] = {}
    ids = []
    for kind, value in run:
        ids.append(card(kind, value, seen.get((kind, value), 0)))
        seen[(kind, value)] = seen.get((kind, value), 0) + 1
    result = score_run(ids, DECK.kind, DECK.value).to_data()
    assert result == {"score": score, "scored_from": scored_from, "breaks": breaks}


def test_auf_achse_places_by_total_km_only() -> None:
    state = AUF_ACHSE.setup(AUF_ACHSE.make_config(4), make_seed(1))
    state.history = [{"stage": 1, "total": 0, "runs": [], "scores": [100, 300, 100, 50]}]
    outcome = AUF_ACHSE.standings(state)
    assert outcome.places == (2, 1, 2, 4)
