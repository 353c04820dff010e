"""The one byte encoding of a value that signatures, labels and digests are computed over.

Section 2 of the protocol lets senders encode msgpack any valid way; what is signed cannot.
Canonical here means: msgpack with str and bin kept apart, every integer in its shortest
form (what msgpack's packer does), maps with their keys in sorted order (keys are str), and
only nil, bool, int, str, bin, arrays (lists or tuples) and maps. Floats are refused: nothing
sealed needs them and their encodings are not unique.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgpack

_PLAIN = frozenset({type(None), bool, int, str, bytes})
"""The types that encode as they are (checked by exact type: the common case, fast)."""


def _normal(value: Any) -> Any:
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is list or kind is tuple:
        # A list of plain values (elements, scalars, slots) is the usual one: no recursion.
        return [v if type(v) in _PLAIN else _normal(v) for v in value]
    if kind is dict or isinstance(value, Mapping):
        if not all(type(k) is str for k in value):
            raise TypeError("canonical maps have str keys")
        return {k: _normal(value[k]) for k in sorted(value)}
    if isinstance(value, bool | int | str | bytes):  # a subclass (an IntEnum, say)
        return value
    if isinstance(value, list | tuple):
        return [_normal(v) for v in value]
    raise TypeError(f"no canonical encoding for {type(value).__name__}")


def canonical(value: Any) -> bytes:
    out = msgpack.packb(_normal(value), use_bin_type=True)
    assert isinstance(out, bytes)
    return out
