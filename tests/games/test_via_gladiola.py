"""Via Gladiola: one named test per rule of the sheets and of our decisions."""

from __future__ import annotations

from typing import Any

import pytest

from netcards.errors import BadConfig, BadDeck, IllegalAction, NotYourTurn
from netcards.games.via_gladiola import GAME
from netcards.games.via_gladiola.actions import PlayGladiola, Rest, Walk
from netcards.games.via_gladiola.cards import (
    FIRST_FINISH,
    FIRST_GLADIOLA,
    house_deck,
    house_deck_text,
    start_card,
)
from netcards.games.via_gladiola.state import VGState
from netcards.rng import Rng, make_seed
from tests.engine.support import packed

DECK = house_deck()
FINISH = [FIRST_FINISH + i for i in range(6)]
GLADIOLAS = [FIRST_GLADIOLA + i for i in range(8)]


def d(value: int) -> int:
    """The id of Distance card `value`."""
    return value - 1


def make_state(
    hands: list[list[int]],
    *,
    draw: list[int] | None = None,
    day: int = 1,
    walk: list[int] | None = None,
    finished: list[list[int] | None] | None = None,
    current: int = 0,
    variant: bool = False,
) -> VGState:
    return VGState(
        players=len(hands),
        variant_last_card=variant,
        deck_text=None,
        deck=DECK,
        rng=Rng(make_seed(7)),
        hands=[list(h) for h in hands],
        draw=list(draw or []),
        day=day,
        walk=walk if walk is not None else [start_card(day)],
        finished=finished
        if finished is not None
        else [[start_card(i + 1)] for i in range(day - 1)],
        gladiolas=[],
        current=current,
        first_player=0,
    )


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


# -- the sheet's worked example -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "draws"),
    [(22, 0), (26, 0), (27, 1), (31, 1), (32, 2), (36, 2)],
)
def test_worked_example_top_21_cadence(value: int, draws: int) -> None:
    draw_pile = [d(1), d(2), d(3)]
    state = make_state([[d(value)], [d(40)]], draw=draw_pile, walk=[start_card(1), d(21)])
    events = GAME.apply(state, 0, Walk(d(value)))
    assert events[0].public["cadence_draws"] == draws
    drawn = [c for e in events if e.kind == "draw" for c in e.private[0]["cards"]]
    assert len(drawn) == draws
    assert state.hands[0] == drawn
    assert state.walk[-1] == d(value)


@pytest.mark.parametrize("value", [37, 40, 49])
def test_worked_example_top_21_refuses_37_and_above(value: int) -> None:
    state = make_state([[d(value)], [d(40)]], draw=[d(1)], walk=[start_card(1), d(21)])
    before = packed(GAME, state)
    with pytest.raises(IllegalAction, match="too fast"):
        GAME.apply(state, 0, Walk(d(value)))
    assert packed(GAME, state) == before
    assert Walk(d(value)) not in GAME.legal_actions(state, 0)


@pytest.mark.parametrize("value", [21, 20, 3])
def test_walk_must_be_strictly_higher(value: int) -> None:
    state = make_state([[d(value)], [d(40)]], draw=[d(1)], walk=[start_card(1), d(21)])
    with pytest.raises(IllegalAction, match="not higher"):
        GAME.apply(state, 0, Walk(d(value)))


def test_first_walk_of_a_day_starts_from_zero() -> None:
    state = make_state([[d(15), d(16)], [d(40)]], draw=[d(1), d(2), d(3)])
    legal = GAME.legal_actions(state, 0)
    assert Walk(d(15)) in legal and Walk(d(16)) not in legal


def test_only_the_current_player_may_act() -> None:
    state = make_state([[d(3)], [d(4)]], draw=[d(1)])
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 1, Walk(d(4)))
    assert GAME.to_act(state) == {0}


