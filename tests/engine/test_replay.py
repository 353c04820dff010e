"""Replays: a finished game rebuilt step by step, as one seat saw it and as it really was."""

from __future__ import annotations

import json

import pytest

from netcards.replay import BadReplay, Replay, from_finished_game
from netcards.table import Table


def finished(game_id: str, players: int) -> tuple[Table, list[dict]]:  # type: ignore[type-arg]
    table = Table.create(game_id, players, {}, name="t", host_part=bytes(32))
    table.claim_seat("Ann", "tok")
    table.set_ready(0, True)
    for _ in range(players - 1):
        table.add_bot("heuristic")
    table.start()
    table.set_stand_in(0, True)
    views = [table.view(0)]
    while table.bot_seats_to_act():
        seat = table.bot_seats_to_act()[0]
        table.submit(seat, table.bot_action(seat))
        views.append(table.view(0))
    return table, views


@pytest.mark.parametrize(
    ("game_id", "players"), [("via-gladiola", 3), ("velonimo", 3), ("auf-achse", 2)]
)
def test_a_replay_shows_each_moment_as_the_seat_saw_it(game_id: str, players: int) -> None:
    table, views = finished(game_id, players)
    replay = from_finished_game(
        table.game, table.config, 0, [s.name for s in table.seats], table.seed, table.actions
    )
    again = Replay.from_data(json.loads(json.dumps(replay.to_data())))
    steps = again.steps()
    assert len(steps) == len(table.actions) + 1
    assert [s.view for s in steps] == views
    assert [e for s in steps for e in s.events] == table.history(0)
    final = steps[-1]
    places = table.game.locations(table.state)
    assert final.hands == {
        **{n: sorted(c) for n, c in places.items() if n.startswith("hand:")},
        **{n: list(c) for n, c in places.items() if n.startswith("run:")},  # laid in order
    }
    assert final.to_act == ()
    assert any(s.boundary for s in steps)


def test_a_spectators_replay_has_no_hand() -> None:
    table, _ = finished("via-gladiola", 2)
    replay = from_finished_game(
        table.game, table.config, None, ["a", "b"], table.seed, table.actions
    )
    assert all("hand" not in s.view for s in replay.steps())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format=9), "unsupported replay format"),
        (lambda d: d.update(rules_version="via-gladiola/0"), "recorded with rules"),
        (lambda d: d.update(seat=7), "seat is not at the table"),
        (lambda d: d.pop("seed"), "damaged"),
        (lambda d: d["actions"].insert(0, [1, {"kind": "fly"}]), "action 1 cannot be replayed"),
    ],
)
def test_a_damaged_replay_is_refused_with_its_reason(change: object, message: str) -> None:
    table, _ = finished("via-gladiola", 2)
    data = from_finished_game(
        table.game, table.config, 0, ["a", "b"], table.seed, table.actions
    ).to_data()
    change(data)  # type: ignore[operator]
    with pytest.raises(BadReplay, match=message):
        Replay.from_data(data).steps()
