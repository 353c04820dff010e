"""No import circle in any of the project's packages: each module can be read, and loaded, after
the modules it imports. (The graph is import-linter's own, built by grimp from the source; an
import made only for the type checker, under `TYPE_CHECKING`, counts as an import.)"""

from __future__ import annotations

import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
# The packages import-linter knows: one added there is held to this rule too.
PACKAGES = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
    "importlinter"
]["root_packages"]


def circles(package: str) -> list[list[str]]:
    """The strongly connected groups of more than one module in `package`'s import graph."""
    graph = grimp.build_graph(package, cache_dir=None)  # no stale cache of a tmp package
    modules = sorted(graph.modules)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's algorithm; the graph is small
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in sorted(graph.find_modules_directly_imported_by(module)):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in modules:
        if module not in index:
            visit(module)
    return found


def test_every_package_is_checked() -> None:
    assert {"netcards", "protocol", "ui"} <= set(PACKAGES)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_circle(package: str) -> None:
    assert circles(package) == []


def test_a_circle_hidden_behind_type_checking_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pkg = tmp_path / "circled"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "one.py").write_text("from circled.two import B\n")
    (pkg / "two.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from circled.one import A\n"
    )
    (pkg / "three.py").write_text("from circled.one import A\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert circles("circled") == [["circled.one", "circled.two"]]
