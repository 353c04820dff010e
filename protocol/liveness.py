"""When to ping a quiet peer and when to give up on it, from times the caller passes in.

The connection answers pings by itself; this keeps the clock out of it. The adapter calls
`received(now)` whenever bytes arrive and `poll(now)` at `deadline()`, sends the ping it may
return, and drops the peer when `poll` reports it dead.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from protocol.messages import Ping


@dataclass
class Liveness:
    now: float
    interval: float = 5.0
    timeout: float = 20.0
    last_received: float = field(init=False)
    last_ping: float = field(init=False)
    nonce: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.last_received = self.now
        self.last_ping = self.now

    def received(self, now: float) -> None:
        self.last_received = now

    def dead(self, now: float) -> bool:
        return now - self.last_received >= self.timeout

    def poll(self, now: float) -> Ping | None:
        """A ping to send now, if the peer has been quiet for `interval` since the last one."""
        quiet_since = max(self.last_received, self.last_ping)
        if now - quiet_since < self.interval:
            return None
        self.last_ping = now
        self.nonce = (self.nonce + 1) % 2**32
        return Ping(self.nonce)

    def deadline(self) -> float:
        """The next time `poll` or `dead` can change its answer."""
        return min(
            max(self.last_received, self.last_ping) + self.interval,
            self.last_received + self.timeout,
        )
