"""Velonimo's rules, one named test per rule, on hand-made states (see velonimo_helpers)."""

from __future__ import annotations

import itertools
import random

import pytest

from netcards.action import Action
from netcards.errors import BadOption, GameOver, IllegalAction, NotYourTurn
from netcards.games.velonimo import GAME
from netcards.games.velonimo.actions import (
    ChooseLeader,
    ChooseVictim,
    GiveBack,
    GiveReward,
    Play,
)
from netcards.games.velonimo.cards import ALL_CARDS, CARD_COUNT, VALUE
from netcards.games.velonimo.combos import combination_value
from netcards.games.velonimo.standings import jersey_holder, next_first_player
from netcards.games.velonimo.state import VelonimoState
from netcards.oplog import GameLog
from netcards.rng import Rng, make_seed
from tests.games.velonimo_helpers import PASS, H, P, R, kinds, make_state, run

# -- the cards and the deal -----------------------------------------------------------------------


def test_deck_has_49_runners_and_6_hares_and_the_jersey_is_no_card() -> None:
    cards = GAME.cards(GAME.make_config(3))
    assert len(cards) == CARD_COUNT == 55
    runners = [c for c in cards if c["kind"] == "runner"]
    hares = [c for c in cards if c["kind"] == "hare"]
    assert len(runners) == 49
    assert {(c["colour"], c["value"]) for c in runners} == {
        (colour, v) for colour in {c["colour"] for c in runners} for v in range(1, 8)
    }
    assert len({c["colour"] for c in runners}) == 7
    assert sorted(c["value"] for c in hares) == [25, 30, 35, 40, 45, 50]
    assert all(c["kind"] != "jersey" for c in cards)


@pytest.mark.parametrize(("players", "aside"), [(3, 22), (4, 11), (5, 0)])
def test_deal_gives_eleven_each_and_sets_the_rest_aside_unseen(players: int, aside: int) -> None:
    state = GAME.setup(GAME.make_config(players), make_seed(7))
    assert [len(h) for h in state.hands] == [11] * players
    assert len(state.aside) == aside
    assert state.draw == [] and state.reward is None
    for view in [*(GAME.view(state, s) for s in range(players)), GAME.public_view(state)]:
        assert view["set_aside"] == aside
        shown = set(view.get("hand", [])) | set(view["discard"]) | {view["reward"]}
        shown |= {c for play in view["attack"] for c in play["cards"]}
        assert not shown & set(state.aside)
    assert GAME.deal_record(state)["set_aside"] == state.aside


def test_duel_deal_makes_a_33_card_draw_pile_whose_top_card_is_the_reward() -> None:
    state = GAME.setup(GAME.make_config(2), make_seed(3))
    assert [len(h) for h in state.hands] == [11, 11]
    assert state.reward is not None
    assert len(state.draw) + 1 == 33
    assert state.aside == []
    view = GAME.view(state, 0)
    assert view["mode"] == "duel"
    assert view["reward"] == state.reward
    assert view["draw_pile"] == 32
    assert "draw" not in view


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_deal_gives_one_card_at_a_time_from_the_top_of_the_shuffled_deck(
    players: int,
) -> None:
    """Pinned: a journal replays only if every version deals the same seed the same way."""
    state = GAME.setup(GAME.make_config(players, {"first_player": 0}), make_seed(5))
    deck = list(ALL_CARDS)
    Rng(make_seed(5)).shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(players)]
    for _ in range(11):
        for hand in hands:
            hand.append(deck.pop())
    assert state.hands == hands
    if players == 2:
        assert state.reward == deck.pop() and state.draw == deck
    else:
        assert state.aside == deck


def test_first_player_of_round_one_comes_from_the_option_or_at_random() -> None:
    fixed = GAME.setup(GAME.make_config(4, {"first_player": 2}), make_seed(1))
    assert fixed.current == 2 and fixed.first_player == 2
    seen = {GAME.setup(GAME.make_config(4), make_seed(s)).current for s in range(40)}
    assert seen == {0, 1, 2, 3}


# -- what a play is worth --------------------------------------------------------------------------


def test_sheet_combination_values_32_and_44() -> None:
    assert combination_value([R("blue", 2), R("blue", 3), R("blue", 4)]) == 32
    assert combination_value([R("red", 4), R("blue", 4), R("green", 4), R("brown", 4)]) == 44
    assert combination_value([R("brown", 3), R("brown", 4), R("brown", 5), R("brown", 7)]) == 43


def test_single_cards_count_their_own_value() -> None:
    assert combination_value([R("red", 2)]) == 2
    assert combination_value([R("red", 5)]) == 5
    assert combination_value([H(35)]) == 35


def test_combination_must_share_a_colour_or_a_value() -> None:
    state = make_state([[R("red", 3), R("blue", 4), R("red", 5)], [R("red", 7)], [R("blue", 7)]])
    with pytest.raises(IllegalAction, match="share a colour or all share a value"):
        GAME.apply(state, 0, P(R("red", 3), R("blue", 4)))


