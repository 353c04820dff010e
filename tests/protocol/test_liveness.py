"""The ping timer."""

from __future__ import annotations

from protocol.liveness import Liveness


def test_liveness() -> None:
    live = Liveness(now=100.0, interval=5.0, timeout=20.0)
    assert live.poll(103.0) is None and live.deadline() == 105.0
    ping = live.poll(105.0)
    assert ping is not None and ping.nonce == 1
    assert live.poll(106.0) is None
    live.received(107.0)
    assert not live.dead(126.0) and live.dead(127.0)
    assert live.poll(112.0) is not None
