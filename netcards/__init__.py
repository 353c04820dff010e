"""The rules engine: pure, synchronous, deterministic.

Nothing in this package touches a socket, a clock, a file or an event loop. A game is
reproduced exactly from (game id, table config, seed, list of actions), which gives replays,
the host's crash journal and the bots' simulations from one mechanism.
"""

__all__: list[str] = []
