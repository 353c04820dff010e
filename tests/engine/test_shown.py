"""The end-of-game check of everything else a client was shown: views, snapshots, events told
twice, the result and the start, held against the replay (`netcards.shown`, `verify_game`)."""

from __future__ import annotations

import os
from typing import Any

import pytest

from netcards.fairdeal import Verdict, verify_game
from netcards.shown import ShownGame, digest
from netcards.table import Table

SEAT = 0


def _finished(game: str = "velonimo") -> Table:
    table = Table.create(game, 2, {}, name="t", host_part=os.urandom(32))
    ann = table.claim_seat("Ann", "tok-ann")
    table.contribute(ann.index, b"a" * 32)
    table.set_ready(ann.index, True)
    table.add_bot("random")
    table.start()
    table.set_stand_in(SEAT, True)
    for _ in range(10_000):
        seats = table.bot_seats_to_act()
        if not seats:
            break
        table.submit(seats[0], table.bot_action(seats[0]))
    assert table.outcome() is not None
    return table


def _view(table: Table, state: Any, seat: int | None) -> dict[str, Any]:
    game = table.game
    return game.public_view(state) if seat is None else game.view(state, seat)


def _start_facts(table: Table, seat: int | None) -> dict[str, Any]:
    return {
        "game": table.game.id,
        "rules_version": table.game.rules_version,
        "players": table.config.players,
        "options": dict(table.config.options),
        "seat": seat,
        "commitment": table.commit,
        "parts": table.contributions(),
    }


def _honest_record(table: Table, seat: int | None) -> ShownGame:
    """What an honest host shows `seat`: the start, the first snapshot, every update."""
    game = table.game
    shown = ShownGame()
    shown.on_start(_start_facts(table, seat), list(game.cards(table.config)))
    state = game.setup(table.config, table.seed)
    shown.on_view(0, _view(table, state, seat), sorted(game.to_act(state)), snapshot=True)
    for seq, (actor, data) in enumerate(table.actions, 1):
        events = game.apply(state, actor, game.decode_action(data))
        shown.on_events(seq, [e.for_seat(seat) for e in events], history=False)
        shown.on_view(seq, _view(table, state, seat), sorted(game.to_act(state)), snapshot=False)
    outcome = game.outcome(state)
    assert outcome is not None
    shown.on_result(outcome.to_data())
    return shown


def _check(table: Table, shown: ShownGame, seat: int | None = SEAT, **change: Any) -> Verdict:
    args: dict[str, Any] = {
        "seat": seat,
        "commit": table.commit,
        "host_part": table.host_part,
        "contributions": table.contributions(),
        "my_contribution": None,
        "actions": list(table.actions),
        "received": [(seq, events) for seq, _, events in table.history_steps(seat)],
        "shown": shown,
    }
    args.update(change)
    return verify_game(table.game, table.config, **args)


def _replayed_view(
    table: Table, seq: int, seat: int | None = SEAT
) -> tuple[dict[str, Any], list[int]]:
    game = table.game
    state = game.setup(table.config, table.seed)
    for actor, data in table.actions[:seq]:
        game.apply(state, actor, game.decode_action(data))
    return _view(table, state, seat), sorted(game.to_act(state))


def test_the_digest_is_of_the_data_not_of_how_it_was_built() -> None:
    assert digest({"a": [1, (2, 3)], "b": None}) == digest({"b": None, "a": (1, [2, 3])})
    assert digest({1: "x"}) != digest({"1": "x"})
    assert digest([True]) != digest([1])
    assert digest([0]) != digest([False])
    assert digest(["ab", "c"]) != digest(["a", "bc"])
    assert digest({"k": b"\x00"}) != digest({"k": "\x00"})


@pytest.mark.parametrize("game", ["via-gladiola", "velonimo", "auf-achse"])
@pytest.mark.parametrize("seat", [SEAT, None], ids=["player", "spectator"])
def test_what_an_honest_host_showed_verifies(game: str, seat: int | None) -> None:
    table = _finished(game)
    assert _check(table, _honest_record(table, seat), seat).ok


def test_a_spectator_shown_a_seats_view_is_not_verified() -> None:
    table = _finished()
    shown = _honest_record(table, SEAT)  # a seat's hand, shown to a spectator
    verdict = _check(table, shown, seat=None)
    assert "the first snapshot differs from the replay (hand, seat)" in verdict.problems


def test_a_rewritten_first_snapshot_is_named_by_its_fields() -> None:
    table = _finished()
    shown = ShownGame()
    view, to_act = _replayed_view(table, 0)
    reward = 54 if view.get("reward") != 54 else 53  # any card but the deal's
    shown.on_view(0, {**view, "reward": reward, "totals": [9, 0]}, to_act, snapshot=True)
    assert _check(table, shown).problems == [
        "the first snapshot differs from the replay (reward, totals)"
    ]