def test_hares_are_never_combined() -> None:
    state = make_state([[H(25), H(30), R("red", 1)], [R("red", 7)], [R("blue", 7)]])
    with pytest.raises(IllegalAction, match="hare is always played alone"):
        GAME.apply(state, 0, P(H(25), H(30)))
    assert Play((H(25), H(30)), False) not in GAME.legal_actions(state, 0)


def test_cards_must_be_listed_in_increasing_order_once() -> None:
    state = make_state([[R("red", 3), R("red", 5)], [R("red", 7)], [R("blue", 7)]])
    with pytest.raises(IllegalAction, match="increasing order"):
        GAME.apply(state, 0, Play((R("red", 5), R("red", 3)), False))
    with pytest.raises(IllegalAction, match="increasing order"):
        GAME.apply(state, 0, Play((R("red", 3), R("red", 3)), False))
    with pytest.raises(IllegalAction, match="no card"):
        GAME.apply(state, 0, Play((99,), False))
    with pytest.raises(IllegalAction, match="not in your hand"):
        GAME.apply(state, 0, P(R("red", 7)))


def test_a_play_must_be_strictly_higher_than_the_current_one() -> None:
    state = make_state(
        [[R("red", 5), R("red", 7)], [R("blue", 5), R("blue", 6)], [R("green", 1), R("green", 2)]]
    )
    run(state, (0, P(R("red", 5))))
    with pytest.raises(IllegalAction, match="does not beat the current 5"):
        GAME.apply(state, 1, P(R("blue", 5)))
    run(state, (1, P(R("blue", 6))))
    assert GAME.view(state, 2)["attack_value"] == 6


# -- an attack -----------------------------------------------------------------------------------


def test_leading_an_attack_is_compulsory() -> None:
    state = make_state([[R("red", 5), R("red", 7)], [R("blue", 5)], [R("green", 2)]])
    assert PASS not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="you lead this attack"):
        GAME.apply(state, 0, PASS)


def test_sheet_example_three_player_attack() -> None:
    """2 → pass → 24 → hare 30 → 44 → pass, pass: the 44 player clears and leads."""
    fours = [R("red", 4), R("blue", 4), R("green", 4), R("orange", 4)]
    state = make_state(
        [
            [R("purple", 2), H(30), R("red", 7)],
            [*fours, R("yellow", 6)],
            [R("brown", 4), R("brown", 5), R("brown", 7)],
        ]
    )
    events = run(
        state,
        (0, P(R("purple", 2))),
        (1, PASS),
        (2, P(R("brown", 4), R("brown", 5))),
        (0, P(H(30))),
        (1, P(*fours)),
        (2, PASS),
    )
    assert [e.public["value"] for e in events if e.kind == "play"] == [2, 24, 30, 44]
    assert state.current == 0 and state.attack
    events = run(state, (0, PASS))
    assert kinds(events) == ["pass", "attack_won"]
    assert events[-1].public["seat"] == 1
    assert state.attack == [] and state.current == 1 and state.phase == "play"
    assert sorted(state.discard) == sorted(
        [R("purple", 2), R("brown", 4), R("brown", 5), H(30), *fours]
    )
    assert PASS not in GAME.legal_actions(state, 1)


def test_passing_does_not_lock_a_player_out_of_the_attack() -> None:
    state = make_state(
        [
            [R("red", 2), R("red", 4), R("red", 7)],
            [R("blue", 5), R("blue", 7)],
            [R("green", 3), R("green", 7)],
        ]
    )
    run(state, (0, P(R("red", 2))), (1, PASS), (2, P(R("green", 3))), (0, P(R("red", 4))))
    assert P(R("blue", 5)) in GAME.legal_actions(state, 1)
    run(state, (1, P(R("blue", 5))))
    assert state.last_player == 1


def test_passing_is_allowed_even_when_able_to_play() -> None:
    state = make_state([[R("red", 2), R("red", 4)], [H(50), R("blue", 7)], [R("green", 3)]])
    run(state, (0, P(R("red", 2))))
    assert PASS in GAME.legal_actions(state, 1)
    run(state, (1, PASS))
    assert state.current == 2


def test_legal_actions_come_in_one_fixed_order() -> None:
    """Singles by id, same-colour combinations colour by colour, then same-value ones by their
    lowest card; subsets in binary counting order; each jersey variant right after its play.
    Bots choose by position in this list, so the order is part of the behaviour."""
    hand = [H(30), R("blue", 4), R("red", 5), R("red", 4), R("blue", 5), R("red", 6)]
    state = make_state([hand, [R("brown", 7)], [R("purple", 7)]], jersey=0)
    plays = [(a.cards, a.jersey) for a in GAME.legal_actions(state, 0) if isinstance(a, Play)]
    r4, r5, r6, b4, b5 = R("red", 4), R("red", 5), R("red", 6), R("blue", 4), R("blue", 5)
    expected = [
        *[(c, j) for c in [(r4,), (r5,), (r6,), (b4,), (b5,)] for j in (False, True)],
        ((H(30),), False),
        *[
            (c, j)
            for c in [(r4, r5), (r4, r6), (r5, r6), (r4, r5, r6), (b4, b5), (r4, b4), (r5, b5)]
            for j in (False, True)
        ],
    ]
    assert plays == expected
    state.jersey = None
    run(state, (0, P(R("red", 4))), (1, P(R("brown", 7))), (2, PASS))
    after = [a.cards for a in GAME.legal_actions(state, 0) if isinstance(a, Play)]
    assert after == [(H(30),), (r5, r6), (b4, b5), (r5, b5)]


