"""The omniscient log of Auf Achse games re-checks without the engine.

`Checker` knows only the rules page and the log: it follows every card from the deal through
runs, the odometer, discards, reshuffles and refills, recomputes every total and run score with
its own (brute-force) scoring, and fails on the first record that does not add up.
"""

from __future__ import annotations

from typing import Any

import pytest

from netcards.registry import get_game
from netcards.simulate import simulate

TARGETS = {2: 150, 3: 200, 4: 250, 5: 300}
FREE = {"free_road": 1, "completely_free_road": 2}


def brute_force_score(run: list[int], deck: list[dict[str, Any]]) -> int:
    """The score of the longest valid suffix, found by trying every suffix."""

    def valid(part: list[int]) -> bool:
        last = 0
        prev_rest = False
        for card in part:
            kind = deck[card]["kind"]
            if kind == "km":
                if deck[card]["value"] <= last:
                    return False
                last = deck[card]["value"]
                prev_rest = False
            elif kind == "rest":
                if prev_rest:
                    return False
                prev_rest = True
            else:
                return False
        return True

    for start in range(len(run) + 1):
        if valid(run[start:]):
            return sum(deck[c]["value"] for c in run[start:] if deck[c]["kind"] == "km")
    raise AssertionError("the empty suffix is always valid")


class Checker:
    def __init__(self, header: dict[str, Any]) -> None:
        self.deck = header["deck"]
        self.n = header["players"]
        self.totals = [0] * self.n
        self.stages = 0

    def deal(self, hands: list[list[int]], draw: list[int], first: int) -> None:
        assert sorted([c for h in hands for c in h] + draw) == list(range(len(self.deck)))
        assert all(len(h) == 10 for h in hands)
        self.hands = [list(h) for h in hands]
        self.draw = list(draw)
        self.first = first
        self.runs: list[list[int]] = [[] for _ in range(self.n)]
        self.pending: list[list[int]] = [[] for _ in range(self.n)]
        self.down: list[int | None] = [None] * self.n
        self.odometer: list[int] = []
        self.discard: list[int] = []
        self.resolving: int | None = None
        self.total = 0

    def action(self, record: dict[str, Any]) -> None:
        seat, action = record["seat"], record["action"]
        cards = [action["card"]] if "card" in action else list(action["cards"])
        for card in cards:
            self.hands[seat].remove(card)
        if action["kind"] == "odometer":
            assert self.down[seat] is None
            self.down[seat] = cards[0]
        else:
            assert not self.pending[seat]
            self.pending[seat] = cards
        for event in record["events"]:
            getattr(self, "on_" + event["kind"])(seat, event)

    # -- events --------------------------------------------------------------------------------

    def on_run_chosen(self, seat: int, e: dict[str, Any]) -> None:
        assert e["private"][str(seat)]["cards"] == self.pending[seat]

    on_free_road_chosen = on_run_chosen

    def on_runs_added(self, seat: int, e: dict[str, Any]) -> None:
        assert e["cards_by_seat"] == self.pending
        for s in range(self.n):
            self.runs[s] += self.pending[s]
            self.pending[s] = []
        assert e["run_lengths"] == [len(r) for r in self.runs]

    def on_free_road_added(self, seat: int, e: dict[str, Any]) -> None:
        self.on_runs_added(seat, e)
        assert self.resolving is not None
        self.discard.append(self.resolving)
        self.resolving = None

    def on_odometer_card(self, seat: int, e: dict[str, Any]) -> None:
        assert e["private"][str(seat)]["card"] == self.down[seat]

    def on_reveal(self, seat: int, e: dict[str, Any]) -> None:
        card = self.down[e["seat"]]
        assert card == e["card"]
        self.down[e["seat"]] = None
        kind = self.deck[card]["kind"]
        if kind == "km":
            self.odometer.append(card)
            self.total += self.deck[card]["value"]
        elif kind == "rest":
            self.discard.append(card)
        elif kind == "lost_freight":
            self.total = max(0, self.total - 50)
            self.discard.append(card)
        elif kind == "level_crossing":
            removed = [r.pop() if r else None for r in self.runs]
            assert e["removed"] == removed
            self.discard += [c for c in removed if c is not None] + [card]
        else:
            need = [min(FREE[kind], len(h)) for h in self.hands]
            assert e["need"] == need
            if any(need):
                self.resolving = card
            else:
                self.discard.append(card)
        if "total" in e:
            assert e["total"] == self.total

    def on_refill(self, seat: int, e: dict[str, Any]) -> None:
        drawn = e["private"][str(e["seat"])]["cards"]
        for card in drawn:
            assert self.draw.pop() == card
        self.hands[e["seat"]] += drawn
        assert len(self.hands[e["seat"]]) <= 10

    def on_reshuffle(self, seat: int, e: dict[str, Any]) -> None:
        assert not self.draw
        assert sorted(e["draw_pile_top_last"]) == sorted(self.discard)
        self.draw = list(e["draw_pile_top_last"])
        self.discard = []

    def on_round_start(self, seat: int, e: dict[str, Any]) -> None:
        assert all(d is None for d in self.down) and self.resolving is None
        assert e["first_player"] == self.first

    def on_first_player(self, seat: int, e: dict[str, Any]) -> None:
        assert self.total < TARGETS[self.n]
        self.first = (self.first + 1) % self.n
        assert e["seat"] == self.first
        for hand in self.hands:
            assert len(hand) == 10 or not (self.draw or self.discard)

    def on_stage_end(self, seat: int, e: dict[str, Any]) -> None:
        assert e["total"] == self.total
        held = [
            c for p in (*self.hands, *self.runs, self.draw, self.discard, self.odometer) for c in p
        ]
        assert sorted(held) == list(range(len(self.deck)))
        if e["reason"] == "target":
            assert self.total >= TARGETS[self.n]
        order = [(self.first + i) % self.n for i in range(self.n)]
        assert [r["seat"] for r in e["runs"]] == order
        for r in e["runs"]:
            assert r["cards"] == self.runs[r["seat"]]
            assert r["score"] == brute_force_score(r["cards"], self.deck)
            self.totals[r["seat"]] += r["score"]
        assert e["totals"] == self.totals
        self.stages += 1

    def on_stage_start(self, seat: int, e: dict[str, Any]) -> None:
        assert e["first_player"] == (self.first + 1) % self.n
        self.deal(e["hands"], e["draw_pile_top_last"], e["first_player"])

    def on_game_end(self, seat: int, e: dict[str, Any]) -> None:
        assert self.stages == 5
        assert e["scores"] == self.totals


