"""The turn clock's limits as docs/protocol.md (section 5, item 7) and the README give them: 0 is
no clock, 0.001 to 86400 seconds is a clock (fractions too), anything else is refused before the
host starts (a clock under a millisecond would be announced as "no clock" while bots played at
once; one over the wire's range could not be announced at all); on the wire whole milliseconds,
0 to 4294967295."""

from __future__ import annotations

import io

import pytest

from protocol.errors import ProtocolError
from protocol.messages import Clock, decode, encode
from ui.cli import EXIT_USAGE, _build_parser, run


def turn_clock(text: str) -> float:
    return float(_build_parser().parse_args(["host", "--turn-clock", text]).turn_clock)


def test_no_clock_is_the_default_and_zero() -> None:
    assert _build_parser().parse_args(["host"]).turn_clock == 0
    assert turn_clock("0") == 0


@pytest.mark.parametrize(
    ("text", "value"),
    [("0.001", 0.001), ("0.25", 0.25), ("1", 1.0), ("90", 90.0), ("86400", 86400.0)],
)
def test_any_number_of_seconds_above_zero_is_a_clock(text: str, value: float) -> None:
    assert turn_clock(text) == value


@pytest.mark.parametrize("text", ["-1", "-0.5", "soon", "nan", "inf"])
def test_a_negative_number_or_not_a_number_is_refused_before_the_host_starts(text: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run(["host", "--headless", "--turn-clock", text], out, err) == EXIT_USAGE
    assert "--turn-clock" in err.getvalue()
    assert "not a number of seconds (0 or more)" in err.getvalue()
    assert out.getvalue() == ""


@pytest.mark.parametrize("text", ["0.0004", "86400.5", "5000000"])
def test_a_clock_the_wire_would_misstate_or_not_carry_is_refused(text: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run(["host", "--headless", "--turn-clock", text], out, err) == EXIT_USAGE
    assert "a turn clock is 0 (none) or 0.001 to 86400 seconds" in err.getvalue()
    assert out.getvalue() == ""


@pytest.mark.parametrize("ms", [0, 1, 250, 4294967295])
def test_the_wire_carries_whole_milliseconds_from_zero(ms: int) -> None:
    assert decode(encode(Clock(ms, ()))) == Clock(ms, ())


@pytest.mark.parametrize("ms", [-1, 4294967296])
def test_the_wire_refuses_a_clock_outside_its_range(ms: int) -> None:
    data = encode(Clock(0, ()))
    data["per_turn_ms"] = ms
    with pytest.raises(ProtocolError, match="per_turn_ms"):
        decode(data)