def test_legal_actions_list_every_valid_play_and_nothing_else() -> None:
    """Brute force: every subset of the hand, with and without the jersey, tried on a copy."""
    rng = random.Random(5)
    for trial in range(12):
        deck = list(ALL_CARDS)
        rng.shuffle(deck)
        hands = [deck[0:11], deck[11:22], deck[22:33]]
        state = make_state(hands, jersey=0 if trial % 2 else None, seed=trial)
        if trial % 3:
            other = state.hands[2].pop()
            state.attack = [(2, (other,), False, VALUE[other])]
            state.last_player = 2
        legal = set(GAME.legal_actions(state, 0))
        accepted = set()
        for size in range(1, len(hands[0]) + 1):
            for cards in itertools.combinations(sorted(state.hands[0]), size):
                for jersey in (False, True):
                    action = Play(cards, jersey)
                    try:
                        GAME.apply(GAME.copy_state(state), 0, action)
                    except IllegalAction:
                        continue
                    accepted.add(action)
        assert legal - {PASS} == accepted
        assert (PASS in legal) == bool(state.attack)


# -- leaders ---------------------------------------------------------------------------------------


def test_leaders_take_one_card_per_leader_from_one_chosen_opponent() -> None:
    leaders = [R("red", 1), R("blue", 1)]
    victim_hand = [R("green", 3), R("green", 4), R("green", 5), H(40)]
    state = make_state([[*leaders, R("red", 7)], [R("brown", 6), R("brown", 7)], victim_hand])
    events = run(state, (0, P(*leaders)))
    assert state.phase == "victim" and state.current == 0
    assert GAME.legal_actions(state, 0) == [ChooseVictim(1), ChooseVictim(2)]
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, ChooseVictim(0))
    events = run(state, (0, ChooseVictim(2)))
    take = events[0]
    assert take.kind == "leader_take" and take.public["count"] == 2
    taken = take.private[0]["cards"]
    assert len(taken) == 2 and set(taken) <= set(victim_hand)
    assert len(state.hands[0]) == 3 and len(state.hands[2]) == 2
    assert state.phase == "give_back" and state.current == 0
    # One card per decision, any card of the hand: the taken cards too.
    assert GAME.legal_actions(state, 0) == [GiveBack(c) for c in sorted(state.hands[0])]
    events = run(state, (0, GiveBack(taken[0])))
    assert events[0].public == {"seat": 0, "victim": 2, "to_give": 1}
    assert state.phase == "give_back" and state.current == 0
    assert GAME.view(state, 1)["exchange"]["to_give"] == 1
    with pytest.raises(IllegalAction, match="not in your hand"):
        GAME.apply(state, 0, GiveBack(taken[0]))
    run(state, (0, GiveBack(R("red", 7))))
    assert len(state.hands[0]) == 1 and len(state.hands[2]) == 4
    assert {taken[0], R("red", 7)} <= set(state.hands[2])
    assert state.phase == "play" and state.current == 1
    assert GAME.view(state, 0)["exchange"] is None


def test_giving_back_asks_one_card_at_a_time_whatever_the_hand_size() -> None:
    """Four leaders from a 25-card duel hand: 25 choices, not the 12,650 ways to pick 4."""
    turtles = [R("red", 1), R("orange", 1), R("yellow", 1), R("green", 1)]
    rest = [R(c, v) for c in ("blue", "purple", "brown") for v in range(2, 8)]
    rest += [H(25), H(30), H(35)]
    victim = [R(c, v) for c in ("red", "orange") for v in range(3, 8)] + [H(40), H(45)]
    state = make_state([[*turtles, *rest], victim], draw=[H(50)], reward=None)
    events = run(state, (0, P(*turtles)))
    assert kinds(events) == ["play", "leader_take"]
    assert GAME.view(state, 0)["exchange"]["to_give"] == 4
    for left in (3, 2, 1, 0):
        legal = GAME.legal_actions(state, 0)
        assert len(legal) == len(state.hands[0]) == 21 + left + 1
        events = run(state, (0, legal[0]))
        assert kinds(events) == ["leader_give"] and events[0].public["to_give"] == left
        assert state.current == (0 if left else 1)
    assert state.phase == "play" and [len(h) for h in state.hands] == [21, 12]


def test_leaders_take_no_more_cards_than_the_victim_holds() -> None:
    leaders = [R("red", 1), R("blue", 1), R("green", 1)]
    state = make_state([[*leaders, R("red", 7), R("red", 6)], [R("brown", 6)], [R("yellow", 2)]])
    events = run(state, (0, P(*leaders)), (0, ChooseVictim(1)))
    assert events[-1].public == {"seat": 0, "victim": 1, "leaders": 3, "count": 1}
    assert state.hands[1] == []
    assert state.to_give == 1
    run(state, (0, GiveBack(R("red", 7))))
    assert state.hands[1] == [R("red", 7)] and state.phase == "play"
    assert R("brown", 6) in state.hands[0]


