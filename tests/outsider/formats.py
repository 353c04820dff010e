"""The formats of a sealed table's messages, read from the pages themselves: docs/sealed.md
section 7 (every message's table of fields and kinds, the nested maps, the step bodies) and each
game page's sealed moves. `check_message` and `check_move` hold a map to them; a field missing,
one too many or a value of another kind fails with what the page says."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DOCS = Path(__file__).parents[2] / "docs"
SLOT_BASE = 65536

Check = Callable[[Any, str], None]


def _rows(lines: list[str], start: int) -> list[list[str]]:
    rows, seen = [], False
    for line in lines[start:]:
        if not line.startswith("|"):
            if seen:
                break
            continue
        seen = True
        rows.append([c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))])
    return rows[2:]


def _code(cell: str) -> str:
    return cell[1:-1] if cell.startswith("`") and cell.endswith("`") else cell


@dataclass
class Formats:
    messages: dict[str, list[tuple[str, str]]]
    maps: dict[str, list[tuple[str, str]]]
    bodies: dict[str, list[tuple[str, str]]]


def sealed_formats() -> Formats:
    text = (DOCS / "sealed.md").read_text(encoding="utf-8")
    wire = text.split("## 7. The sealing round on the wire", 1)[1].split("\n## 8. ", 1)[0]
    lines = wire.splitlines()
    messages, maps, bodies = {}, {}, {}
    for i, line in enumerate(lines):
        named = re.match(r"^### `([a-z_]+)`$", line)
        nested = re.match(r"^### (\w+) \(nested map\)$", line)
        if named or nested:
            rows = [(_code(r[0]), r[1]) for r in _rows(lines, i + 1)]
            (messages if named else maps)[(named or nested).group(1)] = rows  # type: ignore[union-attr]
        if line == "<!-- sealed-bodies -->":
            for kind, name, what in _rows(lines, i + 1):
                bodies.setdefault(_code(kind), []).append((_code(name), what))
    bodies.setdefault("broken", [])  # "A `broken` step has an empty body."
    return Formats(messages, maps, bodies)


def _kind(text: str, maps: dict[str, list[tuple[str, str]]]) -> tuple[Check, str]:
    """The check for the kind written at the start of `text`, and what follows it."""
    if m := re.match(r"int (\d+)\.\.(\d+)", text):
        low, high = int(m[1]), int(m[2])

        def integer(v: Any, where: str) -> None:
            assert type(v) is int and low <= v <= high, f"{where}: {v!r} is no int {low}..{high}"

        return integer, text[m.end() :]
    if m := re.match(r"bin, (?:exactly (\d+)|(\d+) to (\d+)) bytes", text):
        low, high = (int(m[1]), int(m[1])) if m[1] else (int(m[2]), int(m[3]))

        def binary(v: Any, where: str) -> None:
            assert type(v) is bytes and low <= len(v) <= high, f"{where}: not bin of {low}-{high}"

        return binary, text[m.end() :]
    if m := re.match(r"array of at most (\d+) of \(", text):
        most = int(m[1])
        item, rest = _kind(text[m.end() :], maps)
        assert rest.startswith(")"), rest

        def array(v: Any, where: str) -> None:
            assert type(v) is list and len(v) <= most, f"{where}: not an array of at most {most}"
            for n, x in enumerate(v):
                item(x, f"{where}[{n}]")

        return array, rest[1:]
    if text.startswith("array ["):
        items, rest = [], text[len("array [") :]
        while True:
            check, rest = _kind(rest, maps)
            items.append(check)
            if rest.startswith("]"):
                break
            assert rest.startswith(", "), rest
            rest = rest[2:]

        def fixed(v: Any, where: str) -> None:
            assert type(v) is list and len(v) == len(items), f"{where}: not {len(items)} items"
            for n, (check, x) in enumerate(zip(items, v, strict=True)):
                check(x, f"{where}[{n}]")

        return fixed, rest[1:]
    if text.startswith("map of plain data (string keys)"):

        def plain(v: Any, where: str) -> None:
            assert type(v) is dict and all(type(k) is str for k in v), f"{where}: not a map"

        return plain, text[len("map of plain data (string keys)") :]
    if text.startswith("map, its fields set by kind"):
        return (lambda v, where: None), ""  # checked with the kind's body
    if m := re.match(r"map (\w+)", text):
        fields = [(name, _kind(what, maps)[0]) for name, what in maps[m[1]]]
        return _fields(fields), text[m.end() :]
    if m := re.match(r'one of ((?:"[a-z_]+"(?:, )?)+)', text):
        allowed = set(re.findall(r'"([a-z_]+)"', m[1]))

        def choice(v: Any, where: str) -> None:
            assert v in allowed, f"{where}: {v!r} is none of {sorted(allowed)}"

        return choice, text[m.end() :]
    raise AssertionError(f"a kind the page writes that this client does not read: {text!r}")


def _fields(fields: list[tuple[str, Check]]) -> Check:
    def record(v: Any, where: str) -> None:
        assert type(v) is dict, f"{where}: not a map"
        assert set(v) == {name for name, _ in fields}, f"{where}: fields {sorted(v)}"
        for name, check in fields:
            check(v[name], f"{where}.{name}")

    return record


class Checker:
    """Every sealed message held to docs/sealed.md section 7, as it is sent or received."""

    def __init__(self) -> None:
        f = sealed_formats()
        self.messages = {
            t: _fields([(n, _kind(w, f.maps)[0]) for n, w in rows])
            for t, rows in f.messages.items()
        }
        self.bodies = {
            k: _fields([(n, _kind(w, f.maps)[0]) for n, w in rows]) for k, rows in f.bodies.items()
        }
        self.seen: dict[str, int] = {}

    def check_message(self, msg: dict[str, Any], sender: str) -> None:
        kind = msg.get("type")
        assert kind in self.messages, f"a sealed message the page does not list: {kind}"
        self.messages[kind]({k: v for k, v in msg.items() if k != "type"}, kind)
        if kind == "seal_step":
            self.bodies[msg["kind"]](msg["body"], f"{msg['kind']} step's body")
        self.seen[f"{sender} {kind}"] = self.seen.get(f"{sender} {kind}", 0) + 1


def _move_kind(written: str, players: int, cards: int) -> Check:
    if written == "bool":
        return lambda v, where: _is(type(v) is bool, where, written)
    if written.startswith("["):
        item = _move_kind(written[1:-1], players, cards)

        def items(v: Any, where: str) -> None:
            _is(type(v) is list, where, written)
            for n, x in enumerate(v):
                item(x, f"{where}[{n}]")

        return items
    tests = {
        "slot": lambda v: v >= SLOT_BASE,
        "card": lambda v: 0 <= v < cards,
        "slot or card": lambda v: v >= SLOT_BASE or 0 <= v < cards,
        "seat": lambda v: 0 <= v < players,
        "int": lambda v: True,
    }
    test = tests[written]
    return lambda v, where: _is(type(v) is int and test(v), where, written)


def _is(ok: bool, where: str, written: str) -> None:
    assert ok, f"{where} is no {written}"


def move_formats(title: str, players: int, cards: int) -> dict[str, Check]:
    """A title's sealed moves as its page's section "At a sealed table" gives them."""
    page = (DOCS / "games" / f"{title}.md").read_text(encoding="utf-8")
    lines = page.split("\n## At a sealed table\n", 1)[1].splitlines()
    out = {}
    for i, line in enumerate(lines):
        m = re.match(r"^<!-- sealed: action (\w+) -->$", line)
        if not m:
            continue
        rows = [] if lines[i + 1].startswith("No fields") else _rows(lines, i + 1)
        fields = [(_code(r[0]), _move_kind(_code(r[1]), players, cards)) for r in rows]
        out[m[1]] = _fields([("kind", lambda v, where: None), *fields])
    return out