def test_a_view_with_a_field_added_or_left_out_or_the_wrong_seat_to_act() -> None:
    table = _finished()
    view, to_act = _replayed_view(table, 2)
    added = ShownGame()
    added.on_view(2, {**view, "bonus": 1}, to_act, snapshot=False)
    assert _check(table, added).problems == [
        "the view after update 2 differs from the replay (bonus)"
    ]
    left_out = ShownGame()
    left_out.on_view(2, {k: v for k, v in view.items() if k != "hand"}, to_act, snapshot=False)
    assert _check(table, left_out).problems == [
        "the view after update 2 differs from the replay (hand)"
    ]
    acting = ShownGame()
    acting.on_view(2, view, [1 - s for s in to_act] or [0], snapshot=False)
    assert _check(table, acting).problems == [
        "the view after update 2 differs from the replay (who must act)"
    ]


def test_a_snapshot_after_coming_back_is_held_to_the_replay_at_its_update() -> None:
    table = _finished()
    shown = _honest_record(table, SEAT)
    view, to_act = _replayed_view(table, 5)
    shown.on_view(5, view, to_act, snapshot=True)  # the same view again: fine
    assert _check(table, shown).ok
    shown.on_view(5, {**view, "totals": [1, 1]}, to_act, snapshot=True)
    assert _check(table, shown).problems == [
        "the snapshot at update 5 differs from the replay (totals)"
    ]


def test_events_shown_live_and_told_otherwise_in_the_history_are_caught() -> None:
    """The log compared with the replay is the history's; the live update said something else."""
    table = _finished()
    shown = _honest_record(table, SEAT)
    seq, _, events = table.history_steps(SEAT)[3]
    shown.on_events(seq, [{**e, "forged": True} for e in events], history=False)
    assert _check(table, shown).problems == [
        f"the events of update {seq} as it was played differ from the replay"
    ]
    shown = _honest_record(table, SEAT)
    shown.on_events(seq, [], history=True)
    assert _check(table, shown).problems == [
        f"the events of update {seq} in the history sent on coming back differ from the replay"
    ]


def test_a_changed_result_is_named_by_its_fields() -> None:
    table = _finished()
    shown = _honest_record(table, SEAT)
    outcome = table.outcome()
    assert outcome is not None
    real = outcome.to_data()
    shown.on_result({**real, "winners": [1] if real["winners"] == [0] else [0]})
    assert _check(table, shown).problems == ["the result differs from the replay (winners)"]
    shown.on_result({**real, "scores": [s + 1 for s in real["scores"]], "detail": {"x": 1}})
    assert _check(table, shown).problems == ["the result differs from the replay (detail, scores)"]


def test_a_result_for_a_game_the_actions_do_not_finish() -> None:
    table = _finished()
    shown = ShownGame()
    outcome = table.outcome()
    assert outcome is not None
    shown.on_result(outcome.to_data())
    actions = list(table.actions)[:-1]
    received = [(seq, events) for seq, _, events in table.history_steps(SEAT)]
    verdict = _check(table, shown, actions=actions, received=received[:-1], finished=False)
    assert verdict.problems == ["the host sent a result, but the game it played is not over"]


def test_views_beyond_the_revealed_actions_are_reported() -> None:
    table = _finished()
    shown = ShownGame()
    view, to_act = _replayed_view(table, len(table.actions))
    shown.on_view(len(table.actions) + 1, view, to_act, snapshot=False)
    assert _check(table, shown).problems == [
        f"we were shown the view after update {len(table.actions) + 1}, which the revealed "
        "actions do not make"
    ]


def test_the_start_must_describe_this_tables_deck_and_say_the_same_every_time() -> None:
    table = _finished()
    cards = list(table.game.cards(table.config))
    shown = ShownGame()
    shown.on_start(_start_facts(table, SEAT), [{**cards[0], "value": 99}, *cards[1:]])
    assert _check(table, shown).problems == [
        "the card catalogue in 'start' is not this table's deck"
    ]
    again = ShownGame()
    again.on_start(_start_facts(table, SEAT), cards)
    again.on_start({**_start_facts(table, SEAT), "options": {"duel_target": 1}}, cards)
    again.on_start({**_start_facts(table, SEAT), "seat": 1}, cards[1:])
    assert _check(table, again).problems == [
        "the 'start' sent again on coming back differs from the first (options)",
        "the 'start' sent again on coming back differs from the first (seat, cards)",
    ]


def test_what_the_host_took_back_after_a_crash_is_not_held_against_it() -> None:
    table = _finished()
    shown = _honest_record(table, SEAT)
    view, to_act = _replayed_view(table, 6)
    shown.on_view(6, {**view, "totals": [3, 3]}, to_act, snapshot=False)  # another timeline
    shown.on_events(6, [{"kind": "other"}], history=False)
    assert not _check(table, shown).ok
    shown.taken_back(6)
    assert not [v for v in shown.views if v.seq >= 6]
    assert _check(table, shown).ok
