"""The parts docs/log-format.md and the game pages give each logged field (public, private,
secret) are what the wire gives: a spectator's copy, each seat's copy and each seat's view."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from netcards.game import Game
from netcards.oplog import GameLog
from netcards.registry import all_games
from netcards.rng import make_seed
from tests.docs.markdown import marked_tables, unquote

DOCS = Path(__file__).parents[2] / "docs"
GAMES = sorted(all_games().values(), key=lambda g: g.id)
IDS = [g.id for g in GAMES]
TABLES = [(2, 1), (3, 2)]  # (players, seed)


def event_parts(game: Game[Any]) -> dict[str, dict[str, str]]:
    """Event kind -> field -> part, as the game's page has them."""
    text = (DOCS / "games" / f"{game.id}.md").read_text(encoding="utf-8")
    out = {}
    for name, rows in marked_tables(text).items():
        if name.startswith("shape: event "):
            out[name.removeprefix("shape: event ")] = {unquote(r[0]): r[2] for r in rows}
    return out


def log_parts() -> dict[str, dict[str, str]]:
    """Record -> field ('*' for "every other field") -> part, from docs/log-format.md."""
    rows = marked_tables((DOCS / "log-format.md").read_text(encoding="utf-8"))["log: parts"]
    out: dict[str, dict[str, str]] = {}
    for record, fields, part in rows:
        for field in fields.split(", "):
            name = "*" if "every" in field else unquote(field)
            out.setdefault(unquote(record), {})[name] = part.split(":")[0]
    return out


def part_of(parts: dict[str, dict[str, str]], record: str, field: str) -> str:
    return parts[record].get(field) or parts[record]["*"]


def played(game: Game[Any], players: int, seed: int) -> tuple[Any, list[dict[str, Any]], list]:
    """A seeded game to its end with random legal moves: the log's records and the events."""
    config = game.make_config(players)
    state = game.setup(config, make_seed(seed))
    log = GameLog(game, config, make_seed(seed), [])
    records = log.start(state)
    rng = random.Random(seed)
    steps = []
    while acting := game.to_act(state):
        seat = min(acting)
        action = rng.choice(game.legal_actions(state, seat))
        events = game.apply(state, seat, action)
        records.append(log.action(seat, action, events))
        steps.append(events)
    outcome = game.outcome(state)
    assert outcome is not None
    records.append(log.end(outcome))
    return state, records, steps


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@pytest.mark.parametrize(("players", "seed"), TABLES)
def test_every_logged_event_field_reaches_exactly_whom_its_part_says(
    game: Game[Any], players: int, seed: int
) -> None:
    documented = event_parts(game)
    _, records, steps = played(game, players, seed)
    actions = [r for r in records if r["type"] == "action"]
    seen = {"public": 0, "private": 0, "secret": 0}
    for record, events in zip(actions, steps, strict=True):
        for line, event in zip(record["events"], events, strict=True):
            fields = documented[line["kind"]]
            spectator = event.for_seat(None)
            copies = [event.for_seat(s) for s in range(players)]
            for field, value in line.items():
                if field in ("kind", "private"):
                    continue
                part = fields[field]
                seen[part] += 1
                assert part in ("public", "secret"), f"{line['kind']}.{field} at the top level"
                if part == "public":
                    assert spectator[field] == value and all(c[field] == value for c in copies)
                else:
                    assert field not in spectator and all(field not in c for c in copies)
            private = line.get("private", {})
            for field in (f for f, p in fields.items() if p == "private"):
                assert field not in spectator, f"{line['kind']}.{field} reached a spectator"
                for s, copy in enumerate(copies):
                    mine = private.get(str(s), {})
                    if field in mine:
                        seen["private"] += 1
                        assert copy[field] == mine[field]
                    else:
                        assert field not in copy, f"{line['kind']}.{field} reached seat {s}"
            assert all(fields[f] == "private" for p in private.values() for f in p)
    assert seen["public"] and seen["private"], seen


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@pytest.mark.parametrize(("players", "seed"), TABLES)
def test_the_log_records_fields_are_as_public_private_or_secret_as_the_table_says(
    game: Game[Any], players: int, seed: int
) -> None:
    parts = log_parts()
    config = game.make_config(players)
    state = game.setup(config, make_seed(seed))
    header, deal = GameLog(game, config, make_seed(seed), []).start(state)
    spectator = game.public_view(state)
    views = [game.view(state, s) for s in range(players)]
    for field, value in deal.items():
        if field in ("type", "index"):
            continue
        part = part_of(parts, "deal", field)
        if part == "private":
            assert "hand" not in spectator
            assert [v["hand"] for v in views] == [sorted(h) for h in value]
        elif part == "secret":
            if value:  # a view shows only how many cards: never the list itself
                assert value not in spectator.values(), f"{field} shows in order"
                assert all(value not in v.values() for v in views)
        else:
            assert part == "public"
            assert spectator[field] == value and all(v[field] == value for v in views)
    assert part_of(parts, "game", "seed") == "secret"
    assert header["seed"] not in str(spectator) + str(views)
    _, records, _ = played(game, players, seed)
    for record in records:
        for field in record:
            if field not in ("type", "index"):
                part_of(parts, record["type"], field)  # every field is in the table
