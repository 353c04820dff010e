"""The omniscient log is complete: an independent checker re-plays every game from the log alone.

The checker below knows the sheet's rules but uses none of the engine's code or RNG: it takes the
deck, the deal and every reshuffle's order from the log, and checks each move, each draw and the
final scores against them.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from ui.cli import run


def recheck(records: list[dict[str, Any]]) -> int:
    """Re-play every game of a log; returns how many games were checked."""
    games = 0
    it = iter(records)
    for header in it:
        assert header["type"] == "game"
        deal = next(it)
        assert deal["type"] == "deal"
        cards = {c["id"]: c for c in header["deck"]}
        n = header["players"]
        hands = [list(h) for h in deal["hands"]]
        pile = list(deal["draw_pile_top_last"])
        starts = sorted(i for i, c in cards.items() if c["kind"] == "start")
        assert len(pile) + sum(map(len, hands)) + len(starts) == len(cards)
        day, walk, finished, current = 1, [starts[0]], [], deal["first_player"]
        for record in it:
            if record["type"] == "end":
                blisters = [sum(cards[c]["blisters"] for c in h) for h in hands]
                assert record["scores"] == blisters
                keys = [(blisters[s], len(hands[s])) for s in range(n)]
                assert record["winners"] == [s for s in range(n) if keys[s] == min(keys)]
                games += 1
                break
            assert record["seat"] == current
            action = record["action"]
            events = record["events"]
            seat = record["seat"]
            if action["kind"] == "walk":
                card = action["card"]
                assert card in hands[seat]
                assert cards[card]["kind"] in ("distance", "finish")
                step = cards[card]["value"] - cards[walk[-1]]["value"]
                assert 1 <= step <= 15
                hands[seat].remove(card)
                walk.append(card)
                assert events[0]["cadence_draws"] == (step + 4) // 5 - 1
            elif action["kind"] == "gladiola":
                assert day == 4 and cards[action["card"]]["kind"] == "gladiola"
                hands[seat].remove(action["card"])
            for event in events:
                if event["kind"] == "draw":
                    got = event["private"][str(seat)]["cards"] if event["count"] else []
                    for card in got:
                        assert pile.pop() == card
                    hands[seat].extend(got)
                elif event["kind"] == "reshuffle":
                    assert not pile
                    oldest = next(i for i, p in enumerate(finished) if p is not None)
                    assert event["day"] == oldest + 1
                    assert sorted(event["draw_pile_top_last"]) == sorted(
                        c for c in finished[oldest] if cards[c]["kind"] != "start"
                    )
                    finished[oldest] = None
                    pile = list(event["draw_pile_top_last"])
                elif event["kind"] == "day_end":
                    if event["reason"] == "finish":
                        assert cards[walk[-1]]["kind"] == "finish"
                    finished.append(walk)
                    if day < 4:
                        day += 1
                        walk = [starts[day - 1]]
            current = (seat + 1) % n
            day_starts = [e for e in events if e["kind"] == "day_start"]
            if day_starts:
                assert day_starts[0]["seat"] == current
    return games


@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_game_of_a_logged_run_rechecks_without_the_engine(
    tmp_path: Any, players: int
) -> None:
    log = tmp_path / "run.jsonl"
    out, err = io.StringIO(), io.StringIO()
    code = run(
        [
            "simulate", "--game", "via-gladiola", "--players", str(players), "--games", "30",
            "--seed", "11", "--bots", "random,heuristic", "--log", str(log),
        ],
        out,
        err,
    )  # fmt: skip
    assert code == 0, err.getvalue()
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert recheck(records) == 30
    header = records[0]
    assert header["rules_version"] == "via-gladiola/1"
    assert len(header["deck"]) == 67 and {"id", "kind", "value", "blisters"} <= set(
        header["deck"][0]
    )


def test_the_checker_catches_a_tampered_log(tmp_path: Any) -> None:
    log = tmp_path / "run.jsonl"
    run(
        ["simulate", "--game", "via-gladiola", "--games", "1", "--log", str(log)],
        io.StringIO(),
        io.StringIO(),
    )
    records = [json.loads(line) for line in log.read_text().splitlines()]
    draws = [
        e
        for r in records
        if r["type"] == "action"
        for e in r["events"]
        if e["kind"] == "draw" and e["count"]
    ]
    first = draws[0]
    seat = next(iter(first["private"]))
    first["private"][seat]["cards"][0] = (first["private"][seat]["cards"][0] + 1) % 49
    with pytest.raises(AssertionError):
        recheck(records)
