"""The failure throttle: free attempts, a doubling delay up to a cap, a temporary refusal,
forgetting, and bounded memory; all with times passed in."""

from __future__ import annotations

import pytest

from protocol.throttle import FailureThrottle


def test_the_first_failures_are_free_then_the_delay_doubles_up_to_the_cap() -> None:
    t = FailureThrottle(free=3, base=1.0, cap=8.0, refuse_after=20, refuse_for=600.0)
    for n in range(2):
        t.failure("a", 100.0 + n)
        assert t.delay("a", 100.0 + n) == 0.0, "within the free allowance"
    waits = []
    now = 110.0
    for _ in range(6):  # the third free attempt failed too: the fourth waits
        t.failure("a", now)
        waits.append(t.delay("a", now))
        now += waits[-1]
        assert t.delay("a", now) == 0.0, "the wait is over once it has passed"
    assert waits == [1.0, 2.0, 4.0, 8.0, 8.0, 8.0]
    assert t.delay("a", now - 3.0) == 3.0, "half-way through a wait, the rest of it"


def test_many_failures_refuse_the_key_for_a_while_then_it_is_forgotten() -> None:
    t = FailureThrottle(free=1, base=1.0, cap=2.0, refuse_after=4, refuse_for=60.0)
    for n in range(3):
        t.failure("a", float(n))
    assert not t.refused("a", 2.0) and t.delay("a", 2.0) == 2.0
    t.failure("a", 3.0)
    assert t.refused("a", 3.0) and t.refused("a", 62.9)
    assert t.delay("a", 3.0) == 60.0 and t.delay("a", 33.0) == 30.0
    assert not t.refused("a", 63.0) and t.delay("a", 63.0) == 0.0
    assert t.failures("a", 63.0) == 0, "a quiet key starts again from nothing"
    assert len(t) == 0


def test_keys_are_independent_and_a_success_forgets_the_key() -> None:
    t = FailureThrottle(free=0, base=5.0, cap=5.0, refuse_after=3, refuse_for=10.0)
    t.failure("attacker", 0.0)
    assert t.delay("attacker", 0.0) == 5.0
    assert t.delay("friend", 0.0) == 0.0 and not t.refused("friend", 0.0)
    t.success("attacker")
    assert t.delay("attacker", 0.0) == 0.0 and t.failures("attacker", 0.0) == 0
    t.success("never seen")


def test_memory_is_bounded_and_refused_keys_are_kept_longest() -> None:
    t = FailureThrottle(free=0, base=1.0, cap=1.0, refuse_after=2, refuse_for=100.0, max_keys=3)
    t.failure("refused", 0.0)
    t.failure("refused", 0.0)
    for n in range(50):
        t.failure(f"k{n}", 1.0 + n)
        assert len(t) <= 3
    assert t.refused("refused", 51.0), "a refused key is not washed out by one-off failures"
    assert t.failures("k49", 51.0) == 1 and t.failures("k0", 51.0) == 0
    t.failure("late", 200.0)
    assert len(t) == 1, "expired keys make room first"


def test_a_clock_that_steps_back_never_shortens_a_wait() -> None:
    t = FailureThrottle(free=0, base=4.0, cap=4.0, refuse_after=5, refuse_for=10.0)
    t.failure("a", 10.0)
    t.failure("a", 9.0)
    assert t.delay("a", 10.0) == 4.0


@pytest.mark.parametrize(
    "kwargs",
    [
        {"free": 5, "refuse_after": 5},
        {"base": 0.0},
        {"base": 2.0, "cap": 1.0},
        {"cap": 100.0, "refuse_for": 10.0},
        {"max_keys": 0},
    ],
)
def test_nonsense_settings_are_refused(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        FailureThrottle(**kwargs)  # type: ignore[arg-type]
