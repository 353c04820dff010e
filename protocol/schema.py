"""Field kinds: the small vocabulary every message field is declared with.

A message field is written `seat: Annotated[int, SEAT]`: the Python type for readers and mypy,
the kind for the wire. Each kind both validates incoming values (`load`, raising
RemoteProtocolError that names the field) and checks outgoing ones (`dump`, raising
LocalProtocolError), so one declaration is the only schema there is; docs/protocol.md lists
the same kinds by their `describe()` text.
"""

from __future__ import annotations

import dataclasses
import typing
import unicodedata
from abc import ABC, abstractmethod
from typing import Any

from protocol.errors import ErrorCode, LocalProtocolError, ProtocolError, RemoteProtocolError
from protocol.limits import MAX_CONTAINER, MAX_SEATS
from protocol.wire import kind_of

Fault = type[RemoteProtocolError] | type[LocalProtocolError]

_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def refused_in_text(ch: str) -> bool:
    """A character `Text` refuses: a control (it could move the cursor or clear a terminal) or a
    bidi override (it could make a line read as something else)."""
    return ch in _BIDI_CONTROLS or unicodedata.category(ch) == "Cc"


def as_text(value: str) -> str:
    """`value` with every character `Text` refuses made a space: what a person typed or pasted
    (a tab, a newline, a stray escape) is sent as they see it rather than refused whole."""
    if value.isascii() and value.isprintable():
        return value
    return "".join(" " if refused_in_text(ch) else ch for ch in value)


class Kind(ABC):
    """How one field looks on the wire."""

    @abstractmethod
    def check(self, value: Any, where: str, fault: Fault, loading: bool) -> Any:
        """Validate `value`; return it as the other side wants it (wire form or Python form)."""

    @abstractmethod
    def describe(self) -> str:
        """The kind in the words docs/protocol.md uses."""

    def load(self, value: Any, where: str) -> Any:
        return self.check(value, where, RemoteProtocolError, True)

    def dump(self, value: Any, where: str) -> Any:
        return self.check(value, where, LocalProtocolError, False)


def _wrong(fault: Fault, where: str, expected: str, value: object) -> ProtocolError:
    return fault(ErrorCode.WRONG_TYPE, f"field '{where}' must be {expected}, not {kind_of(value)}")


@dataclasses.dataclass(frozen=True)
class Int(Kind):
    lo: int
    hi: int

    def check(self, value: Any, where: str, fault: Fault, loading: bool) -> Any:
        if type(value) is not int:
            raise _wrong(fault, where, "an integer", value)
        if not self.lo <= value <= self.hi:
            raise fault(
                ErrorCode.OUT_OF_RANGE,
                f"field '{where}' must be between {self.lo} and {self.hi}, not {value}",
            )
        return value

    def describe(self) -> str:
        return f"int {self.lo}..{self.hi}"


@dataclasses.dataclass(frozen=True)
class Bool(Kind):
    def check(self, value: Any, where: str, fault: Fault, loading: bool) -> Any:
        if type(value) is not bool:
            raise _wrong(fault, where, "a boolean", value)
        return value

    def describe(self) -> str:
        return "bool"


@dataclasses.dataclass(frozen=True)
class Text(Kind):
    """Human text that ends up on someone's terminal: no control or bidi-override characters."""

    min_len: int
    max_len: int

    def check(self, value: Any, where: str, fault: Fault, loading: bool) -> Any:
        if type(value) is not str:
            raise _wrong(fault, where, "a string", value)
        if not self.min_len <= len(value) <= self.max_len:
            raise fault(
                ErrorCode.OUT_OF_RANGE,
                f"field '{where}' must be {self.min_len} to {self.max_len} characters, not {len(value)}",
            )
        if value.isascii() and value.isprintable():
            return value  # the usual case: ASCII has no bidi controls, and its Cc are unprintable
        for ch in value:
            if refused_in_text(ch):
                raise fault(
                    ErrorCode.OUT_OF_RANGE,
                    f"field '{where}' contains the control character U+{ord(ch):04X}",
                )
        return value

    def describe(self) -> str:
        return f"str {self.min_len}..{self.max_len} chars, no control characters"


@dataclasses.dataclass(frozen=True)
class Choice(Kind):
    """One of a fixed set of strings."""

    values: tuple[str, ...]

    def __init__(self, *values: str) -> None:
        object.__setattr__(self, "values", values)

    def check(self, value: Any, where: str, fault: Fault, loading: bool) -> Any:
        if type(value) is not str:
            raise _wrong(fault, where, "a string", value)
        if value not in self.values:
            raise fault(
                ErrorCode.OUT_OF_RANGE,
                f"field '{where}' must be one of {', '.join(self.values)}, not {value[:32]!r}",
            )
        return value

    def describe(self) -> str:
        return "one of " + ", ".join(f'"{v}"' for v in self.values)


@dataclasses.dataclass(frozen=True)
class Blob(Kind):
    size: int

    def check(self, value: Any, where: str, fault: Fault, loading: bool) -> Any:
        if type(value) is not bytes:
            raise _wrong(fault, where, "binary", value)
        if len(value) != self.size:
            raise fault(
                ErrorCode.OUT_OF_RANGE,
                f"field '{where}' must be {self.size} bytes, not {len(value)}",
            )
        return value

    def describe(self) -> str:
        return f"bin, exactly {self.size} bytes"


