"""Timing one piece of code against this checkout and, beside it, against another one.

The machine these benchmarks run on is shared, so a figure measured an hour ago says little.
What holds up is a ratio measured side by side: the same code, in fresh processes, taking turns
with the code of another checkout (an older commit, say), best run of several kept for each, so
that a burst of someone else's work spoils one run and not the comparison.

    python -m bench.engine --against /path/to/an/older/checkout
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def run_json(tree: Path, code: str, nice: int = 0) -> dict[str, float]:
    """Run `code` (which prints one JSON object last) in a fresh Python whose `netcards` is
    `tree`'s, and return that object."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    command = [sys.executable, "-P", "-c", code]  # -P: no current directory on the path
    if nice:
        command = ["nice", "-n", str(nice), *command]
    out = subprocess.run(
        command, env=env, cwd=tree, check=True, capture_output=True, text=True
    ).stdout
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


def best_of(
    trees: Sequence[Path], code: str | Sequence[str], repeats: int, key: str, nice: int = 0
) -> list[dict[str, float]]:
    """`repeats` runs of `code` (or of each tree's own code) per tree, the trees taking turns;
    for each tree the run with the highest `key`."""
    codes = [code] * len(trees) if isinstance(code, str) else list(code)
    best: list[dict[str, float] | None] = [None] * len(trees)
    for _ in range(repeats):
        for index, tree in enumerate(trees):
            result = run_json(tree, codes[index], nice)
            current = best[index]
            if current is None or result[key] > current[key]:
                best[index] = result
    return [b for b in best if b is not None]
