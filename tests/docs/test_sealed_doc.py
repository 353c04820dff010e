"""docs/sealed.md's section on the wire against the code: every sealed message's table, the
nested map, the step bodies and the card limit. A difference in either direction fails."""

from __future__ import annotations

import re
from pathlib import Path

from protocol.schema import Record, Seq, fields_of
from protocol.sealed.messages import (
    BODY_FIELDS,
    MAX_SEALED_CARDS,
    NESTED_MAPS,
    SEAL_MESSAGE_TYPES,
)
from tests.docs.markdown import marked_tables, table_after, unquote

DOC = (Path(__file__).parents[2] / "docs" / "sealed.md").read_text(encoding="utf-8")
WIRE = DOC.split("## 7. The sealing round on the wire", 1)[1].split("\n## 8. ", 1)[0]
LINES = WIRE.splitlines()


def subsection(title: str) -> list[str]:
    starts = [i for i, line in enumerate(LINES) if line == title]
    assert len(starts) == 1, f"{title!r} appears {len(starts)} times"
    end = next(
        (i for i in range(starts[0] + 1, len(LINES)) if LINES[i].startswith("### ")), len(LINES)
    )
    return LINES[starts[0] : end]


def fields_table(lines: list[str]) -> list[tuple[str, ...]]:
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    return [tuple(unquote(c) for c in row) for row in table_after(lines, start)]


def test_every_sealed_message_has_its_exact_table_and_sender() -> None:
    documented = re.findall(r"^### `([a-z_]+)`$", WIRE, re.M)
    assert sorted(documented) == sorted(SEAL_MESSAGE_TYPES)
    for name, cls in SEAL_MESSAGE_TYPES.items():
        lines = subsection(f"### `{name}`")
        expected = [(f, kind.describe()) for f, kind in fields_of(cls)]
        assert fields_table(lines) == expected, name
        assert f"Sent by: {cls.SENDER}." in "\n".join(lines), f"{name}: who sends it"


def test_every_nested_map_has_its_exact_table() -> None:
    nested = {
        kind.item.cls.__name__: kind.item.cls
        for cls in SEAL_MESSAGE_TYPES.values()
        for _, kind in fields_of(cls)
        if isinstance(kind, Seq) and isinstance(kind.item, Record)
    }
    proofs = {m.name: m.fields for m in NESTED_MAPS}
    documented = re.findall(r"^### (\w+) \(nested map\)$", WIRE, re.M)
    assert sorted(documented) == sorted([*nested, *proofs])
    for name, cls in nested.items():
        expected = [(f, kind.describe()) for f, kind in fields_of(cls)]
        assert fields_table(subsection(f"### {name} (nested map)")) == expected, name
    for name, fields in proofs.items():
        expected = [(f, kind.describe()) for f, kind in fields]
        assert fields_table(subsection(f"### {name} (nested map)")) == expected, name


def test_the_step_bodies_are_the_code_s() -> None:
    rows = [tuple(unquote(c) for c in row) for row in marked_tables(DOC)["sealed-bodies"]]
    expected = [
        (kind, name, k.describe()) for kind, fields in BODY_FIELDS.items() for name, k in fields
    ]
    assert rows == expected


def test_the_card_limit_is_the_code_s() -> None:
    assert f"A round seals at most {MAX_SEALED_CARDS} cards" in " ".join(WIRE.split())