def test_a_card_not_in_hand_is_refused() -> None:
    state = make_state([[d(3)], [d(4)]], draw=[d(1)])
    with pytest.raises(IllegalAction, match="not in your hand"):
        GAME.apply(state, 0, Walk(d(4)))


# -- Finish and days ------------------------------------------------------------------------------


def test_finish_playable_only_on_35_to_49() -> None:
    for top, ok in [(34, False), (35, True), (49, True)]:
        state = make_state([[FINISH[0]], [d(1)]], walk=[start_card(1), d(top)])
        assert (Walk(FINISH[0]) in GAME.legal_actions(state, 0)) is ok


def test_finish_draws_its_cadence_then_ends_the_day_and_next_player_starts_day_2() -> None:
    state = make_state(
        [[d(2)], [FINISH[0], d(5)], [d(3)]],
        draw=[d(10), d(11)],
        walk=[start_card(1), d(40)],
        current=1,
    )
    events = GAME.apply(state, 1, Walk(FINISH[0]))
    assert kinds(events) == ["walk", "draw", "day_end", "day_start"]
    assert events[1].public == {"seat": 1, "count": 1}
    assert sorted(state.hands[1]) == sorted([d(5), d(11)])
    assert state.day == 2
    assert state.walk == [start_card(2)]
    assert state.finished[0] == [start_card(1), d(40), FINISH[0]]
    assert state.current == 2, "the day starts with the next player after the finisher"
    assert events[2].public == {"day": 1, "reason": "finish", "seat": 1}


def test_day_4_finish_ends_the_game() -> None:
    state = make_state([[FINISH[0], d(5)], [d(3), d(4)]], day=4, walk=[start_card(4), d(45)])
    events = GAME.apply(state, 0, Walk(FINISH[0]))
    assert kinds(events)[-2:] == ["day_end", "game_end"]
    assert GAME.to_act(state) == frozenset()
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.scores == (DECK.blisters[d(5)], DECK.blisters[d(3)] + DECK.blisters[d(4)])


# -- Gladiolas ------------------------------------------------------------------------------------


@pytest.mark.parametrize("day", [1, 2, 3])
def test_gladiola_refused_before_day_4(day: int) -> None:
    state = make_state([[GLADIOLAS[0], d(3)], [d(4)]], day=day)
    assert PlayGladiola(GLADIOLAS[0]) not in GAME.legal_actions(state, 0)
    before = packed(GAME, state)
    with pytest.raises(IllegalAction, match="only be played on day 4"):
        GAME.apply(state, 0, PlayGladiola(GLADIOLAS[0]))
    assert packed(GAME, state) == before


def test_gladiola_on_day_4_is_the_turns_action_and_leaves_the_walk_pile() -> None:
    state = make_state(
        [[GLADIOLAS[3], d(3)], [d(4)]], day=4, draw=[d(9)], walk=[start_card(4), d(2)]
    )
    events = GAME.apply(state, 0, PlayGladiola(GLADIOLAS[3]))
    assert kinds(events) == ["gladiola"]
    assert state.gladiolas == [GLADIOLAS[3]]
    assert state.walk == [start_card(4), d(2)]
    assert state.hands[0] == [d(3)], "no card is drawn"
    assert state.draw == [d(9)]
    assert state.current == 1, "laying a Gladiola is the whole turn"


def test_gladiola_cannot_be_walked() -> None:
    state = make_state([[GLADIOLAS[0]], [d(4)]], day=4)
    with pytest.raises(IllegalAction, match="Gladiola cannot be walked"):
        GAME.apply(state, 0, Walk(GLADIOLAS[0]))


def test_a_distance_card_cannot_be_laid_as_a_gladiola() -> None:
    state = make_state([[d(5)], [d(4)]], day=4)
    with pytest.raises(IllegalAction, match="only a Gladiola"):
        GAME.apply(state, 0, PlayGladiola(d(5)))


# -- resting and the draw pile --------------------------------------------------------------------


