"""The verifiable deal's arithmetic and the ping timer."""

from __future__ import annotations

from netcards.registry import get_game
from protocol.deal import combine_seed, commitment, verify_deal
from protocol.liveness import Liveness
from protocol.messages import Contribution


def test_commit_combine_verify() -> None:
    host = b"\x11" * 32
    parts = [Contribution(2, b"\x22" * 32), Contribution(0, b"\x33" * 32)]
    seed = combine_seed(host, parts)
    assert len(seed) == 32
    assert seed == combine_seed(host, list(reversed(parts)))  # order-independent: by seat
    assert verify_deal(commitment(host), host, parts, seed)
    assert not verify_deal(commitment(host), b"\x12" * 32, parts, seed)
    assert not verify_deal(commitment(host), host, parts[:1], seed)
    assert not verify_deal(commitment(host), host, [*parts, Contribution(2, b"\x44" * 32)], seed)
    assert seed != combine_seed(
        host, [Contribution(2, b"\x22" * 32), Contribution(1, b"\x33" * 32)]
    )
    # The seed is what a game's setup takes.
    game = get_game("via-gladiola")
    game.setup(game.make_config(3), seed)


def test_liveness() -> None:
    live = Liveness(now=100.0, interval=5.0, timeout=20.0)
    assert live.poll(103.0) is None and live.deadline() == 105.0
    ping = live.poll(105.0)
    assert ping is not None and ping.nonce == 1
    assert live.poll(106.0) is None
    live.received(107.0)
    assert not live.dead(126.0) and live.dead(127.0)
    assert live.poll(112.0) is not None
