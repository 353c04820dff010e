"""docs/games/<game>.md is what an outside client is written from: its tables must be the game's
own declarations, and every example in it must pass the real decoders and shape checks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from netcards.game import Game
from netcards.options import OptionSpec
from netcards.registry import all_games
from netcards.shape import Field
from protocol.messages import Update, decode
from tests.docs.markdown import examples, marked_tables, unquote

PAGES = Path(__file__).parents[2] / "docs" / "games"
GAMES = sorted(all_games().values(), key=lambda g: g.id)
IDS = [g.id for g in GAMES]

OPTION_TYPES = {
    "bool": "bool",
    "int": "int",
    "int_list": "[int]",
    "seat": "seat or nil",
    "deck": "str or nil",
    "text": "str",
}


def page(game: Game[Any]) -> str:
    return (PAGES / f"{game.id}.md").read_text(encoding="utf-8")


def option_row(spec: OptionSpec) -> tuple[str, ...]:
    return (spec.name, OPTION_TYPES[spec.kind], json.dumps(spec.default))


def field_rows(fields: tuple[Field, ...], part: str | None = None) -> list[tuple[str, ...]]:
    return [(f.name, f.type) + ((part,) if part else ()) for f in fields]


def expected_tables(game: Game[Any]) -> dict[str, tuple[list[tuple[str, ...]], tuple[Field, ...]]]:
    """Marker -> (the rows the page must show, the fields behind them)."""
    shapes = game.shapes
    out: dict[str, tuple[list[tuple[str, ...]], tuple[Field, ...]]] = {
        "options": ([option_row(s) for s in game.option_specs], ()),
        "shape: card": (field_rows(shapes.card), shapes.card),
        "shape: view": (field_rows(shapes.view), shapes.view),
        "shape: outcome": (field_rows(shapes.outcome_detail), shapes.outcome_detail),
        "shape: deal": (field_rows(shapes.deal), shapes.deal),
    }
    for kind, fields in shapes.actions.items():
        out[f"shape: action {kind}"] = (field_rows(fields), fields)
    for name, fields in shapes.records.items():
        out[f"shape: record {name}"] = (field_rows(fields), fields)
    for kind, event in shapes.events.items():
        rows = (
            field_rows(event.public, "public")
            + field_rows(event.private, "private")
            + field_rows(event.secret, "secret")
        )
        out[f"shape: event {kind}"] = (rows, event.public + event.private + event.secret)
    return out


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_page_s_tables_are_the_game_s_declarations(game: Game[Any]) -> None:
    expected = expected_tables(game)
    # Other marked tables (the order of events, say) are held to the code by their own tests.
    tables = {
        name: rows
        for name, rows in marked_tables(page(game)).items()
        if name == "options" or name.startswith("shape: ")
    }
    assert sorted(set(expected) - set(tables)) == [], "tables the page lacks"
    assert sorted(set(tables) - set(expected)) == [], "tables of things the game does not have"
    for name, (rows, fields) in expected.items():
        width = len(rows[0]) if rows else 0
        got = [tuple(unquote(c) for c in row[:width]) for row in tables[name]]
        assert got == rows, f"{name}: the page says {got}, the code says {rows}"
        for row, f in zip(tables[name], fields or [None] * len(rows), strict=True):
            meaning = row[-1]
            assert len(row) == width + 1 and meaning, f"{name}: {row[0]} needs a meaning"
            if f is not None:
                assert meaning.startswith("Only") == f.optional, (
                    f"{name}: {f.name} is {'optional' if f.optional else 'always there'}; "
                    "the meaning of an optional field starts with 'Only', and only then"
                )


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_example_passes_the_real_decoders(game: Game[Any]) -> None:
    shapes = game.shapes
    cards = len(game.cards(game.make_config(game.max_players)))
    found = examples(page(game))
    kinds = {e.kind for e in found}
    assert {"action", "view", "event", "update"} <= kinds, f"examples missing: {kinds}"
    actions_shown = set()
    events_shown = set()
    for example in found:
        if example.kind.startswith("sealed-"):
            continue  # the sealed moves: tests/docs/test_sealed_game_pages.py
        where = f"{game.id}.md line {example.line}"
        data = json.loads(example.text)
        if example.kind == "action":
            action = game.decode_action(data)
            assert game.encode_action(action) == data, where
            actions_shown.add(data["kind"])
        elif example.kind == "view":
            shapes.check(data, shapes.view, cards, where)
            game.legal_actions_in_view(data)
        elif example.kind == "event":
            kind = data.pop("kind")
            shapes.check(data, shapes.events[kind].wire(), cards, where)
            events_shown.add(kind)
        elif example.kind == "update":
            message = decode(data)
            assert isinstance(message, Update), where
            shapes.check(message.view, shapes.view, cards, where)
            for sent in message.events:
                fields = dict(sent)
                shapes.check(fields, shapes.events[fields.pop("kind")].wire(), cards, where)
        else:
            raise AssertionError(f"{where}: unknown example kind {example.kind!r}")
    assert actions_shown == set(shapes.actions), "one example per action kind"
    assert events_shown == set(shapes.events), "one example per event kind"


def test_every_game_has_a_page_linked_from_the_protocol() -> None:
    protocol = (PAGES.parent / "protocol.md").read_text(encoding="utf-8")
    for game in GAMES:
        assert (PAGES / f"{game.id}.md").exists()
        assert f"(games/{game.id}.md)" in protocol
    assert sorted(p.stem for p in PAGES.glob("*.md")) == sorted(IDS)


RULES = Path(__file__).parents[2] / "docs" / "rules"


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@pytest.mark.parametrize("language", ["", ".fr", ".nl"], ids=["en", "fr", "nl"])
def test_every_rules_page_lists_every_option_of_its_game(game: Game[Any], language: str) -> None:
    """`netcards host --help` sends the player to `netcards rules GAME` for the option names:
    each page, in each language, has a row for every option the game takes."""
    text = (RULES / f"{game.id}{language}.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip() for line in text.splitlines() if line.startswith("| `")}
    assert {f"`{spec.name}`" for spec in game.option_specs} <= rows, rows
