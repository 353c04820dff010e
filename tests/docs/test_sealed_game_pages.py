"""Each game page's section "At a sealed table" against the title's sealed engine: every sealed
move's table is the codec's (its fields, in order, their kinds), every example decodes and
encodes back to itself, every deal table is what the engine deals, and Velonimo's
`steal_positions` vector is the engine's. A difference in either direction fails."""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Any

import pytest

from netcards.games.velonimo.sealed import steal_positions
from netcards.registry import get_game
from netcards.rng import make_seed
from netcards.sealed_cards import SLOT_BASE
from netcards.sealed_game import sealed_engine
from tests.docs.markdown import examples, marked_tables, unquote

PAGES = Path(__file__).parents[2] / "docs" / "games"
TITLES = ["via-gladiola", "velonimo", "auf-achse"]
SEALED_DOC = (PAGES.parent / "sealed.md").read_text(encoding="utf-8")

TYPES_OF_INT = {"slot", "card", "seat", "int", "slot or card"}
"""The page's names for a field the codec holds as an int."""


def sealed_part(title: str) -> str:
    text = (PAGES / f"{title}.md").read_text(encoding="utf-8")
    parts = text.split("\n## At a sealed table\n")
    assert len(parts) == 2, f"{title}.md has one section 'At a sealed table'"
    return parts[1].split("\n## ", 1)[0]


def tables(title: str, prefix: str) -> dict[str, list[list[str]]]:
    return {
        name.removeprefix(prefix): [[unquote(c) for c in row] for row in rows]
        for name, rows in marked_tables(sealed_part(title)).items()
        if name.startswith(prefix)
    }


def page_kind(python_type: Any) -> str:
    """The family of page types a codec field's Python type must be written as."""
    if python_type is bool:
        return "bool"
    if python_type is int:
        return "int"
    assert typing.get_origin(python_type) is tuple, python_type
    return "list"


def family(written: str) -> str:
    if written == "bool":
        return "bool"
    if written.startswith("[") and written.endswith("]"):
        assert written[1:-1] in TYPES_OF_INT, written
        return "list"
    assert written in TYPES_OF_INT, written
    return "int"


@pytest.mark.parametrize("title", TITLES)
def test_every_sealed_move_has_its_exact_table(title: str) -> None:
    codec = sealed_engine(title).codec
    moves = tables(title, "sealed: action ")
    assert sorted(moves) == sorted(codec.kinds), "one table per sealed move, no other"
    for kind, rows in moves.items():
        fields = codec.field_types[kind]
        assert [r[0] for r in rows] == list(fields), f"{kind}: the fields, in order"
        for name, written, meaning in rows:
            assert family(written) == page_kind(fields[name]), f"{kind}.{name}: {written}"
            assert meaning, f"{kind}.{name} needs a meaning"


@pytest.mark.parametrize("title", TITLES)
def test_every_sealed_example_is_a_move_the_engine_reads_back_as_it_is(title: str) -> None:
    codec = sealed_engine(title).codec
    shown = set()
    for example in examples(sealed_part(title)):
        assert example.kind == "sealed-action", f"{title}.md: a {example.kind} example"
        data = json.loads(example.text)
        assert codec.encode(codec.decode(data)) == data, f"{title}.md line {example.line}"
        for name, value in data.items():
            slots = value if isinstance(value, list) else [value]
            if name in ("slot", "slots"):
                assert any(x >= SLOT_BASE for x in slots), "an example slot is a slot"
        shown.add(data["kind"])
    assert shown == set(codec.kinds), "one example per sealed move"


def positions(cell: str) -> list[int]:
    if " to " in cell:
        first, last = cell.split(",", maxsplit=1)[0].split(" to ")
        return list(range(int(first), int(last) + 1))
    return [int(x) for x in cell.split(", ")]


@pytest.mark.parametrize("title", TITLES)
def test_every_deal_table_is_the_engine_s_deal(title: str) -> None:
    deals = tables(title, "sealed: deal ")
    assert deals, f"{title}.md shows a deal"
    engine = sealed_engine(title)
    for players, rows in deals.items():
        config = get_game(title).make_config(int(players), {})
        state = engine.setup(config, bytes(32))
        (first_round,) = engine.seal_requests(state)
        assert first_round.index == 0 and first_round.first == SLOT_BASE
        assert list(first_round.cards) == sorted(first_round.cards), "sealed in id order"
        dealt: dict[str, list[int]] = {
            str(s): [x - SLOT_BASE for x in hand] for s, hand in enumerate(state.hands)
        }
        aside = getattr(state, "aside", [])
        pile = "set aside" if aside else "draw pile"
        dealt[pile] = sorted(x - SLOT_BASE for x in (aside or state.draw))
        if getattr(state, "reward", None) is not None:
            dealt["reward"] = [state.reward - SLOT_BASE]
        assert {r[0]: positions(r[1]) for r in rows} == dealt, f"{title}, {players} players"
        if "top last" in dict(rows).get(pile, ""):
            assert state.draw == sorted(state.draw), "the pile's top is its last position"
        # Each hand is opened to its seat in the order dealt.
        opened: dict[int, list[int]] = {}
        for seat, slot in engine.to_open(state):
            opened.setdefault(seat, []).append(slot)
        assert opened == dict(enumerate(state.hands))


def test_steal_positions_are_the_engine_s() -> None:
    draw = {r[0]: r[1] for r in marked_tables(SEALED_DOC)["sealed-draw"]}
    value = bytes.fromhex(unquote(draw["value"]))
    part = sealed_part("velonimo")
    assert f"`{make_seed(value).hex()}`" in part, "the key the page gives is make_seed(value)"
    rows = tables("velonimo", "sealed: steal ")["positions"]
    assert len(rows) >= 5
    for size, count, taken in rows:
        assert steal_positions(value, int(size), int(count)) == positions(taken), (size, count)
