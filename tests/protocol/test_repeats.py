"""A line that repeats for one key is logged once per interval, then counted: the log stays
small however fast it repeats, and the counts add up to every line that came."""

from __future__ import annotations

import re

import pytest

from protocol.repeats import RepeatedLines

SUMMARY = re.compile(r"^(\d+) more refused from (\S+) in the last (\d+) s$")


def counted(lines: list[str], key: str) -> int:
    """The refusals of `key` the log accounts for: its full lines and its summaries' counts."""
    total = 0
    for line in lines:
        match = SUMMARY.match(line)
        if match and match.group(2) == key:
            total += int(match.group(1))
        elif line == f"turned {key} away":
            total += 1
    return total


def test_ten_thousand_repeats_in_one_interval_are_two_lines_with_the_true_count() -> None:
    lines: list[str] = []
    repeats = RepeatedLines(lines.append, "refused", interval=10.0)
    made = []
    for n in range(10_000):
        repeats.line("127.0.0.1", lambda: made.append(1) or "turned 127.0.0.1 away", 100 + n / 1e4)
    assert lines == ["turned 127.0.0.1 away"]
    assert len(made) == 1, "the text of a counted line is never made"
    repeats.flush(105.0)
    assert len(lines) == 1, "the interval is not over yet"
    repeats.flush(110.5)
    assert lines[1] == "9999 more refused from 127.0.0.1 in the last 11 s"
    assert len(repeats) == 0
    repeats.flush(200.0, everything=True)
    assert len(lines) == 2, "a count is said once"


def test_a_steady_flood_costs_at_most_two_lines_an_interval_and_every_one_is_counted() -> None:
    lines: list[str] = []
    repeats = RepeatedLines(lines.append, "refused", interval=10.0)
    seconds, rate = 600, 50
    for n in range(seconds * rate):
        repeats.line("127.0.0.1", lambda: "turned 127.0.0.1 away", n / rate)
        repeats.flush(n / rate)
    repeats.flush(seconds, everything=True)
    assert len(lines) <= 2 * (seconds / 10 + 1)
    assert counted(lines, "127.0.0.1") == seconds * rate


def test_addresses_are_counted_apart_and_memory_is_bounded() -> None:
    lines: list[str] = []
    repeats = RepeatedLines(lines.append, "refused", interval=10.0, max_keys=3)
    for n in range(1000):
        key = f"127.0.0.{n % 5}"
        repeats.line(key, lambda key=key: f"turned {key} away", n / 1000)  # type: ignore[misc]
        assert len(repeats) <= 3
    repeats.flush(1.0, everything=True)
    assert sum(counted(lines, f"127.0.0.{k}") for k in range(5)) == 1000
    assert all(counted(lines, f"127.0.0.{k}") == 200 for k in range(5))


def test_a_quiet_key_is_summarised_by_the_next_flush_not_left_uncounted() -> None:
    lines: list[str] = []
    repeats = RepeatedLines(lines.append, "refused", interval=2.0)
    for n in range(3):
        repeats.line("a", lambda: "turned a away", n * 0.1)
    repeats.flush(1.0)
    assert lines == ["turned a away"]
    repeats.flush(2.5)
    assert lines == ["turned a away", "2 more refused from a in the last 3 s"]


@pytest.mark.parametrize("kwargs", [{"interval": 0.0}, {"max_keys": 0}])
def test_nonsense_settings_are_refused(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        RepeatedLines(print, "refused", **kwargs)  # type: ignore[arg-type]
