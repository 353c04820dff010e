"""The order of Auf Achse's events between rounds and stages, as the table "event order" of
docs/games/auf-achse.md writes it, held to seeded games played to the end."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from netcards.event import Event
from netcards.games.auf_achse import GAME, flow
from netcards.games.auf_achse.state import AAState
from netcards.rng import make_seed
from tests.docs.markdown import marked_tables, unquote

PAGE = Path(__file__).parents[2] / "docs" / "games" / "auf-achse.md"
BOUNDARY_KINDS = {"refill", "reshuffle", "first_player", "stage_end", "stage_start",
                  "round_start", "game_end"}  # fmt: skip


def pattern(cell: str) -> re.Pattern[str]:
    """The page's notation (`A*`, `(A | B)*`, a list joined by commas) as a regular expression
    over the event kinds, each followed by ';'."""
    parts = []
    for raw in cell.split(", "):
        quoted = unquote(raw.strip())
        star = quoted.endswith("*")
        item = quoted.rstrip("*")
        if item.startswith("("):
            names = [n.strip() for n in item.strip("()").split("|")]
            body = "(?:" + "|".join(f"{n};" for n in names) + ")"
        else:
            body = f"(?:{item};)"
        parts.append(body + ("*" if star else ""))
    return re.compile("".join(parts))


def documented() -> dict[str, re.Pattern[str]]:
    rows = marked_tables(PAGE.read_text(encoding="utf-8"))["event order"]
    return {when: pattern(order) for when, order in rows}


def tail(events: list[Event]) -> str:
    """What follows the last `reveal`, `runs_added` or `free_road_added` of an update, as
    'kind;kind;...'."""
    steps = ("reveal", "runs_added", "free_road_added")
    last = max(i for i, e in enumerate(events) if e.kind in steps)
    return "".join(f"{e.kind};" for e in events[last + 1 :])


def play(seed: int, players: int) -> list[list[Event]]:
    """Every update's events of one seeded game, random legal moves."""
    state = GAME.setup(GAME.make_config(players), make_seed(seed))
    rng = random.Random(seed)
    updates = []
    while not state.over:
        seat = min(GAME.to_act(state))
        updates.append(GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat))))
    return updates


GAMES = [(seed, players) for seed, players in ((1, 2), (2, 3), (3, 4), (4, 5), (5, 3))]


@pytest.mark.parametrize(("seed", "players"), GAMES)
def test_every_round_end_in_a_seeded_game_is_one_documented_order(seed: int, players: int) -> None:
    rows = documented()
    seen = set()
    for events in play(seed, players):
        if not BOUNDARY_KINDS & {e.kind for e in events}:
            continue
        text = tail(events)
        matches = [when for when, regex in rows.items() if regex.fullmatch(text)]
        assert matches, f"no documented order for {text}"
        seen.update(matches)
    assert any("below the target after round" in w for w in seen)
    assert any("(stage 5)" in w and "target" in w for w in seen)


@pytest.mark.parametrize(("seed", "players"), GAMES)
def test_round_start_follows_every_stage_start_but_stage_1_s(seed: int, players: int) -> None:
    flat = [e for events in play(seed, players) for e in events]
    starts = [e for e in flat if e.kind == "round_start"]
    first = (starts[0].public["stage"], starts[0].public["round"])
    assert first in ((1, 2), (2, 1)), "stage 1's round 1 is in the first snapshot: no event"
    stage_ends = [i for i, e in enumerate(flat) if e.kind == "stage_end"]
    assert len(stage_ends) == 5
    for i in stage_ends[:-1]:
        end, deal, first_round = flat[i], flat[i + 1], flat[i + 2]
        assert (deal.kind, first_round.kind) == ("stage_start", "round_start")
        assert first_round.public["round"] == 1
        assert deal.public["first_player"] == (end.public["first_player"] + 1) % players, (
            "the first-player card moves on once more between stages, with no first_player event"
        )
        assert first_round.public["first_player"] == deal.public["first_player"]
    assert flat[stage_ends[-1] + 1].kind == "game_end"


