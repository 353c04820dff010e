"""Actions are small frozen dataclasses; one codec per game turns them into plain maps and back.

The codec is the only way action data from outside (a client, a journal, a log) becomes an
action, so its checks are the engine's first line against malformed input: exact field set,
exact types, nothing else.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar, Union

from netcards.errors import BadAction


class Action:
    """Base of every game's actions. Subclasses are `@dataclass(frozen=True, slots=True)`."""

    __slots__ = ()
    KIND: ClassVar[str]


A = TypeVar("A", bound=Action)

_INT_TUPLE = tuple[int, ...]


def _field_checker(name: str, tp: Any) -> Any:
    """Build a function that validates and normalises one field's value."""
    if tp is bool:

        def check_bool(v: object) -> bool:
            if not isinstance(v, bool):
                raise BadAction(f"field '{name}' must be true or false")
            return v

        return check_bool
    if tp is int:

        def check_int(v: object) -> int:
            if not isinstance(v, int) or isinstance(v, bool):
                raise BadAction(f"field '{name}' must be an integer")
            if not -(2**31) <= v < 2**31:
                raise BadAction(f"field '{name}' is out of range")
            return v

        return check_int
    if tp == _INT_TUPLE:

        def check_ints(v: object) -> tuple[int, ...]:
            if not isinstance(v, list | tuple):
                raise BadAction(f"field '{name}' must be a list of integers")
            if len(v) > 64:
                raise BadAction(f"field '{name}' has too many items")
            for x in v:
                if not isinstance(x, int) or isinstance(x, bool) or not -(2**31) <= x < 2**31:
                    raise BadAction(f"field '{name}' must be a list of integers")
            return tuple(v)

        return check_ints
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1:
            inner = _field_checker(name, args[0])

            def check_optional(v: object) -> Any:
                return None if v is None else inner(v)

            return check_optional
    raise TypeError(f"unsupported action field type {tp!r} for '{name}'")


class ActionCodec:
    """Encodes a game's actions as {"kind": ..., field: value} maps and decodes them strictly."""

    def __init__(self, *classes: type[Action]) -> None:
        self._classes: dict[str, type[Action]] = {}
        self._checkers: dict[str, dict[str, Any]] = {}
        self.field_types: dict[str, dict[str, Any]] = {}
        for cls in classes:
            if cls.KIND in self._classes:
                raise TypeError(f"two actions share the kind {cls.KIND!r}")
            hints = typing.get_type_hints(cls)
            self._classes[cls.KIND] = cls
            self.field_types[cls.KIND] = {
                f.name: hints[f.name]
                for f in dataclasses.fields(cls)  # type: ignore[arg-type]
            }
            self._checkers[cls.KIND] = {
                f.name: _field_checker(f.name, hints[f.name])
                for f in dataclasses.fields(cls)  # type: ignore[arg-type]
            }

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self._classes)

    def encode(self, action: Action) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": action.KIND}
        for name in self._checkers[action.KIND]:
            value = getattr(action, name)
            out[name] = list(value) if isinstance(value, tuple) else value
        return out

    def decode(self, data: object) -> Action:
        if not isinstance(data, Mapping):
            raise BadAction("an action must be a map")
        kind = data.get("kind")
        if not isinstance(kind, str):
            raise BadAction("an action needs a string field 'kind'")
        checkers = self._checkers.get(kind)
        if checkers is None:
            raise BadAction(f"unknown action kind {kind!r} (known: {', '.join(self._classes)})")
        extra = set(data) - set(checkers) - {"kind"}
        if extra:
            raise BadAction(
                f"action '{kind}' has unexpected field(s): {', '.join(sorted(map(str, extra)))}"
            )
        values = {}
        for name, check in checkers.items():
            if name not in data:
                raise BadAction(f"action '{kind}' is missing field '{name}'")
            values[name] = check(data[name])
        return self._classes[kind](**values)
