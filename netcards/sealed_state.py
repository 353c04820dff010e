"""A title's sealed state: its classic state plus a few public fields, copied and written once.

Every title's sealed state extends its classic state (so that the classic rules run on it
unchanged) with fields of its own: the sealing ledger (netcards/sealed_cards.py) and whatever
else the title keeps. Its `copy`, `to_data` and `from_data` are the classic ones plus those
fields, each copied so that a copy shares nothing mutable with the original. `SealedFields`
writes that once from a list of the added fields; the classic state's own methods do the classic
fields, so a field added to a classic state needs nothing here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import Field, dataclass, fields
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from netcards.sealed_cards import SealLedger

T = TypeVar("T")


class Classic(Protocol):
    """A title's classic state, as a sealed state's methods use it."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    def copy(self) -> Classic: ...
    def to_data(self) -> dict[str, Any]: ...
    @classmethod
    def from_data(cls, d: dict[str, Any]) -> Classic: ...


S = TypeVar("S", bound=Classic)


@dataclass(frozen=True, slots=True)
class Extra(Generic[T]):
    """A field a sealed state adds: how a copy gets its own value, and how it is written into
    the state's data (under its name, after the classic fields) and read back."""

    name: str
    copy: Callable[[T], T]
    to_data: Callable[[T], Any]
    from_data: Callable[[Any], T]


def _same(x: T) -> T:
    return x


def immutable(name: str) -> Extra[Any]:
    """A field whose value is its own copy and its own data (a str, an int, None)."""
    return Extra(name, _same, _same, _same)


LEDGER: Extra[SealLedger] = Extra(
    "ledger", SealLedger.copy, SealLedger.to_data, SealLedger.from_data
)
"""Every sealed state's ledger of sealing rounds."""


class SealedFields(Generic[S]):
    """The `copy`, `to_data` and `from_data` of the sealed state `sealed`: the classic state's,
    then `extras` in order. `loaded` finishes a state read back (a title whose rules read the
    deck's tables puts back its sealed deck, whose tables refuse a slot)."""

    def __init__(
        self,
        classic: type[Classic],
        sealed: type[S],
        *extras: Extra[Any],
        loaded: Callable[[S], None] | None = None,
    ) -> None:
        self.classic = classic
        self.sealed = sealed
        self.extras = extras
        self.loaded = loaded

    def _make(self, base: Classic, extras: dict[str, Any]) -> S:
        return self.sealed(
            **{f.name: getattr(base, f.name) for f in fields(self.classic)}, **extras
        )

    def copy(self, state: S) -> S:
        return self._make(
            self.classic.copy(state), {e.name: e.copy(getattr(state, e.name)) for e in self.extras}
        )

    def to_data(self, state: S) -> dict[str, Any]:
        data = self.classic.to_data(state)
        for e in self.extras:
            data[e.name] = e.to_data(getattr(state, e.name))
        return data

    def from_data(self, d: dict[str, Any]) -> S:
        state = self._make(
            self.classic.from_data(d), {e.name: e.from_data(d[e.name]) for e in self.extras}
        )
        if self.loaded is not None:
            self.loaded(state)
        return state


def as_sealed(kind: type[T], state: object) -> T:
    """`state` as the sealed state `kind`: a sealed title's rules override classic steps typed
    for the classic state, and one reaching them with a classic state is an engine bug."""
    if not isinstance(state, kind):
        raise TypeError("a sealed game's rules need a sealed state")
    return state