@dataclasses.dataclass(frozen=True)
class Opt(Kind):
    inner: Kind

    def check(self, value: Any, where: str, fault: Fault, loading: bool) -> Any:
        return None if value is None else self.inner.check(value, where, fault, loading)

    def describe(self) -> str:
        return f"nil or {self.inner.describe()}"


@dataclasses.dataclass(frozen=True)
class Seq(Kind):
    """An array; a tuple in Python so that messages stay immutable."""

    item: Kind
    max_items: int = MAX_CONTAINER

    def check(self, value: Any, where: str, fault: Fault, loading: bool) -> Any:
        if not (type(value) is list or (not loading and type(value) is tuple)):
            raise _wrong(fault, where, "an array", value)
        if len(value) > self.max_items:
            raise fault(
                ErrorCode.OUT_OF_RANGE, f"field '{where}' has more than {self.max_items} items"
            )
        items = [self.item.check(v, f"{where}[{i}]", fault, loading) for i, v in enumerate(value)]
        return tuple(items) if loading else items

    def describe(self) -> str:
        return f"array of at most {self.max_items} of ({self.item.describe()})"


@dataclasses.dataclass(frozen=True)
class Data(Kind):
    """A game's own plain map (an action, a view, an event, options): checked for shape only.
    With `text`, every string in it is checked as `Text` is: the map's words are printed as
    they come (a notice's names and reasons, an error's detail), not drawn by a screen that
    takes control characters out."""

    text: bool = False

    def check(self, value: Any, where: str, fault: Fault, loading: bool) -> Any:
        if type(value) is not dict:
            raise _wrong(fault, where, "a map", value)
        # The contents are checked once for the whole message, by wire.pack or wire.unpack.
        if self.text:
            _check_strings(value, where, fault)
        return value

    def describe(self) -> str:
        words = ", no control characters in its strings" if self.text else ""
        return f"map of plain data (string keys){words}"


_ANY_TEXT = Text(0, 2**32)


def _check_strings(value: Any, where: str, fault: Fault) -> None:
    if type(value) is str:
        _ANY_TEXT.check(value, where, fault, True)
    elif type(value) is dict:
        for key, item in value.items():
            _check_strings(key, where, fault)
            _check_strings(item, f"{where}.{key}", fault)
    elif type(value) is list or type(value) is tuple:
        for item in value:
            _check_strings(item, where, fault)


@dataclasses.dataclass(frozen=True)
class Record(Kind):
    """A nested map with its own declared fields (a seat in the lobby, an audit entry)."""

    cls: type[Any]

    def check(self, value: Any, where: str, fault: Fault, loading: bool) -> Any:
        fields = fields_of(self.cls)
        if loading:
            if type(value) is not dict:
                raise _wrong(fault, where, "a map", value)
            return self.cls(**load_fields(fields, value, where))
        if not isinstance(value, self.cls):
            raise _wrong(fault, where, f"a {self.cls.__name__}", value)
        return dump_fields(fields, value, where)

    def describe(self) -> str:
        return f"map {self.cls.__name__}"


# Kinds used by many messages.
SEAT = Int(0, MAX_SEATS - 1)
COUNT = Int(0, 2**32 - 1)
KEY32 = Blob(32)
NAME = Text(1, 32)


_FIELDS: dict[type[Any], tuple[tuple[str, Kind], ...]] = {}


def fields_of(cls: type[Any]) -> tuple[tuple[str, Kind], ...]:
    """(name, kind) of every field of a dataclass declared with `Annotated[type, Kind]`."""
    cached = _FIELDS.get(cls)
    if cached is not None:
        return cached
    hints = typing.get_type_hints(cls, include_extras=True)
    out = []
    for f in dataclasses.fields(cls):
        kinds = [m for m in getattr(hints[f.name], "__metadata__", ()) if isinstance(m, Kind)]
        if len(kinds) != 1:
            raise TypeError(f"{cls.__name__}.{f.name} needs exactly one wire kind in Annotated[]")
        out.append((f.name, kinds[0]))
    _FIELDS[cls] = tuple(out)
    return _FIELDS[cls]


def load_fields(
    fields: tuple[tuple[str, Kind], ...], data: dict[str, Any], where: str, skip: str = ""
) -> dict[str, Any]:
    """Validate a received map against declared fields: exact field set, each value's kind.

    A map with as many keys as there are fields, each field among them, has no other key, so
    the set of names is worked out only when the count is off or a field is missing (an
    unexpected field is reported before a missing one)."""
    if len(data) != len(fields) + (skip in data if skip else 0):
        _refuse_extra(fields, data, where, skip)
    out = {}
    for name, kind in fields:
        path = f"{where}.{name}" if where else name
        if name not in data:
            _refuse_extra(fields, data, where, skip)
            raise RemoteProtocolError(ErrorCode.MISSING_FIELD, f"field '{path}' is missing")
        out[name] = kind.load(data[name], path)
    return out


def _refuse_extra(
    fields: tuple[tuple[str, Kind], ...], data: dict[str, Any], where: str, skip: str
) -> None:
    names = {name for name, _ in fields}
    extra = [k for k in data if k not in names and k != skip]
    if extra:
        label = f"field '{where}'" if where else "the message"
        raise RemoteProtocolError(
            ErrorCode.EXTRA_FIELD, f"{label} has unexpected field(s): {', '.join(sorted(extra))}"
        )


def dump_fields(fields: tuple[tuple[str, Kind], ...], obj: Any, where: str) -> dict[str, Any]:
    return {
        name: kind.dump(getattr(obj, name), f"{where}.{name}" if where else name)
        for name, kind in fields
    }