def test_leaders_have_no_effect_when_they_were_the_last_cards() -> None:
    state = make_state(
        [[R("red", 1), R("blue", 1)], [R("brown", 6), R("green", 2)], [H(50), H(25)]]
    )
    events = run(state, (0, P(R("red", 1), R("blue", 1))))
    assert "leader_take" not in kinds(events)
    assert state.phase == "play" and state.current == 1
    assert [len(h) for h in state.hands] == [0, 2, 2]


def test_the_only_opponent_still_in_is_the_victim_without_asking() -> None:
    state = make_state([[R("red", 1), R("red", 5)], [], [R("green", 3), R("green", 4)]])
    state.finished = [1]
    events = run(state, (0, P(R("red", 1))))
    assert kinds(events) == ["play", "leader_take"]
    assert events[-1].public["victim"] == 2
    assert state.phase == "give_back"


def test_a_third_seat_never_sees_the_exchanged_cards() -> None:
    state = make_state(
        [
            [R("red", 1), R("red", 5), R("red", 6)],
            [R("blue", 3), R("blue", 4), R("blue", 7)],
            [R("green", 3), R("green", 4)],
        ]
    )
    events = run(state, (0, P(R("red", 1))), (0, ChooseVictim(1)))
    taken = state.taken
    assert GAME.view(state, 0)["exchange"]["taken"] == taken
    assert GAME.view(state, 1)["exchange"]["taken"] == taken
    for view in (GAME.view(state, 2), GAME.public_view(state)):
        assert "taken" not in view["exchange"]
        assert view["exchange"] == {"thief": 0, "victim": 1, "count": 1, "to_give": 1}
    events += run(state, (0, GiveBack(R("red", 5))))
    assert kinds(events) == ["play", "leader_take", "leader_give"]
    for event in events[1:]:
        for seat in (2, None):
            assert not {"card", "cards"} & set(event.for_seat(seat))
        assert set(event.private) == {0, 1}
        assert event.for_seat(0) == event.for_seat(1)
        assert event.omniscient()["private"]["0"]
    assert GAME.view(state, 2)["exchange"] is None


def test_leader_with_the_jersey_is_worth_11_and_still_takes_a_card() -> None:
    state = make_state(
        [[R("red", 1), R("red", 5)], [R("blue", 7)], [R("green", 3)]],
        jersey=0,
        round_index=1,
        round_scores=[[2, 1, 0]],
    )
    events = run(state, (0, P(R("red", 1), jersey=True)))
    assert events[0].public["value"] == 11
    assert state.phase == "victim"


# -- the jersey -------------------------------------------------------------------------------------


def test_jersey_adds_ten_to_a_combination_43_plus_10_is_53() -> None:
    brown = [R("brown", 3), R("brown", 4), R("brown", 5), R("brown", 7)]
    state = make_state([[*brown, R("red", 2)], [R("blue", 7)], [R("green", 3)]], jersey=0)
    assert P(*brown, jersey=True) in GAME.legal_actions(state, 0)
    events = run(state, (0, P(*brown, jersey=True)))
    assert events[0].public["value"] == 53 and events[0].public["jersey"] is True
    assert GAME.public_view(state)["jersey"] == {"holder": 0, "used": True, "bonus": 10}


def test_jersey_is_refused_on_a_lone_hare() -> None:
    state = make_state([[H(45), R("red", 2)], [R("blue", 7)], [R("green", 3)]], jersey=0)
    with pytest.raises(IllegalAction, match="lone hare"):
        GAME.apply(state, 0, P(H(45), jersey=True))
    assert P(H(45), jersey=True) not in GAME.legal_actions(state, 0)
    assert P(R("red", 2), jersey=True) in GAME.legal_actions(state, 0)


def test_jersey_only_for_its_holder_and_once_per_round() -> None:
    state = make_state(
        [[R("red", 2), R("red", 4), R("red", 6)], [R("blue", 7), R("blue", 3)], [R("green", 3)]],
        jersey=0,
    )
    run(state, (0, P(R("red", 2))))
    with pytest.raises(IllegalAction, match="do not hold the jersey"):
        GAME.apply(state, 1, P(R("blue", 3), jersey=True))
    run(state, (1, P(R("blue", 3))), (2, PASS), (0, P(R("red", 4), jersey=True)), (1, PASS))
    run(state, (2, PASS))
    assert state.current == 0 and state.jersey_used
    with pytest.raises(IllegalAction, match="already used this round"):
        GAME.apply(state, 0, P(R("red", 6), jersey=True))
    assert all(not getattr(a, "jersey", False) for a in GAME.legal_actions(state, 0))


def test_nobody_holds_the_jersey_in_round_one() -> None:
    state = GAME.setup(GAME.make_config(3), make_seed(11))
    assert state.jersey is None
    assert GAME.public_view(state)["jersey"]["holder"] is None
    assert all(not getattr(a, "jersey", False) for a in GAME.legal_actions(state, state.current))


