"""Auf Achse: one named test per rule of the sheet and of our decisions."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from netcards.bots.registry import make_bot
from netcards.errors import BadConfig, BadDeck, IllegalAction, NotYourTurn
from netcards.event import Event
from netcards.games.auf_achse import GAME, flow
from netcards.games.auf_achse.actions import AddToRun, FreeRoad, PlayOdometer
from netcards.games.auf_achse.cards import (
    CARD_COUNT,
    COMPLETELY_FREE_ROAD,
    FREE_ROAD,
    KM,
    LEVEL_CROSSING,
    LOST_FREIGHT,
    REST,
    house_deck,
    house_deck_text,
)
from netcards.games.auf_achse.scoring import EMPTY_RUN, extend_run, run_state, score_run
from netcards.games.auf_achse.state import AAState
from netcards.rng import make_seed
from netcards.simulate import simulate
from tests.engine.support import packed

DECK = house_deck()


def _ids(kind: int, value: int = 0) -> list[int]:
    return [c.id for c in DECK.cards if c.kind == kind and (kind != KM or c.value == value)]


def km(value: int, nth: int = 0) -> int:
    """The id of the `nth` km card of `value`."""
    return _ids(KM, value)[nth]


def rest(nth: int = 0) -> int:
    return _ids(REST)[nth]


def lost(nth: int = 0) -> int:
    return _ids(LOST_FREIGHT)[nth]


def crossing(nth: int = 0) -> int:
    return _ids(LEVEL_CROSSING)[nth]


def free(nth: int = 0) -> int:
    return _ids(FREE_ROAD)[nth]


def free2(nth: int = 0) -> int:
    return _ids(COMPLETELY_FREE_ROAD)[nth]


def arrange(
    hands: list[list[int]],
    *,
    runs: list[list[int]] | None = None,
    draw: list[int] | None = None,
    discard: list[int] | None = None,
    total: int = 0,
    first: int = 0,
    stage: int = 1,
) -> AAState:
    """A state at the start of a round holding exactly these cards; every other card goes to
    the draw pile, or (when `draw` is given) face up on the odometer, where nobody can draw it."""
    players = len(hands)
    state = GAME.setup(GAME.make_config(players, {"first_player": first}), make_seed(3))
    placed = [c for h in hands for c in h] + [c for r in runs or [] for c in r]
    placed += list(draw or []) + list(discard or [])
    assert len(placed) == len(set(placed))
    leftover = [c for c in range(CARD_COUNT) if c not in set(placed)]
    state.hands = [list(h) for h in hands]
    state.runs = [list(r) for r in runs] if runs else [[] for _ in hands]
    state.discard = list(discard or [])
    state.draw = list(draw) if draw is not None else leftover
    state.odometer_km = leftover if draw is not None else []
    state.total = total
    state.stage = stage
    state.first_player = first
    state.round = 0
    flow.start_round(state, [])
    check_conservation(state)
    return state


def check_conservation(state: AAState) -> None:
    cards = [c for place in GAME.locations(state).values() for c in place]
    assert sorted(cards) == list(range(CARD_COUNT))


def play_round(state: AAState, run_cards: list[int], odometer_cards: list[int]) -> list[Event]:
    """Everybody adds `run_cards[seat]`, then the odometer gets `odometer_cards[seat]` in turn."""
    events: list[Event] = []
    for seat, card in enumerate(run_cards):
        events += GAME.apply(state, seat, AddToRun(card))
    for seat in flow.seats_from(state.first_player, state.players):
        events += GAME.apply(state, seat, PlayOdometer(odometer_cards[seat]))
    return events


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def _filler_pool() -> list[int]:
    pool = [km(10, i) for i in range(8)] + [km(100, i) for i in range(5)]
    for value, count in ((110, 4), (120, 3), (90, 5), (80, 5)):
        pool += [km(value, i) for i in range(1, count + 1)]
    return pool


FILLER = _filler_pool()  # cards no test names: the 10s first, then high ones


def filler(n: int, start: int = 0) -> list[int]:
    """`n` km cards nobody in a test cares about, from position `start` of the pool."""
    return FILLER[start : start + n]


# -- scoring a run ---------------------------------------------------------------------------------


def score(*cards: int) -> Any:
    return score_run(list(cards), DECK.kind, DECK.value)


def test_complete_run_20_40_50_70_80_120_scores_380() -> None:
    result = score(km(20), km(40), km(50), km(70), km(80), km(120))
    assert (result.score, result.start, result.breaks) == (380, 0, ())


def test_equal_values_break_30_50_40_60_60_70_90_scores_220() -> None:
    result = score(km(30), km(50), km(40), km(60), km(60, 1), km(70), km(90))
    assert result.score == 60 + 70 + 90
    assert result.breaks == (2, 4)
    assert result.start == 4


def test_rest_cards_inside_a_run_are_valid_and_worth_nothing() -> None:
    result = score(km(20), rest(0), km(40), rest(1), km(60))
    assert (result.score, result.start, result.breaks) == (120, 0, ())


def test_a_km_card_after_a_rest_must_beat_the_km_card_before_it() -> None:
    result = score(km(50), rest(), km(40))
    assert result.breaks == (2,)
    assert result.start == 1  # the rest card may begin the scored part; it is worth 0
    assert result.score == 40


def test_two_adjacent_rest_cards_are_a_break() -> None:
    result = score(km(20), km(40), rest(0), rest(1), km(50), km(60))
    assert result.breaks == (3,)
    assert result.score == 110


def test_an_action_card_in_a_run_is_a_break_worth_nothing() -> None:
    result = score(km(20), km(40), crossing(), km(30), km(50))
    assert result.breaks == (2,)
    assert (result.start, result.score) == (3, 80)
    assert score(km(20), km(40), free()).score == 0


def test_an_empty_run_scores_zero() -> None:
    assert score().score == 0
    assert score(rest()).score == 0


def test_adding_cards_one_at_a_time_scores_as_the_whole_run() -> None:
    """Bots try cards on a run incrementally; it must agree with scoring the run whole."""
    rng = random.Random(5)
    for _ in range(500):
        run = rng.sample(range(CARD_COUNT), rng.randrange(0, 12))
        at = EMPTY_RUN
        for length, card in enumerate(run, 1):
            at = extend_run(at, card, DECK.kind, DECK.value)
            whole = score_run(run[:length], DECK.kind, DECK.value)
            assert at == (whole.score, whole.last_km, whole.ends_with_rest)
        assert run_state(run, DECK.kind, DECK.value) == at


# -- the round ------------------------------------------------------------------------------------


def test_deal_ten_cards_each_and_the_first_player_option() -> None:
    for players in range(2, 6):
        state = GAME.setup(GAME.make_config(players, {"first_player": 1}), make_seed(players))
        assert [len(h) for h in state.hands] == [10] * players
        assert len(state.draw) == CARD_COUNT - 10 * players
        assert state.first_player == 1
        assert GAME.to_act(state) == frozenset(range(players))
    firsts = {GAME.setup(GAME.make_config(3), make_seed(s)).first_player for s in range(30)}
    assert firsts == {0, 1, 2}


def test_player_count_outside_2_to_5_is_refused() -> None:
    for players in (1, 6):
        with pytest.raises(BadConfig):
            GAME.make_config(players)


def test_every_player_chooses_a_run_card_at_once_and_any_card_may_be_added() -> None:
    state = arrange([[km(120), *filler(9)], [crossing(), *filler(9, 9)]])
    assert GAME.to_act(state) == {0, 1}
    GAME.apply(state, 1, AddToRun(crossing()))
    assert GAME.to_act(state) == {0}
    assert state.runs == [[], []]  # hidden and unresolved until everybody has chosen
    events = GAME.apply(state, 0, AddToRun(km(120)))
    assert state.runs == [[km(120)], [crossing()]]
    assert "runs_added" in kinds(events)
    assert state.phase == "odometer" and GAME.to_act(state) == {0}


def test_odometer_cards_go_down_in_turn_from_the_first_player() -> None:
    state = arrange(
        [filler(10), filler(10, 10), [km(20, i) for i in range(8)] + filler(2, 20)], first=2
    )
    for seat in range(3):
        GAME.apply(state, seat, AddToRun(state.hands[seat][0]))
    order = []
    while state.phase == "odometer":
        (seat,) = GAME.to_act(state)
        order.append(seat)
        GAME.apply(state, seat, PlayOdometer(state.hands[seat][0]))
    assert order == [2, 0, 1]


def test_a_km_card_adds_to_the_total_and_stays_face_up() -> None:
    state = arrange([[km(70), km(50), *filler(8)], [km(30), km(40), *filler(8, 8)]])
    events = play_round(state, [km(50), km(30)], [km(70), km(40)])
    reveals = [e.public for e in events if e.kind == "reveal"]
    assert [(r["seat"], r["effect"], r["total"]) for r in reveals] == [
        (0, "km", 70),
        (1, "km", 110),
    ]
    assert state.total == 110 and state.odometer_km == [km(70), km(40)]


def test_a_rest_card_on_the_odometer_is_discarded() -> None:
    state = arrange([[rest(), km(50), *filler(8)], [km(30), km(40), *filler(8, 8)]], total=20)
    play_round(state, [km(50), km(30)], [rest(), km(40)])
    assert state.total == 60 and rest() in state.discard


def test_lost_freight_takes_50_km_off_the_total() -> None:
    state = arrange([[lost(), km(50), *filler(8)], [km(30), km(40), *filler(8, 8)]], total=60)
    events = play_round(state, [km(50), km(30)], [lost(), km(40)])
    assert state.total == 60 - 50 + 40
    assert lost() in state.discard
    assert [e.public.get("km_lost") for e in events if e.kind == "reveal"] == [50, None]


def test_lost_freight_never_takes_the_total_below_zero() -> None:
    state = arrange([[lost(0), km(50), *filler(8)], [lost(1), km(30), *filler(8, 8)]], total=30)
    events = play_round(state, [km(50), km(30)], [lost(0), lost(1)])
    assert state.total == 0
    assert [e.public["km_lost"] for e in events if e.kind == "reveal"] == [30, 0]


def test_level_crossing_discards_the_last_card_of_every_run() -> None:
    state = arrange(
        [
            [crossing(), km(90), *filler(8)],
            [km(40), *filler(9, 8)],
            [km(20, i) for i in range(8)] + [km(30, 0), km(30, 1)],
        ],
        runs=[[km(60)], [], []],
    )
    play_round(state, [km(90), km(40), km(30, 0)], [crossing(), filler(1, 9)[0], km(30, 1)])
    assert state.runs == [[km(60)], [], []]
    assert state.discard[:4] == [km(90), km(40), km(30, 0), crossing()]


def test_level_crossing_leaves_an_empty_run_empty() -> None:
    # Seat 2 has no card left (both piles are empty), so its run stays empty this round.
    state = arrange([[crossing(), *filler(3)], filler(4, 3), []], runs=[[], [km(50)], []], draw=[])
    assert GAME.to_act(state) == {0, 1}
    GAME.apply(state, 0, AddToRun(filler(1)[0]))
    GAME.apply(state, 1, AddToRun(filler(1, 3)[0]))
    events = GAME.apply(state, 0, PlayOdometer(crossing()))
    events += GAME.apply(state, 1, PlayOdometer(filler(1, 4)[0]))
    reveal = next(e for e in events if e.kind == "reveal")
    assert reveal.public["removed"] == [filler(1)[0], filler(1, 3)[0], None]
    assert state.runs == [[], [km(50)], []]


def test_free_road_pauses_until_every_player_has_added_one_card() -> None:
    state = arrange([[free(), km(20), km(90), *filler(7)], [km(30), km(40), km(60), *filler(7, 7)]])
    events = play_round(state, [km(20), km(30)], [free(), km(40)])
    assert state.phase == "free_road" and state.need == [1, 1]
    assert GAME.to_act(state) == {0, 1}
    assert state.resolving == [free()]
    assert [e.public["effect"] for e in events if e.kind == "reveal"] == ["free_road"]
    GAME.apply(state, 1, FreeRoad((km(60),)))
    assert state.runs[1] == [km(30)]  # still pending
    events = GAME.apply(state, 0, FreeRoad((km(90),)))
    assert state.runs == [[km(20), km(90)], [km(30), km(60)]]
    assert free() in state.discard and not state.resolving
    # the reveal then goes on with seat 1's km card
    assert [e.public["effect"] for e in events if e.kind == "reveal"] == ["km"]
    assert state.total == 40


def test_completely_free_road_adds_two_cards_in_the_chosen_order() -> None:
    state = arrange(
        [
            [free2(), km(20), km(90), km(110), *filler(6)],
            [km(30), km(40), km(60), km(70), *filler(6, 6)],
        ]
    )
    play_round(state, [km(20), km(30)], [free2(), km(40)])
    assert state.need == [2, 2]
    with pytest.raises(IllegalAction, match="exactly 2 cards"):
        GAME.apply(state, 0, FreeRoad((km(90),)))
    GAME.apply(state, 0, FreeRoad((km(110), km(90))))
    GAME.apply(state, 1, FreeRoad((km(60), km(70))))
    assert state.runs == [[km(20), km(110), km(90)], [km(30), km(60), km(70)]]


def test_free_road_asks_fewer_cards_from_a_short_hand_and_none_from_an_empty_one() -> None:
    state = arrange(
        [[free2(), km(20), km(90)], [km(30), km(40), km(50)], [km(60), km(70)]], draw=[]
    )
    events = play_round(state, [km(20), km(30), km(60)], [free2(), km(40), km(70)])
    assert state.phase == "free_road"
    assert state.need == [1, 1, 0]
    assert GAME.to_act(state) == {0, 1}
    GAME.apply(state, 0, FreeRoad((km(90),)))
    events = GAME.apply(state, 1, FreeRoad((km(50),)))
    assert "free_road_added" in kinds(events)


def test_free_road_with_no_cards_in_any_hand_does_not_pause() -> None:
    state = arrange([[free(), km(20)], [km(30), km(40)]], draw=[])
    events = play_round(state, [km(20), km(30)], [free(), km(40)])
    assert [e.public["effect"] for e in events if e.kind == "reveal"] == ["free_road", "km"]
    assert "free_road_chosen" not in kinds(events)
    assert state.phase == "run" and state.runs == [[km(20)], [km(30)]]
    assert state.hands == [[free()], []]  # discarded, then drawn again from the reshuffle


def test_several_free_roads_in_one_round_each_pause() -> None:
    state = arrange([[free(0), *filler(9)], [free(1), *filler(9, 9)]])
    GAME.apply(state, 0, AddToRun(filler(1)[0]))
    GAME.apply(state, 1, AddToRun(filler(1, 9)[0]))
    GAME.apply(state, 0, PlayOdometer(free(0)))
    GAME.apply(state, 1, PlayOdometer(free(1)))
    assert state.phase == "free_road" and state.resolving == [free(0)]
    GAME.apply(state, 0, FreeRoad((state.hands[0][0],)))
    GAME.apply(state, 1, FreeRoad((state.hands[1][0],)))
    assert state.phase == "free_road" and state.resolving == [free(1)]
    GAME.apply(state, 0, FreeRoad((state.hands[0][0],)))
    GAME.apply(state, 1, FreeRoad((state.hands[1][0],)))
    assert state.phase == "run" and [len(r) for r in state.runs] == [3, 3]


# -- the end of a round and of a stage ---------------------------------------------------------------


def test_below_the_target_everyone_refills_to_ten_from_the_first_player() -> None:
    state = arrange([[km(70), km(50), *filler(8)], [km(30), km(40), *filler(8, 8)]], first=1)
    events = play_round(state, [km(50), km(30)], [km(70), km(40)])
    assert state.total == 110 and state.stage == 1
    refills = [e.public["seat"] for e in events if e.kind == "refill"]
    assert refills == [1, 0]
    assert [len(h) for h in state.hands] == [10, 10]
    drawn = [e for e in events if e.kind == "refill"]
    assert all(set(e.private) == {e.public["seat"]} for e in drawn)


def test_the_first_player_card_passes_left_after_each_round() -> None:
    state = arrange(
        [filler(10), filler(10, 10), [km(20, i) for i in range(8)] + filler(2, 20)], first=2
    )
    play_round(state, [h[0] for h in state.hands], [h[1] for h in state.hands])
    assert state.first_player == 0
    for seat in range(3):
        GAME.apply(state, seat, AddToRun(state.hands[seat][0]))
    assert GAME.to_act(state) == {0}


def test_the_stage_ends_exactly_when_the_target_is_reached_at_the_end_of_a_round() -> None:
    # 2 players: 150 km. 70 + 80 = 150 ends the stage.
    state = arrange([[km(70), km(20), *filler(8)], [km(80), km(30), *filler(8, 8)]])
    events = play_round(state, [km(20), km(30)], [km(70), km(80)])
    assert "stage_end" in kinds(events) and state.stage == 2
    # 70 + 70 = 140 does not.
    state = arrange([[km(70), km(20), *filler(8)], [km(70, 1), km(30), *filler(8, 8)]])
    events = play_round(state, [km(20), km(30)], [km(70), km(70, 1)])
    assert "stage_end" not in kinds(events) and state.stage == 1 and state.round == 2


def test_reaching_the_target_mid_round_does_not_count_if_lost_freight_follows() -> None:
    state = arrange([[km(120), km(20), *filler(8)], [lost(), km(30), *filler(8, 8)]], total=40)
    events = play_round(state, [km(20), km(30)], [km(120), lost()])
    assert [e.public["total"] for e in events if e.kind == "reveal"] == [160, 110]
    assert "stage_end" not in kinds(events) and state.stage == 1


@pytest.mark.parametrize(("players", "target"), [(2, 150), (3, 200), (4, 250), (5, 300)])
def test_stage_targets(players: int, target: int) -> None:
    state = GAME.setup(GAME.make_config(players), make_seed(1))
    assert GAME.public_view(state)["target"] == target


def test_stage_end_scores_runs_from_the_first_player_and_starts_the_next_stage() -> None:
    runs = [[km(20), km(40)], [km(30), km(50), km(40, 1)]]
    state = arrange(
        [[km(70), km(60), *filler(8)], [km(80), km(90), *filler(8, 8)]], runs=runs, first=1
    )
    events = play_round(state, [km(60), km(90)], [km(70), km(80)])
    end = next(e for e in events if e.kind == "stage_end")
    assert [r["seat"] for r in end.public["runs"]] == [1, 0]
    assert end.public["scores"] == [20 + 40 + 60, 40 + 90]
    assert end.public["runs"][0]["breaks"] == [2]
    assert end.public["runs"][0]["cards"] == [km(30), km(50), km(40, 1), km(90)]
    # the next stage: everything gathered and dealt again, odometer at 0, next first player
    assert state.stage == 2 and state.first_player == 0
    assert state.total == 0 and state.odometer_km == [] and state.discard == []
    assert state.runs == [[], []] and [len(h) for h in state.hands] == [10, 10]
    assert len(state.draw) == CARD_COUNT - 20
    assert GAME.public_view(state)["stage_results"][0]["scores"] == [120, 130]
    check_conservation(state)
    start = next(e for e in events if e.kind == "stage_start")
    assert start.private[0]["hand"] == sorted(state.hands[0])
    assert start.secret["draw_pile_top_last"] == state.draw


def test_an_empty_draw_pile_is_rebuilt_from_the_shuffled_discards() -> None:
    old_discards = [rest(0), rest(1), rest(2)]
    state = arrange(
        [[km(70), km(20), *filler(8)], [lost(), km(30), *filler(8, 8)]],
        draw=[km(110)],
        discard=old_discards,
    )
    events = play_round(state, [km(20), km(30)], [km(70), lost()])
    reshuffle = next(e for e in events if e.kind == "reshuffle")
    assert reshuffle.public == {"size": 4}
    assert sorted(reshuffle.secret["draw_pile_top_last"]) == sorted([*old_discards, lost()])
    assert "draw_pile_top_last" not in reshuffle.for_seat(0)
    assert [len(h) for h in state.hands] == [10, 10]
    assert state.discard == []
    assert sorted(state.hands[0][-2:] + state.hands[1][-2:] + state.draw) == sorted(
        [km(110), *old_discards, lost()]
    )
    check_conservation(state)


def test_with_both_piles_empty_players_draw_what_they_can() -> None:
    state = arrange([[km(70), km(20), *filler(8)], [rest(), km(30), *filler(8, 8)]], draw=[km(110)])
    play_round(state, [km(20), km(30)], [km(70), rest()])
    # seat 0 (first player) draws the last card, then the rest card from the reshuffled discards
    assert [len(h) for h in state.hands] == [10, 8]
    assert state.draw == [] and state.discard == []
    check_conservation(state)


def test_a_stage_with_no_card_left_in_any_hand_ends() -> None:
    state = arrange([[km(20), km(70)], [km(30), km(40)]], draw=[])
    events = play_round(state, [km(20), km(30)], [km(70), km(40)])
    assert state.total == 0 and state.stage == 2
    end = next(e for e in events if e.kind == "stage_end")
    assert end.public["reason"] == "no_cards" and end.public["total"] == 110


def test_a_stage_ends_after_the_round_limit() -> None:
    state = arrange([[lost(0), *filler(9)], [lost(1), *filler(9, 9)]])
    state.round = flow.ROUND_LIMIT
    events = play_round(state, [state.hands[0][1], state.hands[1][1]], [lost(0), lost(1)])
    end = next(e for e in events if e.kind == "stage_end")
    assert end.public["reason"] == "round_limit"


# -- the end of the game ----------------------------------------------------------------------------


def _stage_record(stage: int, scores: list[int]) -> dict[str, Any]:
    return {
        "stage": stage,
        "reason": "target",
        "rounds": 2,
        "total": 150,
        "target": 150,
        "first_player": 0,
        "scores": scores,
        "runs": [
            {"seat": s, "cards": [], "score": v, "scored_from": 0, "breaks": []}
            for s, v in enumerate(scores)
        ],
    }


def test_after_stage_5_the_sum_of_the_five_run_scores_wins() -> None:
    state = arrange(
        [[km(70), km(40), *filler(8)], [km(80), km(50), *filler(8, 8)]],
        runs=[[km(20)], [km(30)]],
        stage=5,
    )
    state.history = [_stage_record(i + 1, [100, 130]) for i in range(4)]
    events = play_round(state, [km(40), km(50)], [km(70), km(80)])
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.scores == (400 + 20 + 40, 520 + 30 + 50)
    assert outcome.winners == (1,) and outcome.places == (2, 1)
    assert outcome.detail["stage_scores"][4] == [60, 80]
    assert len(outcome.detail["stage_scores"]) == 5
    assert GAME.to_act(state) == frozenset()
    assert kinds(events)[-1] == "game_end"
    with pytest.raises(IllegalAction, match="over"):
        GAME.apply(state, 0, AddToRun(state.hands[0][0]))


def test_a_tie_after_stage_5_is_a_shared_win() -> None:
    state = arrange(
        [[km(70), km(40), *filler(8)], [km(80), km(50), *filler(8, 8)]],
        runs=[[km(20)], [km(30)]],
        stage=5,
    )
    state.history = [_stage_record(i + 1, [105, 100]) for i in range(4)]
    play_round(state, [km(40), km(50)], [km(70), km(80)])
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.scores == (480, 480)
    assert outcome.winners == (0, 1) and outcome.places == (1, 1)


def test_a_whole_game_has_five_stages_and_totals_their_scores() -> None:
    config = GAME.make_config(3)
    state = GAME.setup(config, make_seed(5))
    bots = [make_bot("heuristic", GAME, config, s, bytes([s])) for s in range(3)]
    while seats := GAME.to_act(state):
        for seat in sorted(seats):
            action = bots[seat].choose(GAME.view(state, seat), GAME.legal_actions(state, seat))
            GAME.apply(state, seat, action)
    outcome = GAME.outcome(state)
    assert outcome is not None
    stages = outcome.detail["stage_scores"]
    assert len(stages) == 5
    assert list(outcome.scores) == [sum(s[seat] for s in stages) for seat in range(3)]
    for record in state.history:
        for run in record["runs"]:
            assert run["score"] == score(*run["cards"]).score


def test_the_heuristic_bot_beats_random_bots() -> None:
    config = GAME.make_config(3)
    summary = simulate(GAME, config, 30, 9, ["heuristic", "random", "random"])
    assert summary.wins_by_seat[0] >= 24


# -- illegal actions ------------------------------------------------------------------------------


def test_refusals_name_the_problem_and_change_nothing() -> None:
    state = arrange([[km(70), km(20), *filler(8)], [km(80), km(30), *filler(8, 8)]])
    before = packed(GAME, state)
    cases: list[tuple[int, Any, type[Exception], str]] = [
        (0, AddToRun(km(80)), IllegalAction, "not in your hand"),
        (0, PlayOdometer(km(70)), IllegalAction, "adds one card to their run"),
        (0, FreeRoad((km(70),)), IllegalAction, "not possible now"),
    ]
    for seat, action, error, message in cases:
        with pytest.raises(error, match=message):
            GAME.apply(state, seat, action)
        assert packed(GAME, state) == before
    GAME.apply(state, 0, AddToRun(km(20)))
    before = packed(GAME, state)
    with pytest.raises(NotYourTurn, match="already chosen; waiting for seat"):
        GAME.apply(state, 0, AddToRun(km(70)))
    assert packed(GAME, state) == before
    GAME.apply(state, 1, AddToRun(km(30)))
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 1, PlayOdometer(km(80)))


def test_a_free_road_answer_must_be_distinct_cards_from_hand() -> None:
    state = arrange([[free2(), km(20), km(90), *filler(7)], [km(30), km(40), *filler(8, 7)]])
    play_round(state, [km(20), km(30)], [free2(), km(40)])
    before = packed(GAME, state)
    for cards, message in [
        ((km(90), km(90)), "twice"),
        ((km(90), km(30)), "not in your hand"),
        ((km(90), km(10, 0), km(10, 1)), "exactly 2"),
        ((), "exactly 2"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            GAME.apply(state, 0, FreeRoad(cards))
        assert packed(GAME, state) == before


# -- simultaneous choices ---------------------------------------------------------------------------


def _simultaneous_steps(players: int, seed: int) -> list[tuple[AAState, dict[int, Any]]]:
    """States at the start of simultaneous steps of one random game, with one choice per seat."""
    config = GAME.make_config(players)
    state = GAME.setup(config, make_seed(seed))
    rng = random.Random(seed)
    found = []
    while seats := GAME.to_act(state):
        if state.phase in ("run", "free_road") and len(seats) > 1:
            choices = {s: rng.choice(GAME.legal_actions(state, s)) for s in seats}
            found.append((GAME.copy_state(state), choices))
            for seat in sorted(seats):
                GAME.apply(state, seat, choices[seat])
            continue
        seat = min(seats)
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return found


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_arrival_order_of_simultaneous_choices_does_not_change_the_result(
    players: int,
) -> None:
    resolved_free_road = 0
    for seed in range(6):
        for state, choices in _simultaneous_steps(players, seed):
            results = set()
            orders = list(itertools.permutations(sorted(choices)))
            for order in random.Random(seed).sample(orders, min(len(orders), 24)):
                copy = GAME.copy_state(state)
                events: list[Event] = []
                for seat in order:
                    events += GAME.apply(copy, seat, choices[seat])
                results.add(packed(GAME, copy))
            assert len(results) == 1
            resolved_free_road += "free_road_added" in kinds(events)
    assert resolved_free_road


def _free_road_pause(total: int, draw: list[int] | None) -> AAState:
    hands = [[free(), km(20), km(90), *filler(7)], [km(70), km(30), km(60), *filler(7, 7)]]
    state = arrange(hands, total=total, draw=draw, discard=[rest(0), rest(1), rest(2)])
    play_round(state, [km(20), km(30)], [free(), km(70)])
    assert state.phase == "free_road"
    return state


@pytest.mark.parametrize(
    ("total", "draw", "follows"),
    [(100, None, "stage_start"), (0, [], "reshuffle")],
    ids=["then-the-stage-ends-and-a-new-deal", "then-a-refill-reshuffles"],
)
def test_arrival_order_does_not_matter_when_resolution_runs_on_into_chance(
    total: int, draw: list[int] | None, follows: str
) -> None:
    results = set()
    for order in ((0, 1), (1, 0)):
        state = _free_road_pause(total, draw)
        events: list[Event] = []
        choice = {0: FreeRoad((km(90),)), 1: FreeRoad((km(60),))}
        for seat in order:
            events += GAME.apply(state, seat, choice[seat])
        assert follows in kinds(events)
        results.add(packed(GAME, state))
    assert len(results) == 1


def test_a_pending_choice_is_hidden_from_the_other_seats() -> None:
    state = arrange([[km(70), km(20), *filler(8)], [km(80), km(30), *filler(8, 8)]])
    GAME.apply(state, 0, AddToRun(km(20)))
    other = GAME.view(state, 1)
    assert other["chosen"] == [True, False] and other["pending_counts"] == [1, 0]
    assert other["pending"] == [] and "hand" in other and km(20) not in other["hand"]
    assert GAME.view(state, 0)["pending"] == [km(20)]
    swapped = GAME.copy_state(state)
    swapped.pending[0], swapped.hands[0][0] = [swapped.hands[0][0]], km(20)
    assert GAME.view(swapped, 1) == other
    assert GAME.public_view(swapped) == GAME.public_view(state)
    assert GAME.view(swapped, 0) != GAME.view(state, 0)


def test_run_cards_are_hidden_from_the_other_seats_until_the_stage_ends() -> None:
    state = arrange(
        [[km(70), km(20), *filler(8)], [km(80), km(30), *filler(8, 8)]],
        runs=[[km(50), km(60)], [km(90)]],
    )
    view = GAME.view(state, 1)
    assert view["run_lengths"] == [2, 1] and view["run"] == [km(90)]
    swapped = GAME.copy_state(state)
    swapped.runs[0] = [km(60), km(50)]
    assert GAME.view(swapped, 1) == view
    assert GAME.view(swapped, 0)["run"] == [km(60), km(50)]
    events = play_round(state, [km(20), km(30)], [km(70), km(80)])
    end = next(e for e in events if e.kind == "stage_end")
    assert end.public["runs"][0]["cards"] == [km(50), km(60), km(20)]
    assert GAME.view(state, 1)["stage_results"][0]["runs"][0]["cards"] == [km(50), km(60), km(20)]


def test_odometer_cards_are_hidden_until_revealed() -> None:
    state = arrange([[km(70), km(20), *filler(8)], [km(80), km(30), *filler(8, 8)]])
    GAME.apply(state, 0, AddToRun(km(20)))
    GAME.apply(state, 1, AddToRun(km(30)))
    events = GAME.apply(state, 0, PlayOdometer(km(70)))
    assert events[0].for_seat(1) == {"kind": "odometer_card", "seat": 0}
    assert events[0].for_seat(0)["card"] == km(70)
    view = GAME.view(state, 1)
    assert view["odometer_face_down"] == [0] and view["odometer_card"] is None
    assert GAME.view(state, 0)["odometer_card"] == km(70)
    swapped = GAME.copy_state(state)
    swapped.odometer_down[0], swapped.hands[0][0] = [swapped.hands[0][0]], km(70)
    assert GAME.view(swapped, 1) == view
    assert GAME.public_view(swapped) == GAME.public_view(state)
    events = GAME.apply(state, 1, PlayOdometer(km(80)))
    assert [e.public["card"] for e in events if e.kind == "reveal"] == [km(70), km(80)]


def test_run_choices_are_told_only_to_their_owner() -> None:
    state = arrange([[km(70), km(20), *filler(8)], [km(80), km(30), *filler(8, 8)]])
    first = GAME.apply(state, 0, AddToRun(km(20)))
    assert first[0].for_seat(1) == {"kind": "run_chosen", "seat": 0, "count": 1, "waiting": [1]}
    events = GAME.apply(state, 1, AddToRun(km(30)))
    added = next(e for e in events if e.kind == "runs_added")
    assert added.for_seat(0)["cards"] == [km(20)]
    assert added.for_seat(1)["cards"] == [km(30)]
    assert "cards" not in added.for_seat(None)
    assert added.omniscient()["cards_by_seat"] == [[km(20)], [km(30)]]


# -- the deck ---------------------------------------------------------------------------------------


def test_house_deck_matches_the_rules_page() -> None:
    cards = GAME.cards(GAME.make_config(2))
    assert len(cards) == 109
    by_value = {
        v: sum(1 for c in cards if c["kind"] == "km" and c["value"] == v)
        for v in range(10, 130, 10)
    }
    assert list(by_value.values()) == [8, 8, 8, 7, 7, 7, 6, 6, 6, 5, 5, 4]
    assert [
        sum(1 for c in cards if c["kind"] == k)
        for k in ("lost_freight", "level_crossing", "free_road", "completely_free_road", "rest")
    ] == [6, 6, 5, 3, 12]
    assert GAME.house_deck() == house_deck_text()


def test_a_deck_file_changes_the_split() -> None:
    text = house_deck_text().replace("10 = 8", "10 = 7").replace("120 = 4", "120 = 5")
    text = text.replace("lost_freight = 6", "lost_freight = 5").replace(
        "completely_free_road = 3", "completely_free_road = 4"
    )
    config = GAME.make_config(3, {"deck": text})
    cards = GAME.cards(config)
    assert sum(1 for c in cards if c["value"] == 120) == 5
    assert sum(1 for c in cards if c["kind"] == "completely_free_road") == 4
    state = GAME.setup(config, make_seed(1))
    assert GAME.decode_state(GAME.encode_state(state)).deck.cards == state.deck.cards


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: "not toml [", "not valid TOML"),
        (lambda t: t.replace('game = "auf-achse"', 'game = "via-gladiola"'), "is for game"),
        (lambda t: t.replace("[rest]\ncount = 12", ""), r"missing section \[rest\]"),
        (lambda t: t.replace("10 = 8", "10 = 7"), r"\[km\] counts add up to 76 cards, not 77"),
        (lambda t: t.replace("10 = 8", "15 = 8"), "'15' is not a card value"),
        (lambda t: t.replace("120 = 4\n", "").replace("10 = 8", "10 = 12"), "missing 120"),
        (lambda t: t.replace("10 = 8", "10 = 0"), r"\[km\] 10 must be between 1 and 77"),
        (lambda t: t.replace("10 = 8", '10 = "eight"'), "must be a whole number"),
        (
            lambda t: t.replace("free_road = 5", "free_road = 5\nrocket = 1"),
            "unknown action card 'rocket'",
        ),
        (lambda t: t.replace("lost_freight = 6\n", ""), "count for 'lost_freight'"),
        (
            lambda t: t.replace("lost_freight = 6", "lost_freight = 7"),
            r"\[action\] counts add up to 21",
        ),
        (lambda t: t.replace("count = 12", "count = 11"), r"\[rest\] count must be 12, not 11"),
        (
            lambda t: t.replace("count = 12", "count = 12\ncolour = 1"),
            "unknown key 'colour' in \\[rest\\]",
        ),
        (lambda t: t + "\n[joker]\ncount = 1\n", "unknown key 'joker'"),
    ],
)
def test_malformed_deck_files_are_refused_by_name(change: Any, message: str) -> None:
    with pytest.raises(BadDeck, match=message):
        GAME.make_config(2, {"deck": change(house_deck_text())})
