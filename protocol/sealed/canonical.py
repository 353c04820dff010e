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


def _normal(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | str | bytes):
        return value
    if isinstance(value, list | tuple):
        return [_normal(v) for v in value]
    if isinstance(value, Mapping):
        if not all(isinstance(k, str) for k in value):
            raise TypeError("canonical maps have str keys")
        return {k: _normal(value[k]) for k in sorted(value)}
    raise TypeError(f"no canonical encoding for {type(value).__name__}")


def canonical(value: Any) -> bytes:
    out = msgpack.packb(_normal(value), use_bin_type=True)
    assert isinstance(out, bytes)
    return out