def test_jersey_award_highest_total() -> None:
    assert jersey_holder([5, 9, 3], [1, 2, 3], None) == 1


def test_jersey_award_tie_goes_to_most_points_last_round() -> None:
    assert jersey_holder([9, 9, 3], [1, 4, 3], 0) == 1


def test_jersey_award_full_tie_holder_keeps_it() -> None:
    assert jersey_holder([9, 9, 3], [4, 4, 3], 0) == 0


def test_jersey_award_full_tie_without_the_holder_goes_to_nobody() -> None:
    assert jersey_holder([9, 9, 3], [4, 4, 3], 2) is None
    assert jersey_holder([9, 9, 3], [4, 4, 3], None) is None


def test_jersey_is_awarded_at_the_end_of_a_round_and_unused_again() -> None:
    state = make_state(
        [[R("red", 3)], [H(25)], [R("red", 5), R("red", 6)]],
        jersey=2,
        round_index=1,
        round_scores=[[0, 1, 2]],
    )
    events = run(state, (0, P(R("red", 3))), (1, P(H(25))))
    end = next(e for e in events if e.kind == "round_end")
    assert end.public["scores"] == [4, 2, 0]
    assert end.public["totals"] == [4, 3, 2]
    assert end.public["jersey"] == 0 == state.jersey
    state = make_state(
        [[R("red", 3)], [H(25)], [R("red", 5), R("red", 6)]],
        jersey=0,
        round_index=1,
        round_scores=[[2, 1, 0]],
    )
    run(state, (0, P(R("red", 3), jersey=True)))
    assert state.jersey_used
    run(state, (1, P(H(25))))
    assert state.round == 2 and state.jersey == 0 and not state.jersey_used


# -- finishing and scoring ----------------------------------------------------------------------------


def test_four_player_difficulty_two_scores_6_4_2_0() -> None:
    state = make_state(
        [[R("red", 3)], [R("red", 4)], [R("red", 5)], [R("red", 6), R("red", 7)]],
        difficulties=(2, 1),
    )
    events = run(state, (0, P(R("red", 3))), (1, P(R("red", 4))), (2, P(R("red", 5))))
    assert [e.public["points"] for e in events if e.kind == "finish"] == [6, 4, 2]
    assert state.round_scores == [[6, 4, 2, 0]]
    end = next(e for e in events if e.kind == "round_end")
    assert end.public["finish_order"] == [0, 1, 2, 3]


def test_finished_players_are_skipped() -> None:
    state = make_state(
        [[R("red", 3)], [R("blue", 4), R("blue", 7)], [R("green", 5), R("green", 6)]]
    )
    run(state, (0, P(R("red", 3))))
    assert state.current == 1
    run(state, (1, P(R("blue", 4))), (2, P(R("green", 5))))
    assert state.current == 1  # seat 0 is out of the round


def test_the_finisher_chooses_the_next_leader_when_everybody_passes() -> None:
    state = make_state(
        [[R("red", 3)], [R("blue", 2), R("blue", 7)], [R("green", 1), R("green", 6)]]
    )
    events = run(state, (0, P(R("red", 3))), (1, PASS), (2, PASS))
    assert events[-1].kind == "attack_won" and events[-1].public["finished"] is True
    assert state.phase == "next_leader" and GAME.to_act(state) == {0}
    assert GAME.legal_actions(state, 0) == [ChooseLeader(1), ChooseLeader(2)]
    with pytest.raises(IllegalAction, match="not still in the round"):
        GAME.apply(state, 0, ChooseLeader(0))
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 2, ChooseLeader(2))
    run(state, (0, ChooseLeader(2)))
    assert state.phase == "play" and state.current == 2 and not state.attack


def test_the_round_ends_when_one_player_holds_cards_who_scores_nothing() -> None:
    state = make_state([[R("red", 3)], [R("blue", 4)], [R("green", 5), R("green", 6)]])
    events = run(state, (0, P(R("red", 3))), (1, P(R("blue", 4))))
    assert kinds(events)[-2:] == ["round_end", "round_start"]
    assert state.round_scores == [[2, 1, 0]]
    assert [len(h) for h in state.hands] == [11, 11, 11]


def test_first_player_of_later_rounds_is_the_lowest_total() -> None:
    assert next_first_player([5, 2, 7], [1, 1, 1], 0) == 1


def test_first_player_tie_goes_to_fewest_points_last_round() -> None:
    assert next_first_player([2, 5, 2], [2, 1, 0], 0) == 2


def test_first_player_full_tie_goes_to_seat_order_after_the_previous_first() -> None:
    assert next_first_player([2, 2, 2, 9], [0, 0, 0, 0], 1) == 2
    assert next_first_player([2, 9, 2, 9], [0, 0, 0, 0], 2) == 0
    assert next_first_player([2, 9, 2, 9], [0, 0, 0, 0], 0) == 2


def test_next_round_is_led_by_the_lowest_total() -> None:
    state = make_state(
        [[R("red", 3)], [R("blue", 4)], [R("green", 5), R("green", 6)]],
        round_scores=[[0, 0, 3]],
        round_index=1,
        jersey=2,
    )
    events = run(state, (0, P(R("red", 3))), (1, P(R("blue", 4))))
    start = next(e for e in events if e.kind == "round_start")
    # totals 4, 2, 3: seat 1 has the lowest total.
    assert start.public["first_player"] == 1 == state.current
    assert set(start.private) == {0, 1, 2}
    assert start.secret["set_aside"] == state.aside