def test_rest_draws_one_card_from_the_top() -> None:
    state = make_state([[d(40)], [d(41)]], draw=[d(1), d(2)])
    events = GAME.apply(state, 0, Rest())
    assert state.hands[0] == [d(40), d(2)]
    assert events[1].private == {0: {"cards": [d(2)]}}
    assert events[1].public == {"seat": 0, "count": 1}


def test_rest_is_always_legal_even_with_nothing_to_draw() -> None:
    state = make_state([[d(40)], [d(41)]], draw=[])
    assert Rest() in GAME.legal_actions(state, 0)
    events = GAME.apply(state, 0, Rest())
    assert state.hands[0] == [d(40)]
    assert events[-1].public == {"seat": 0, "count": 0}
    assert state.current == 1


def test_empty_pile_reshuffles_oldest_finished_day_without_its_start_card_days_1_2_3() -> None:
    finished: list[list[int] | None] = [
        [start_card(1), d(5)],
        [start_card(2), d(6), d(7)],
        [start_card(3), d(8)],
    ]
    state = make_state([[d(40)], [d(41)]], day=4, draw=[], finished=finished)
    days = []
    for turn in range(4):
        events = GAME.apply(state, turn % 2, Rest())
        days += [e.public["day"] for e in events if e.kind == "reshuffle"]
    assert days == [1, 2, 3]
    assert sorted(state.hands[0] + state.hands[1]) == sorted([d(40), d(41), d(5), d(6), d(7), d(8)])
    assert all(c < start_card(1) for h in state.hands for c in h), "Start cards never reshuffled"
    assert state.finished == [None, None, None]
    view = GAME.view(state, 0)
    assert view["reshuffled_days"] == [1, 2, 3] and view["finished_days"] == []


def test_the_day_being_walked_is_never_reshuffled() -> None:
    state = make_state([[d(40)], [d(41)]], day=2, draw=[], walk=[start_card(2), d(3), d(4)])
    state.finished = [None]
    GAME.apply(state, 0, Rest())
    assert state.walk == [start_card(2), d(3), d(4)]
    assert state.hands[0] == [d(40)]


def test_reshuffle_in_the_middle_of_a_cadence_draw() -> None:
    state = make_state(
        [[d(12), d(40)], [d(41)]],
        day=2,
        draw=[d(30)],
        finished=[[start_card(1), d(20)]],
    )
    events = GAME.apply(state, 0, Walk(d(12)))
    assert kinds(events) == ["walk", "draw", "reshuffle", "draw"]
    assert sorted(state.hands[0]) == sorted([d(40), d(30), d(20)])
    assert events[2].secret == {"draw_pile_top_last": [d(20)]}
    assert "draw_pile_top_last" not in events[2].for_seat(0)


def test_drawn_cards_are_told_only_to_the_drawer() -> None:
    state = make_state([[d(8), d(40)], [d(41)]], draw=[d(1), d(2)])
    events = GAME.apply(state, 0, Walk(d(8)))
    draw = next(e for e in events if e.kind == "draw")
    assert draw.for_seat(0)["cards"] == [d(2)]
    assert "cards" not in draw.for_seat(1) and "cards" not in draw.for_seat(None)
    assert draw.for_seat(1)["count"] == 1


# -- the stalemate guard --------------------------------------------------------------------------


def test_stalemate_guard_ends_the_day_after_a_full_round_of_empty_rests() -> None:
    state = make_state([[d(1)], [d(2)], [d(3)]], day=2, draw=[], walk=[start_card(2), d(40)])
    state.finished = [None]
    GAME.apply(state, 0, Rest())
    GAME.apply(state, 1, Rest())
    assert state.day == 2
    events = GAME.apply(state, 2, Rest())
    assert kinds(events) == ["rest", "draw", "stalemate", "day_end", "day_start"]
    assert events[3].public["reason"] == "stalemate"
    assert state.day == 3 and state.walk == [start_card(3)]
    assert state.current == 0, "the next player after the last one to rest starts"
    assert [len(h) for h in state.hands] == [1, 1, 1], "nobody draws"