def test_refills_go_from_the_first_player_on_and_none_is_empty() -> None:
    for seed, players in GAMES:
        for events in play(seed, players):
            passed = [e.public["seat"] for e in events if e.kind == "first_player"]
            if not passed:
                continue
            old_first = (passed[0] - 1) % players
            refills = [e.public for e in events if e.kind == "refill"]
            assert all(r["count"] > 0 for r in refills), "no empty refills"
            order = [(r["seat"] - old_first) % players for r in refills]
            assert order == sorted(order), "seat by seat from the old first player on"


def _round_over(hand_sizes: list[int], draw: int, discard: int) -> AAState:
    """Seat 1 is first player, the total is below the target, and the hands, draw pile and
    discard pile hold that many cards."""
    state = GAME.setup(GAME.make_config(3, {"first_player": 1}), make_seed(4))
    cards = list(range(109))
    state.hands = [[cards.pop() for _ in range(n)] for n in hand_sizes]
    state.draw = [cards.pop() for _ in range(draw)]
    state.discard = [cards.pop() for _ in range(discard)]
    state.runs = [[cards.pop()] for _ in range(3)]
    state.total = 0
    return state


def test_a_refill_split_by_a_reshuffle_and_a_seat_with_nothing_to_draw() -> None:
    # Seat 1 owes 3 with 1 card in the draw pile and 2 in the discards; seat 2 owes nothing;
    # seat 0 owes 1 and finds both piles empty.
    state = _round_over([9, 7, 10], draw=1, discard=2)
    events: list[Event] = []
    flow.end_round(state, events)
    assert [(e.kind, e.public.get("seat"), e.public.get("count")) for e in events] == [
        ("refill", 1, 1),
        ("reshuffle", None, None),
        ("refill", 1, 2),
        ("first_player", 2, None),
        ("round_start", None, None),
    ]
    assert events[1].public == {"size": 2}
    assert [len(h) for h in state.hands] == [9, 10, 10]


def test_a_refill_that_starts_on_an_empty_draw_pile_is_reshuffle_then_refill() -> None:
    state = _round_over([10, 8, 10], draw=0, discard=5)
    events: list[Event] = []
    flow.end_round(state, events)
    assert [e.kind for e in events] == ["reshuffle", "refill", "first_player", "round_start"]
    assert events[1].public == {"seat": 1, "count": 2}
    assert len(state.draw) == 3, "the discards were shuffled only because a card was owed"


def test_the_discards_are_not_shuffled_when_no_card_is_owed() -> None:
    state = _round_over([10, 10, 10], draw=0, discard=5)
    events: list[Event] = []
    flow.end_round(state, events)
    assert [e.kind for e in events] == ["first_player", "round_start"]
    assert len(state.discard) == 5


def _stuck(stage: int) -> AAState:
    """A state at the end of a round in which every card has left the game's circulation: no
    hand, draw or discard card, and the total below the target."""
    state = GAME.setup(GAME.make_config(3, {"first_player": 0}), make_seed(9))
    state.stage = stage
    state.round = 4
    every = [c for h in state.hands for c in h] + state.draw
    state.runs = [every[0::3], every[1::3], every[2::3]]
    state.hands = [[], [], []]
    state.draw = []
    state.discard = []
    state.total = 0
    return state


@pytest.mark.parametrize("stage", [2, 5])
def test_a_stage_where_nobody_holds_a_card_ends_after_the_first_player_event(stage: int) -> None:
    rows = documented()
    state = _stuck(stage)
    events: list[Event] = []
    flow.end_round(state, events)
    text = "".join(f"{e.kind};" for e in events)
    matches = [when for when, regex in rows.items() if regex.fullmatch(text)]
    assert matches and all("nobody holds a card" in w for w in matches), text
    assert (f"(stage {stage})" in matches[0]) or (stage < 5 and "stages 1 to 4" in matches[0])
    end = next(e for e in events if e.kind == "stage_end")
    assert end.public["reason"] == "no_cards"
    assert end.public["first_player"] == 1, "the card had passed on from seat 0 already"
    assert end.public["rounds"] == 4
    assert end.public["runs"][0]["seat"] == 1, "runs are scored from the card's holder"
    if stage < 5:
        deal = next(e for e in events if e.kind == "stage_start")
        assert deal.public["first_player"] == 2