# -- the duel ---------------------------------------------------------------------------------------


def test_duel_water_carrier_draws_the_top_card() -> None:
    state = make_state(
        [[R("red", 2), R("red", 5)], [R("blue", 7)]], draw=[H(25), H(30)], reward=H(50)
    )
    events = run(state, (0, P(R("red", 2))))
    draw = next(e for e in events if e.kind == "water_draw")
    assert draw.public == {"seat": 0, "dromedaries": 1, "count": 1, "draw_pile": 1}
    assert draw.private == {0: {"cards": [H(30)]}}
    assert H(30) in state.hands[0]
    assert "cards" not in draw.for_seat(1)


def test_duel_three_dromedaries_draw_three_cards() -> None:
    camels = [R("red", 2), R("blue", 2), R("green", 2)]
    pile = [R("red", 6), R("red", 7), H(25), H(30)]
    state = make_state([[*camels, R("red", 5)], [R("blue", 7)]], draw=pile, reward=H(50))
    events = run(state, (0, P(*camels)))
    assert events[0].public["value"] == 32
    assert sorted(state.hands[0]) == sorted([R("red", 5), R("red", 7), H(25), H(30)])
    assert state.draw == [R("red", 6)]


def test_duel_water_carriers_do_nothing_on_a_last_play() -> None:
    state = make_state([[R("red", 2)], [R("blue", 7), R("blue", 6)]], draw=[H(30)], reward=H(50))
    events = run(state, (0, P(R("red", 2))))
    assert "water_draw" not in kinds(events)
    assert state.round_scores == [[1, 0]]


def test_duel_water_carriers_take_nothing_from_an_empty_pile() -> None:
    state = make_state([[R("red", 2), R("red", 5)], [R("blue", 7)]], draw=[], reward=H(50))
    events = run(state, (0, P(R("red", 2))))
    draw = next(e for e in events if e.kind == "water_draw")
    assert draw.public["count"] == 0 and state.hands[0] == [R("red", 5)]


def test_duel_dromedaries_draw_before_the_leader_exchange() -> None:
    state = make_state(
        [[R("red", 1), R("red", 2), R("red", 5)], [R("blue", 7), R("blue", 6)]],
        draw=[H(25), H(30)],
        reward=H(50),
    )
    events = run(state, (0, P(R("red", 1), R("red", 2))))
    assert kinds(events) == ["play", "water_draw", "leader_take"]
    assert H(30) in state.hands[0]
    assert state.phase == "give_back"
    # The drawn card may be what goes back.
    run(state, (0, GiveBack(H(30))))
    assert H(30) in state.hands[1] and state.current == 1


def test_duel_winning_an_attack_gives_the_reward_where_the_winner_says() -> None:
    state = make_state(
        [[R("red", 4), R("red", 5)], [R("blue", 3), R("blue", 7)]],
        draw=[H(25), H(30)],
        reward=H(50),
    )
    events = run(state, (0, P(R("red", 4))), (1, PASS))
    assert kinds(events)[-1] == "attack_won"
    assert state.phase == "reward" and GAME.to_act(state) == {0}
    assert GAME.legal_actions(state, 0) == [GiveReward(0), GiveReward(1)]
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, GiveReward(2))
    events = run(state, (0, GiveReward(1)))
    assert events[0].public == {"seat": 0, "card": H(50), "to": 1}
    assert H(50) in state.hands[1]
    assert state.reward == H(30) and state.draw == [H(25)]
    assert state.phase == "play" and state.current == 0 and not state.attack


def test_duel_reward_into_own_hand_and_no_reward_once_the_pile_is_empty() -> None:
    state = make_state(
        [[R("red", 4), R("red", 5), R("red", 6)], [R("blue", 3), R("blue", 7)]],
        draw=[],
        reward=H(50),
    )
    run(state, (0, P(R("red", 4))), (1, PASS), (0, GiveReward(0)))
    assert H(50) in state.hands[0] and state.reward is None
    run(state, (0, P(R("red", 5))), (1, PASS))
    assert state.phase == "play" and state.current == 0


def test_duel_jersey_gives_no_bonus() -> None:
    state = make_state(
        [[R("red", 4), R("red", 5)], [R("blue", 7)]],
        draw=[H(25)],
        reward=H(50),
        jersey=0,
        round_index=1,
        round_scores=[[1, 0]],
    )
    assert all(not getattr(a, "jersey", False) for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="duel"):
        GAME.apply(state, 0, P(R("red", 4), jersey=True))
    assert GAME.view(state, 1)["jersey"] == {"holder": 0, "used": False, "bonus": 0}


