"""The shape of a game's plain data: actions, views, events, cards, outcome details, deals.

Every game declares the maps it sends and takes in this small notation, the one its page in
docs/games/ prints, so the pages can be checked against the code and every real view and event
against its declaration. A type is written as the pages write it:

    int, bool, str, nil    msgpack scalars
    card                   a card id: an int indexing the table's card catalogue
    seat                   a seat number (an int from 0)
    "text"                 exactly that string
    [T]                    an array of T
    Name                   a map declared under that name (a record)
    A or B                 either

Knowing where the card ids are (every `card` in a declared position) is also what lets a leak
check find every card a message holds, whatever its key.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

SCALARS = ("int", "bool", "str", "nil", "card", "seat")


class ShapeError(ValueError):
    """A value that does not have its declared shape; the message names where."""


@dataclass(frozen=True)
class Type:
    """A parsed type: `name` is a scalar, "list", "union", "literal" or "record"."""

    name: str
    args: tuple[Type, ...] = ()
    text: str = ""


_TOKEN = re.compile(r'\s*(\[|\]|"[^"]*"|[A-Za-z_][A-Za-z_0-9]*)')


@functools.cache
def parse(text: str) -> Type:
    """A type from its written form; ValueError if it is not well formed."""
    tokens: list[str] = []
    pos = 0
    while pos < len(text.rstrip()):
        match = _TOKEN.match(text, pos)
        if match is None:
            raise ValueError(f"cannot read the type {text!r} at {text[pos:]!r}")
        tokens.append(match.group(1))
        pos = match.end()
    parsed, rest = _union(tokens)
    if rest:
        raise ValueError(f"unexpected {' '.join(rest)!r} in the type {text!r}")
    return parsed


def _union(tokens: list[str]) -> tuple[Type, list[str]]:
    options = []
    while True:
        one, tokens = _single(tokens)
        options.append(one)
        if tokens[:1] != ["or"]:
            break
        tokens = tokens[1:]
    if len(options) == 1:
        return options[0], tokens
    return Type("union", tuple(options)), tokens


def _single(tokens: list[str]) -> tuple[Type, list[str]]:
    if not tokens:
        raise ValueError("a type is missing")
    head, rest = tokens[0], tokens[1:]
    if head == "[":
        inner, rest = _union(rest)
        if rest[:1] != ["]"]:
            raise ValueError("an array type needs its closing ]")
        return Type("list", (inner,)), rest[1:]
    if head.startswith('"'):
        return Type("literal", text=head[1:-1]), rest
    if head in SCALARS:
        return Type(head), rest
    if head[0].isupper():
        return Type("record", text=head), rest
    raise ValueError(f"unknown type name {head!r}")


@dataclass(frozen=True)
class Field:
    """One key of a map: its type, and whether it is sometimes left out (`optional`)."""

    name: str
    type: str
    optional: bool = False


def fields(spec: str) -> tuple[Field, ...]:
    """Fields from lines `name: type` (a `?` after the name marks an optional field)."""
    out = []
    for line in spec.strip().splitlines():
        name, _, type_text = line.partition(":")
        name = name.strip()
        optional = name.endswith("?")
        out.append(Field(name.rstrip("?"), type_text.strip(), optional))
        parse(out[-1].type)
    return tuple(out)


@dataclass(frozen=True)
class EventShape:
    """An event's parts: `public` (everyone), `private` (only the seats concerned, merged into
    their copy on the wire) and `secret` (nobody during the game; the omniscient log only)."""

    public: tuple[Field, ...] = ()
    private: tuple[Field, ...] = ()
    secret: tuple[Field, ...] = ()

    def wire(self) -> tuple[Field, ...]:
        """The fields of the event as a seat receives it; private ones only reach their seats."""
        return self.public + tuple(Field(f.name, f.type, True) for f in self.private)


@dataclass(frozen=True)
class GameShapes:
    """Everything a game sends or takes, declared once."""

    card: tuple[Field, ...]
    actions: Mapping[str, tuple[Field, ...]]
    view: tuple[Field, ...]
    events: Mapping[str, EventShape]
    outcome_detail: tuple[Field, ...]
    deal: tuple[Field, ...]
    records: Mapping[str, tuple[Field, ...]] = field(default_factory=dict)

    def check(self, value: Any, fields_: tuple[Field, ...], cards: int, where: str = "") -> None:
        """Raise ShapeError unless `value` is a map with exactly these fields (optional ones
        may be missing), each of its type; card ids must be below `cards`."""
        check_map(value, fields_, self.records, cards, where)

    def cards_in(
        self, value: Any, fields_: tuple[Field, ...], where: str = ""
    ) -> Iterator[tuple[str, int]]:
        """(path, card id) for every card id in `value`, found by its declared shape."""
        yield from _cards_in_map(value, fields_, self.records, where)


def check_map(
    value: Any,
    declared: tuple[Field, ...],
    records: Mapping[str, tuple[Field, ...]],
    cards: int,
    where: str,
) -> None:
    if type(value) is not dict:
        raise ShapeError(f"{where or 'the value'} must be a map, not {type(value).__name__}")
    names = {f.name for f in declared}
    extra = sorted(str(k) for k in value if k not in names)
    if extra:
        raise ShapeError(f"{where or 'the map'} has undeclared key(s): {', '.join(extra)}")
    for f in declared:
        path = f"{where}.{f.name}" if where else f.name
        if f.name not in value:
            if f.optional:
                continue
            raise ShapeError(f"{path} is missing")
        check_value(value[f.name], parse(f.type), records, cards, path)


def check_value(
    value: Any, tp: Type, records: Mapping[str, tuple[Field, ...]], cards: int, where: str
) -> None:
    if tp.name == "union":
        problems = []
        for option in tp.args:
            try:
                check_value(value, option, records, cards, where)
                return
            except ShapeError as exc:
                problems.append(str(exc))
        raise ShapeError(f"{where} fits none of its types: {'; '.join(problems)}")
    if tp.name == "list":
        if type(value) not in (list, tuple):
            raise ShapeError(f"{where} must be an array, not {type(value).__name__}")
        for i, item in enumerate(value):
            check_value(item, tp.args[0], records, cards, f"{where}[{i}]")
        return
    if tp.name == "record":
        check_map(value, records[tp.text], records, cards, where)
        return
    if tp.name == "literal":
        if value != tp.text:
            raise ShapeError(f"{where} must be {tp.text!r}, not {value!r}")
        return
    if tp.name == "nil":
        if value is not None:
            raise ShapeError(f"{where} must be nil, not {value!r}")
        return
    if tp.name == "bool":
        if type(value) is not bool:
            raise ShapeError(f"{where} must be a bool, not {value!r}")
        return
    if tp.name == "str":
        if type(value) is not str:
            raise ShapeError(f"{where} must be a string, not {value!r}")
        return
    if type(value) is not int:
        raise ShapeError(f"{where} must be an integer, not {value!r}")
    if tp.name == "card" and not 0 <= value < cards:
        raise ShapeError(f"{where} is not a card id: {value}")
    if tp.name == "seat" and not 0 <= value < 8:
        raise ShapeError(f"{where} is not a seat: {value}")


def _cards_in_map(
    value: Any, declared: tuple[Field, ...], records: Mapping[str, tuple[Field, ...]], where: str
) -> Iterator[tuple[str, int]]:
    by_name = {f.name: f for f in declared}
    for key, item in value.items():
        f = by_name.get(key)
        if f is not None:
            yield from _cards_in(item, parse(f.type), records, f"{where}.{key}" if where else key)


def _cards_in(
    value: Any, tp: Type, records: Mapping[str, tuple[Field, ...]], where: str
) -> Iterator[tuple[str, int]]:
    if tp.name == "union":
        for option in tp.args:
            try:
                check_value(value, option, records, 1 << 62, where)
            except ShapeError:
                continue
            yield from _cards_in(value, option, records, where)
            return
    elif tp.name == "list" and type(value) in (list, tuple):
        for i, item in enumerate(value):
            yield from _cards_in(item, tp.args[0], records, f"{where}[{i}]")
    elif tp.name == "record" and type(value) is dict:
        yield from _cards_in_map(value, records[tp.text], records, where)
    elif tp.name == "card" and type(value) is int:
        yield where, value