def test_a_played_card_resets_the_stalemate_count() -> None:
    state = make_state([[d(1)], [d(42), d(2)], [d(3)]], day=2, draw=[], walk=[start_card(2), d(40)])
    state.finished = [None]
    GAME.apply(state, 0, Rest())
    GAME.apply(state, 1, Walk(d(42)))
    GAME.apply(state, 2, Rest())
    GAME.apply(state, 0, Rest())
    assert state.day == 2
    GAME.apply(state, 1, Rest())
    assert state.day == 3


# -- scoring and ties -----------------------------------------------------------------------------


def _ended(hands: list[list[int]]) -> VGState:
    state = make_state(hands, day=4)
    state.over = True
    state.end_reason = "day_4_over"
    return state


def test_fewest_blisters_wins() -> None:
    # 11 has 0 blisters, 6 has 5.
    outcome = GAME.outcome(_ended([[d(6)], [d(11)], [d(6), d(11)]]))
    assert outcome is not None
    assert outcome.scores == (5, 0, 5)
    assert outcome.winners == (1,)


def test_blister_tie_goes_to_fewer_cards() -> None:
    # 5 has 1 blister; 16 and 18 have 1 and 0.
    outcome = GAME.outcome(_ended([[d(5)], [d(16), d(18)]]))
    assert outcome is not None
    assert outcome.scores == (1, 1)
    assert outcome.winners == (0,)
    assert outcome.places == (1, 2)


def test_still_tied_players_share_the_win() -> None:
    outcome = GAME.outcome(_ended([[d(5), d(18)], [d(16), d(27)], [d(6)]]))
    assert outcome is not None
    assert outcome.winners == (0, 1)
    assert outcome.places == (1, 1, 3)


# -- the variant ----------------------------------------------------------------------------------


def test_variant_last_card_ends_the_game_at_once() -> None:
    state = make_state([[d(3)], [d(6), d(7)]], draw=[d(20)], variant=True)
    events = GAME.apply(state, 0, Walk(d(3)))
    assert events[-1].kind == "game_end"
    assert events[-1].public["reason"] == "last_card"
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,)


@pytest.mark.parametrize(("top", "value", "draws"), [(21, 27, 1), (21, 36, 2)])
def test_variant_a_last_card_walked_ends_the_game_before_its_cadence_draws(
    top: int, value: int, draws: int
) -> None:
    state = make_state(
        [[d(value)], [d(6)]], draw=[d(1), d(2), d(3)], walk=[start_card(1), d(top)], variant=True
    )
    events = GAME.apply(state, 0, Walk(d(value)))
    assert events[0].public["cadence_draws"] == draws
    assert kinds(events) == ["walk", "game_end"], "no card is drawn after the last one"
    assert events[-1].public["reason"] == "last_card"
    assert state.hands[0] == [] and state.draw == [d(1), d(2), d(3)]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,)


def test_variant_a_last_finish_ends_the_game_not_the_day() -> None:
    state = make_state([[FINISH[0]], [d(6)]], draw=[d(1), d(2)], walk=[start_card(1), d(38)],
                       variant=True)  # fmt: skip
    events = GAME.apply(state, 0, Walk(FINISH[0]))
    assert kinds(events) == ["walk", "game_end"]
    assert state.day == 1 and state.hands[0] == []


def test_variant_a_last_gladiola_ends_the_game() -> None:
    state = make_state([[GLADIOLAS[0]], [d(6)]], draw=[d(1)], day=4, variant=True)
    events = GAME.apply(state, 0, PlayGladiola(GLADIOLAS[0]))
    assert kinds(events) == ["gladiola", "game_end"]
    assert events[-1].public["reason"] == "last_card"


