"""Views as named fields: built whole for the wire, or field by field for a bot that reads a few.

A game writes its views once, as an ordered table of fields, each a function of the state and
the asking seat (None: a spectator). `build` makes the plain dict that goes on the wire, in that
order. `lazy` makes a read-only mapping equal to it whose fields are worked out when they are
read: a random bot reads none of them, a heuristic bot a handful, and simulations and the
search's playouts ask for a view at every decision. Both come from the same functions, so a
lazy view can hold nothing the built one would not (the leak tests check the built one), and a
test compares the two on every decision of many games.

A lazy view reads the state whenever a field is read, so it is only good until the state
changes: bots read it inside `choose`, before the move is applied. It keeps nothing: bots read
most fields once, and remembering each one cost the search's playouts a tenth of their speed;
a bot that needs a costly field twice keeps it in a local.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, Generic, TypeVar

S = TypeVar("S")

ABSENT: Any = object()
"""What an optional field's function returns when the view has no such field now."""

Field = Callable[[S, Any], Any]


class ViewFields(Generic[S]):
    """An ordered table of a view's fields. `optional` names the fields that may be ABSENT."""

    __slots__ = ("_by_name", "_fields", "_optional")

    def __init__(self, fields: Mapping[str, Field[S]], optional: frozenset[str] = frozenset()):
        self._fields = tuple(fields.items())
        self._by_name = dict(fields)
        self._optional = optional
        unknown = optional - set(fields)
        if unknown:
            raise ValueError(f"optional fields that are not fields: {sorted(unknown)}")

    def extended(self, fields: Mapping[str, Field[S]]) -> ViewFields[S]:
        """These fields, then `fields` (those with a name already here take its place)."""
        return ViewFields({**self._by_name, **fields}, self._optional)

    def build(self, state: S, seat: int | None) -> dict[str, Any]:
        if not self._optional:
            return {name: field(state, seat) for name, field in self._fields}
        out: dict[str, Any] = {}
        for name, field in self._fields:
            value = field(state, seat)
            if value is not ABSENT:
                out[name] = value
        return out

    def lazy(self, state: S, seat: int | None) -> LazyView:
        return LazyView(self, state, seat)


class LazyView(Mapping[str, Any]):
    """A view whose fields are worked out when read."""

    __slots__ = ("_by_name", "_fields", "_seat", "_state")

    def __init__(self, fields: ViewFields[Any], state: Any, seat: int | None) -> None:
        self._fields = fields
        self._by_name = fields._by_name
        self._state = state
        self._seat = seat

    def __getitem__(self, name: str) -> Any:
        value = self._by_name[name](self._state, self._seat)
        if value is ABSENT:
            raise KeyError(name)
        return value

    def __contains__(self, name: object) -> bool:
        if name not in self._fields._by_name:
            return False
        if name not in self._fields._optional:
            return True
        assert isinstance(name, str)
        return self.get(name, ABSENT) is not ABSENT

    def _names(self) -> list[str]:
        return [name for name, _ in self._fields._fields if name in self]

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())

    def __repr__(self) -> str:
        return f"LazyView({dict(self)!r})"


class WholeView(Mapping[str, Any]):
    """A view built whole the first time any field is read: for games without a field table."""

    __slots__ = ("_build", "_view")

    def __init__(self, build: Callable[[], dict[str, Any]]) -> None:
        self._build = build
        self._view: dict[str, Any] | None = None

    def _whole(self) -> dict[str, Any]:
        if self._view is None:
            self._view = self._build()
        return self._view

    def __getitem__(self, name: str) -> Any:
        return self._whole()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._whole())

    def __len__(self) -> int:
        return len(self._whole())
