"""The outside client's deal, written from docs/protocol.md section 12, gives the document's
test vector and the engine's deal for any seed."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from netcards.registry import get_game
from tests.outsider.deal import Generator, deal

DOC = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
SEED = bytes([0x0A]) * 32


def vector() -> dict[str, str]:
    """The rows of section 12's test vector table: what -> value, as written."""
    section = DOC.split("## 12. From the seed to the deal", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (.+?) \| (.+?) \|$", section, re.M)
    return {what.replace("`", ""): value.replace("`", "") for what, value in rows[1:]}


def top(pile: list[int], n: int = 5) -> str:
    return str(pile[::-1][:n])


def test_the_document_s_vector() -> None:
    v = vector()
    g = Generator(SEED)
    assert v["first three blocks"] == ", ".join(f"{g.block():016x}" for _ in range(3))
    g = Generator(SEED)
    assert v["below(3), below(63), below(55) from a fresh generator"] == (
        ", ".join(str(g.below(n)) for n in (3, 63, 55))
    )
    for title, game, players in (
        ("Via Gladiola", "via-gladiola", 3),
        ("Velonimo", "velonimo", 3),
        ("Auf Achse", "auf-achse", 3),
    ):
        dealt = deal(game, players, {}, SEED)
        assert v[f"{title}: first player"] == str(dealt.first_player)
        assert v[f"{title}: hands"] == ", ".join(str(h) for h in dealt.hands)
        pile = "set aside" if game == "velonimo" else "draw pile"
        assert v[f"{title}: {pile}, top 5"] == top(dealt.pile)
    duel = deal("velonimo", 2, {}, SEED)
    assert v["Velonimo duel (2 players): first player, reward"] == (
        f"{duel.first_player}, {duel.reward}"
    )
    assert v["Velonimo duel: hands"] == ", ".join(str(h) for h in duel.hands)
    assert v["Velonimo duel: draw pile, top 5"] == top(duel.pile)


@pytest.mark.parametrize("game", ["via-gladiola", "velonimo", "auf-achse"])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_engine_deals_as_the_document_says(game: str, players: int) -> None:
    engine = get_game(game)
    for first in (None, players - 1):
        options = {} if first is None else {"first_player": first}
        seed = os.urandom(32)
        record = engine.deal_record(engine.setup(engine.make_config(players, options), seed))
        dealt = deal(game, players, options, seed)
        assert record["hands"] == dealt.hands
        assert record["first_player"] == dealt.first_player
        pile = (
            record["set_aside"]
            if game == "velonimo" and players > 2
            else record["draw_pile_top_last"]
        )
        assert pile == dealt.pile
        if game == "velonimo":
            assert record["reward"] == dealt.reward


@pytest.mark.parametrize(
    ("game", "players", "level", "wanted"),
    [("via-gladiola", 3, "random", 6), ("auf-achse", 5, "heuristic", 4)],
)
def test_reshuffles_are_as_the_document_says(
    game: str, players: int, level: str, wanted: int
) -> None:
    """Section 12: an empty draw pile is refilled from the oldest finished day (Via Gladiola,
    without its Start card) or from the discards (Auf Achse), in the order the view lists them,
    shuffled by the deal's generator carrying on. Auf Achse's draw pile runs out only at a full
    table of careful players, hence its rules bots."""
    from netcards.bots.registry import make_bot

    engine = get_game(game)
    config = engine.make_config(players, {})
    checked = 0
    for n in range(60):
        seed = bytes([n]) * 32
        state = engine.setup(config, seed)
        g = deal(game, players, {}, seed).generator
        assert g is not None
        bots = [make_bot(level, engine, config, s, bytes([n, s]) * 16) for s in range(players)]
        while seats := engine.to_act(state):
            seat = min(seats)
            view = engine.view(state, seat)
            if game == "via-gladiola":
                sources = [d["cards"][1:] for d in view["finished_days"]]
            else:
                sources = [list(view["discard"])]
            settling = [view["resolving"]] if view.get("resolving") is not None else []
            action = bots[seat].choose(view, engine.legal_actions(state, seat))
            events = engine.apply(state, seat, action)
            for event, after in zip(events, [*events[1:], None], strict=True):
                if game == "auf-achse":
                    sources[0] += discarded(event, settling)
                    if event.kind == "stage_end" and (after is None or after.kind != "game_end"):
                        g.shuffle(list(range(109)))  # the next stage's deal
                        sources = [[]]
                if event.kind != "reshuffle":
                    continue
                while not sources[0]:
                    sources.pop(0)  # a day of nothing but its Start card is passed over
                pile = sources.pop(0)
                if game == "auf-achse":
                    sources = [[]]  # the discards start again from nothing
                g.shuffle(pile)
                assert event.secret["draw_pile_top_last"] == pile
                checked += 1
        if checked >= wanted:
            return
    pytest.fail(f"only {checked} reshuffles in 60 games")


def discarded(event: Any, settling: list[int]) -> list[int]:
    """What one Auf Achse event puts on the discard pile (section 12), as an outsider reads it."""
    public = event.public
    if event.kind == "free_road_added":
        return list(settling)
    if event.kind != "reveal":
        return []
    effect, card = public["effect"], public["card"]
    if effect in ("rest", "lost_freight"):
        return [card]
    if effect == "level_crossing":
        return [c for c in public["removed"] if c is not None] + [card]
    if effect == "free_road" and not any(public["need"]):
        return [card]
    return []


def test_the_outside_deal_check_names_each_kind_of_tampering() -> None:
    from tests.outsider.deal import check_deal, commitment, pledge, seed_of

    host_part, mine, theirs = os.urandom(32), os.urandom(32), os.urandom(32)
    parts = {0: mine, 2: theirs}
    seed = seed_of(host_part, parts)
    engine = get_game("auf-achse")
    view = engine.view(engine.setup(engine.make_config(3), seed), 0)
    honest: dict[str, object] = {
        "game": "auf-achse", "players": 3, "options": {}, "seat": 0,
        "commit": commitment(host_part), "pledges": {s: pledge(s, p) for s, p in parts.items()},
        "contributions": parts, "my_part": mine, "host_part": host_part, "seed": seed,
        "first_view": view,
    }  # fmt: skip
    assert check_deal(**honest) == []  # type: ignore[arg-type]
    tampered = {
        "host_part": os.urandom(32),
        "pledges": {0: pledge(0, mine), 2: pledge(2, os.urandom(32))},
        "contributions": {0: mine, 1: theirs, 2: theirs},
        "seed": os.urandom(32),
        "first_view": {**view, "hand": [*view["hand"][1:], -1]},
    }
    for key, value in tampered.items():
        assert check_deal(**{**honest, key: value}), f"a changed {key} went unnoticed"  # type: ignore[arg-type]