def test_without_the_variant_an_empty_hand_plays_on() -> None:
    state = make_state([[d(3)], [d(6), d(7)]], draw=[d(20)])
    GAME.apply(state, 0, Walk(d(3)))
    assert not state.over
    assert GAME.legal_actions(state, 0) == []
    GAME.apply(state, 1, Walk(d(6)))
    assert GAME.legal_actions(state, 0) == [Rest()]


# -- setup, options, deck -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_deal_eight_cards_each_from_63(players: int) -> None:
    state = GAME.setup(GAME.make_config(players), make_seed(players))
    assert [len(h) for h in state.hands] == [8] * players
    assert len(state.draw) == 63 - 8 * players
    assert state.walk == [start_card(1)]
    assert 0 <= state.current < players


def test_first_player_option() -> None:
    config = GAME.make_config(4, {"first_player": 2})
    assert GAME.setup(config, make_seed(1)).current == 2
    with pytest.raises(BadConfig, match="first_player"):
        GAME.make_config(3, {"first_player": 3})


def test_random_first_player_varies_with_the_seed() -> None:
    firsts = {GAME.setup(GAME.make_config(5), make_seed(s)).current for s in range(40)}
    assert firsts == {0, 1, 2, 3, 4}


@pytest.mark.parametrize("players", [1, 6])
def test_player_count_outside_2_to_5_is_refused(players: int) -> None:
    with pytest.raises(BadConfig, match="2 to 5 players"):
        GAME.make_config(players)


def test_house_deck_matches_the_rules_page() -> None:
    assert [c.blisters for c in DECK.cards[:10]] == [3, 2, 3, 2, 1, 5, 4, 5, 3, 4]
    assert DECK.blisters[d(49)] == 1
    assert [DECK.blisters[c] for c in FINISH] == [0, 0, 1, 1, 2, 2]
    assert [DECK.blisters[c] for c in GLADIOLAS] == [1, 1, 2, 2, 3, 3, 4, 5]
    assert sum(1 for c in DECK.cards if c.kind == "distance") == 49


def test_a_deck_file_changes_the_blisters() -> None:
    text = house_deck_text().replace("\n6 = 5\n", "\n6 = 0\n")
    config = GAME.make_config(2, {"deck": text})
    state = GAME.setup(config, make_seed(3))
    assert state.deck.blisters[d(6)] == 0
    cards = GAME.cards(config)
    assert cards[d(6)] == {"id": d(6), "kind": "distance", "value": 6, "blisters": 0}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.replace("game = ", "gam = "), "for game None"),
        (lambda t: t + "\n[[", "not valid TOML"),
        (lambda t: t.replace("\n17 = 1\n", "\n"), "missing 17"),
        (
            lambda t: t.replace("\n17 = 1\n", "\n17 = 6\n"),
            r"\[distance\] 17 must be between 0 and 5",
        ),
        (lambda t: t.replace("\n17 = 1\n", "\n17 = 1\n50 = 1\n"), "between 1 and 49"),
        (lambda t: t.replace("[0, 0, 1, 1, 2, 2]", "[0, 0, 1, 1, 2]"), "must list 6 cards"),
        (lambda t: t.replace("[0, 0, 1, 1, 2, 2]", "[0, 0, 1, 1, 2, 3]"), "between 0 and 2"),
        (
            lambda t: t.replace("[1, 1, 2, 2, 3, 3, 4, 5]", "[0, 1, 2, 2, 3, 3, 4, 5]"),
            "between 1 and 5",
        ),
        (lambda t: t.replace("\n17 = 1\n", '\n17 = "one"\n'), "whole number"),
        (lambda t: t + "\n[extra]\n", "unknown key 'extra'"),
    ],
)
def test_malformed_deck_files_are_refused_by_name(change: Any, message: str) -> None:
    with pytest.raises(BadDeck, match=message):
        GAME.make_config(2, {"deck": change(house_deck_text())})
