"""Events: what an action did, split by who may know it.

One event has three parts: `public` (everyone, spectators included), `private` (per seat: what
only that seat learns, e.g. the cards it drew) and `secret` (nobody during the game: e.g. a
reshuffled pile's order, which only the omniscient log and the end-of-game audit contain).
The host turns these into per-seat messages with `for_seat`; nothing else decides who sees what.
"""

from __future__ import annotations

from typing import Any


class Event:
    """One event. A plain record with slots: the engine makes hundreds of thousands a second in
    playouts, and a frozen dataclass's checked `__init__` costs twice as much. Nothing changes an
    event once made; each part is a plain dict, as the wire and the logs take them."""

    __slots__ = ("kind", "private", "public", "secret")

    def __init__(
        self,
        kind: str,
        public: dict[str, Any] | None = None,
        private: dict[int, dict[str, Any]] | None = None,
        secret: dict[str, Any] | None = None,
    ) -> None:
        self.kind = kind
        self.public = {} if public is None else public
        self.private = {} if private is None else private
        self.secret = {} if secret is None else secret

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (
            self.kind == other.kind
            and self.public == other.public
            and self.private == other.private
            and self.secret == other.secret
        )

    __hash__ = None  # type: ignore[assignment]  # its parts are dicts

    def __repr__(self) -> str:
        return (
            f"Event(kind={self.kind!r}, public={self.public!r}, "
            f"private={self.private!r}, secret={self.secret!r})"
        )

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
