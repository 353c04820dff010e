"""Reading the tables and examples of our Markdown pages, so tests can hold them to the code."""

from __future__ import annotations

import re
from dataclasses import dataclass

MARKER = re.compile(r"^<!-- (.+?) -->$")
FENCE = re.compile(r"^```(\S*)\s*(\S*)\s*$")


def cells(line: str) -> list[str]:
    """A table row's cells, with `\\|` kept inside a cell."""
    parts = re.split(r"(?<!\\)\|", line.strip().strip("|"))
    return [p.strip().replace("\\|", "|") for p in parts]


def unquote(cell: str) -> str:
    """A cell's text without the code quotes around it."""
    return cell[1:-1] if len(cell) >= 2 and cell[0] == cell[-1] == "`" else cell


def table_after(lines: list[str], start: int) -> list[list[str]]:
    """The rows (header and divider left out) of the table right after line `start` (blank
    lines skipped); [] when something else comes first."""
    rows: list[list[str]] = []
    for line in lines[start:]:
        if not rows and not line.strip():
            continue
        if not line.startswith("|"):
            break
        rows.append(cells(line))
    return rows[2:]


def marked_tables(text: str) -> dict[str, list[list[str]]]:
    """Every table that follows a `<!-- name -->` marker, by marker name."""
    lines = text.splitlines()
    out: dict[str, list[list[str]]] = {}
    for i, line in enumerate(lines):
        match = MARKER.match(line.strip())
        if match:
            name = match.group(1)
            assert name not in out, f"the marker {name!r} appears twice"
            out[name] = table_after(lines, i + 1)
    return out


@dataclass
class Example:
    kind: str
    text: str
    line: int


def examples(text: str, language: str = "json") -> list[Example]:
    """The fenced code blocks written ```json KIND."""
    out = []
    lines = text.splitlines()
    inside: Example | None = None
    for number, line in enumerate(lines, 1):
        match = FENCE.match(line)
        if inside is None and match and match.group(1) == language and match.group(2):
            inside = Example(match.group(2), "", number)
        elif inside is not None and line.startswith("```"):
            out.append(inside)
            inside = None
        elif inside is not None:
            inside.text += line + "\n"
    return out