def test_duel_ends_as_soon_as_a_player_has_8_points() -> None:
    state = make_state(
        [[R("red", 4)], [R("blue", 7), R("blue", 6)]],
        draw=[H(25)],
        reward=H(50),
        round_index=3,
        round_scores=[[1, 0], [0, 2], [3, 0]],
    )
    events = run(state, (0, P(R("red", 4))))
    assert kinds(events)[-1] == "game_end"
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.scores == (8, 2) and outcome.winners == (0,)
    assert outcome.detail["reason"] == "duel_target"
    assert outcome.detail["round_scores"] == [[1, 0], [0, 2], [3, 0], [4, 0]]
    assert GAME.to_act(state) == frozenset()


def test_duel_round_winner_scores_the_difficulty_and_play_goes_on() -> None:
    state = make_state(
        [[R("red", 4)], [R("blue", 7), R("blue", 6)]], draw=[H(25)], reward=H(50), round_index=2
    )
    state.round_scores = [[1, 0], [0, 2]]
    events = run(state, (0, P(R("red", 4))))
    assert state.round_scores[-1] == [3, 0]
    assert kinds(events)[-1] == "round_start" and state.round == 3
    assert len(state.draw) == 32 and state.reward is not None


def test_duel_target_is_configurable() -> None:
    state = make_state(
        [[R("red", 4)], [R("blue", 7), R("blue", 6)]], draw=[], reward=None, duel_target=1
    )
    run(state, (0, P(R("red", 4))))
    assert state.over and state.end_reason == "duel_target"


# -- rounds, options, the end -----------------------------------------------------------------------


def test_rounds_and_difficulties_are_configurable() -> None:
    state = make_state(
        [[R("red", 3)], [R("blue", 4)], [R("green", 5), R("green", 6)]], difficulties=(4,)
    )
    run(state, (0, P(R("red", 3))), (1, P(R("blue", 4))))
    assert state.over and state.end_reason == "rounds_done"
    assert state.round_scores == [[8, 4, 0]]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.detail["difficulties"] == [4]


def test_options_are_validated() -> None:
    with pytest.raises(BadOption):
        GAME.make_config(3, {"difficulties": []})
    with pytest.raises(BadOption):
        GAME.make_config(3, {"difficulties": [1, 0]})
    with pytest.raises(BadOption):
        GAME.make_config(3, {"first_player": 3})
    with pytest.raises(BadOption):
        GAME.make_config(2, {"duel_target": 0})
    config = GAME.make_config(3, {"difficulties": [5, 5, 5]})
    assert GAME.setup(config, make_seed(1)).difficulties == [5, 5, 5]


def test_the_jersey_holder_after_the_last_round_wins_with_every_round_shown() -> None:
    state = make_state(
        [[R("red", 3)], [R("blue", 4)], [R("green", 5), R("green", 6)]],
        difficulties=(1, 2),
        round_index=1,
        round_scores=[[0, 0, 2]],
        jersey=2,
    )
    run(state, (0, P(R("red", 3))), (1, P(R("blue", 4))))
    outcome = GAME.outcome(state)
    assert outcome is not None
    # totals 4, 2, 2: seat 0 holds the jersey and wins.
    assert outcome.scores == (4, 2, 2) and outcome.winners == (0,)
    assert outcome.detail["round_scores"] == [[0, 0, 2], [4, 2, 0]]
    assert outcome.detail["jersey"] == 0
    assert outcome.places == (1, 2, 3)
    assert not outcome.lower_is_better


def test_last_round_points_always_break_a_tie_on_totals() -> None:
    """Finishers score the difficulty times a number of players that falls by one each time, so two
    players never score the same in a round: the holder-keeps and nobody cases of the jersey
    can only come from a hand-made score sheet."""
    for players in range(2, 6):
        for difficulty in range(1, 11):
            points = [difficulty * (players - 1 - place) for place in range(players)]
            assert len(set(points)) == players


def test_a_full_tie_at_the_end_is_shared_when_nobody_holds_the_jersey() -> None:
    state = make_state([[R("red", 3)], [R("blue", 4)], [R("green", 5)]])
    state.round_scores = [[1, 1, 0]]
    state.jersey = None
    state.over = True
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0, 1) and outcome.places == (1, 1, 3)


def test_a_full_tie_at_the_end_goes_to_the_jersey_holder() -> None:
    state = make_state([[R("red", 3)], [R("blue", 4)], [R("green", 5)]])
    state.round_scores = [[1, 1, 0]]
    state.jersey = 1
    state.over = True
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == (1,) and outcome.places == (2, 1, 3)


def test_no_action_is_accepted_after_the_end() -> None:
    state = make_state(
        [[R("red", 3)], [R("blue", 4)], [R("green", 5), R("green", 6)]], difficulties=(1,)
    )
    run(state, (0, P(R("red", 3))), (1, P(R("blue", 4))))
    assert GAME.to_act(state) == frozenset()
    assert GAME.legal_actions(state, 2) == []
    with pytest.raises(GameOver):
        GAME.apply(state, 2, P(R("green", 5)))


def test_only_the_seat_asked_may_act() -> None:
    state = make_state([[R("red", 3), R("red", 4)], [R("blue", 4)], [R("green", 5)]])
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 1, P(R("blue", 4)))


