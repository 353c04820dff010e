"""The failure throttle's contract, as the SSH door relies on it: free mistakes, then a wait,
then a refusal; a success forgets; other addresses are not affected."""

from __future__ import annotations

from protocol.throttle import FailureThrottle


def test_free_failures_cost_nothing_then_the_wait_grows() -> None:
    throttle = FailureThrottle(free=3, base=1.0, cap=60.0)
    for _ in range(3):
        throttle.failure("192.0.2.1", 100.0)
    assert throttle.delay("192.0.2.1", 100.0) == 0.0
    throttle.failure("192.0.2.1", 100.0)
    first = throttle.delay("192.0.2.1", 100.0)
    assert first > 0.0
    throttle.failure("192.0.2.1", 100.0)
    assert throttle.delay("192.0.2.1", 100.0) > first
    assert throttle.delay("192.0.2.1", 100.0 + 61.0) == 0.0, "the wait is over after the cap"
    assert throttle.delay("192.0.2.2", 100.0) == 0.0, "another address is not slowed"


def test_many_failures_refuse_the_address_for_a_while_and_success_forgets() -> None:
    throttle = FailureThrottle(refuse_after=5, refuse_for=600.0)
    for _ in range(5):
        throttle.failure("a", 10.0)
    assert throttle.refused("a", 11.0)
    assert not throttle.refused("a", 10.0 + 601.0)
    throttle.failure("b", 10.0)
    throttle.success("b")
    for _ in range(3):
        throttle.failure("b", 10.0)
    assert throttle.delay("b", 10.0) == 0.0, "a success wiped the earlier failure"


def test_the_table_of_addresses_is_bounded() -> None:
    throttle = FailureThrottle(free=0, max_keys=10)
    for n in range(100):
        throttle.failure(f"198.51.100.{n}", 0.0)
    assert sum(throttle.delay(f"198.51.100.{n}", 0.0) > 0 for n in range(100)) <= 10