def check_log(records: list[dict[str, Any]]) -> int:
    """Re-check a run's log; returns how many games it held."""
    checker: Checker | None = None
    games = 0
    for record in records:
        if record["type"] == "game":
            checker = Checker(record)
        elif record["type"] == "deal":
            assert checker is not None
            checker.deal(record["hands"], record["draw_pile_top_last"], record["first_player"])
        elif record["type"] == "action":
            assert checker is not None
            checker.action(record)
        else:
            assert checker is not None and checker.stages == 5
            assert record["scores"] == checker.totals
            best = max(checker.totals)
            assert record["winners"] == [s for s, t in enumerate(checker.totals) if t == best]
            games += 1
    return games


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_game_of_a_logged_run_rechecks_without_the_engine(players: int) -> None:
    game = get_game("auf-achse")
    records: list[dict[str, Any]] = []
    levels = ["heuristic", "random", "heuristic", "random", "random"][:players]
    simulate(game, game.make_config(players), 8, players, levels, log=records.append)
    assert check_log(records) == 8


def test_the_checker_catches_a_tampered_log() -> None:
    game = get_game("auf-achse")
    records: list[dict[str, Any]] = []
    simulate(game, game.make_config(2), 1, 1, ["random", "random"], log=records.append)
    for record in records:
        if record["type"] == "action":
            for event in record["events"]:
                if event["kind"] == "reveal" and event["effect"] == "km":
                    event["total"] += 10
                    with pytest.raises(AssertionError):
                        check_log(records)
                    return
    raise AssertionError("no km card was revealed")