def test_a_player_beating_the_finisher_leads_next_not_the_finisher() -> None:
    state = make_state(
        [[R("red", 3)], [R("blue", 4), R("blue", 7)], [R("green", 5), R("green", 6)]]
    )
    run(state, (0, P(R("red", 3))), (1, P(R("blue", 4))), (2, PASS))
    assert state.phase == "play" and state.current == 1 and not state.attack


# -- refusals, views and the log -------------------------------------------------------------------------


def test_refused_actions_change_nothing() -> None:
    state = make_state([[R("red", 1), R("red", 5)], [R("blue", 7)], [R("green", 3)]])
    before = GAME.encode_state(state)
    for seat, action in [
        (0, PASS),
        (1, P(R("blue", 7))),
        (0, ChooseVictim(1)),
        (0, GiveBack(R("red", 5))),
        (0, ChooseLeader(1)),
        (0, GiveReward(0)),
        (0, P(R("red", 5), jersey=True)),
    ]:
        with pytest.raises(IllegalAction):
            GAME.apply(state, seat, action)
        assert GAME.encode_state(state) == before


def test_a_view_shows_only_the_own_hand_and_public_facts() -> None:
    state = GAME.setup(GAME.make_config(4, {"first_player": 0}), make_seed(9))
    view = GAME.view(state, 1)
    assert view["hand"] == sorted(state.hands[1])
    assert view["hand_sizes"] == [11, 11, 11, 11]
    assert view["current"] == 0 and view["phase"] == "play"
    assert view["round"] == 1 and view["difficulty"] == 1 and view["rounds"] == 5
    assert view["jersey"] == {"holder": None, "used": False, "bonus": 10}
    assert "hand" not in GAME.public_view(state)
    for key in ("hands", "aside", "draw", "rng", "seed"):
        assert key not in view


def _choices_agree(state: VelonimoState) -> list[Action]:
    """Each seat's choices from its view alone equal the host's; the acting seat's list."""
    for seat in range(state.players):
        assert GAME.legal_actions_in_view(GAME.view(state, seat)) == GAME.legal_actions(state, seat)
    return GAME.legal_actions(state, state.current)


def test_each_seat_works_out_its_choices_from_its_view_in_every_phase() -> None:
    state = make_state(
        [[R("red", 1), R("blue", 1), R("red", 5), H(30)], [R("blue", 7)], [R("green", 3)]],
        jersey=0,
        round_index=1,
        round_scores=[[2, 1, 0]],
    )
    assert P(R("red", 5), jersey=True) in _choices_agree(state)
    run(state, (0, P(R("red", 1), R("blue", 1))))
    assert _choices_agree(state) == [ChooseVictim(1), ChooseVictim(2)]
    run(state, (0, ChooseVictim(1)))
    assert all(isinstance(a, GiveBack) for a in _choices_agree(state))
    assert GAME.legal_actions_in_view(GAME.public_view(state)) == []
    duel = make_state(
        [[R("red", 4), R("red", 5)], [R("blue", 3), R("blue", 7)]], draw=[H(25)], reward=H(50)
    )
    run(duel, (0, P(R("red", 4))))
    assert PASS in _choices_agree(duel)
    run(duel, (1, PASS))
    assert _choices_agree(duel) == [GiveReward(0), GiveReward(1)]
    finisher = make_state(
        [[R("red", 3)], [R("blue", 2), R("blue", 7)], [R("green", 1), R("green", 6)]]
    )
    run(finisher, (0, P(R("red", 3))), (1, PASS), (2, PASS))
    assert _choices_agree(finisher) == [ChooseLeader(1), ChooseLeader(2)]


def test_the_omniscient_log_records_deal_exchanges_and_rewards() -> None:
    state = make_state(
        [[R("red", 1), R("red", 4), R("red", 6)], [R("blue", 3), R("blue", 7)]],
        draw=[H(25), H(30)],
        reward=H(50),
    )
    log = GameLog(GAME, GAME.make_config(2), make_seed(0), ["a", "b"])
    deal = log.start(state)[1]
    assert deal["hands"] == state.hands and deal["reward"] == H(50)
    records = []
    for seat, action in [
        (0, P(R("red", 1))),
        (0, GiveBack(R("red", 4))),
        (1, PASS),
        (0, GiveReward(1)),
    ]:
        records.append(log.action(seat, action, GAME.apply(state, seat, action)))
    logged = {e["kind"]: e for r in records for e in r["events"]}
    assert logged["leader_take"]["private"]["0"] == logged["leader_take"]["private"]["1"]
    assert logged["leader_give"]["private"]["1"] == {"card": R("red", 4)}
    assert logged["pass"] == {"kind": "pass", "seat": 1}
    assert logged["reward"] == {"kind": "reward", "seat": 0, "card": H(50), "to": 1}
    assert logged["reward_revealed"]["card"] == H(30)


def test_every_card_is_somewhere_after_each_step() -> None:
    state = make_state(
        [[R("red", 1), R("red", 4), R("red", 6)], [R("blue", 3), R("blue", 7)], [H(25)]]
    )
    run(state, (0, P(R("red", 1))), (0, ChooseVictim(2)))
    assert sorted(c for p in GAME.locations(state).values() for c in p) == list(ALL_CARDS)
