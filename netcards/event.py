"""Events: what an action did, split by who may know it.

One event has three parts: `public` (everyone, spectators included), `private` (per seat: what
only that seat learns, e.g. the cards it drew) and `secret` (nobody during the game: e.g. a
reshuffled pile's order, which only the omniscient log and the end-of-game audit contain).
The host turns these into per-seat messages with `for_seat`; nothing else decides who sees what.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    public: dict[str, Any] = field(default_factory=dict)
    private: dict[int, dict[str, Any]] = field(default_factory=dict)
    secret: dict[str, Any] = field(default_factory=dict)

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """The event as `seat` may see it (None: a spectator)."""
        out: dict[str, Any] = {"kind": self.kind, **self.public}
        if seat is not None and seat in self.private:
            out.update(self.private[seat])
        return out

    def omniscient(self) -> dict[str, Any]:
        """Everything, for the host's log: public, every private part by seat, and the secret."""
        out: dict[str, Any] = {"kind": self.kind, **self.public}
        if self.private:
            out["private"] = {str(s): p for s, p in sorted(self.private.items())}
        out.update(self.secret)
        return out

    def to_data(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "public": self.public,
            "private": [[s, p] for s, p in sorted(self.private.items())],
            "secret": self.secret,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Event:
        return cls(
            kind=data["kind"],
            public=dict(data["public"]),
            private={int(s): dict(p) for s, p in data["private"]},
            secret=dict(data["secret"]),
        )
