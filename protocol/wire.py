"""msgpack for untrusted input: strict limits, plain data only, one place for both directions.

Everything a peer sends is decoded here and nowhere else, so the unpacker's limits and the
generic shape rules (string keys, bounded depth, no extension types, no duplicate keys, finite
floats) hold for every message. Outgoing data passes the same shape check, so we never send
what a conforming peer would refuse; the one exception is the update each seat gets at every
move, whose shape the engine's tests hold instead (`pack_unchecked`).
"""

from __future__ import annotations

import math
from typing import Any

import msgpack

from protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from protocol.limits import MAX_CONTAINER, MAX_DEPTH, MAX_FRAME


def _pairs_to_map(pairs: list[tuple[Any, Any]]) -> dict[str, Any]:
    """Builds each map; refuses a non-string key or a key given twice."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if type(key) is not str:
            raise RemoteProtocolError(
                ErrorCode.BAD_KEY, f"map keys must be strings, not {kind_of(key)}"
            )
        if key in out:
            raise RemoteProtocolError(ErrorCode.DUPLICATE_KEY, f"map key {key!r} appears twice")
        out[key] = value
    return out


def _no_ext(code: int, data: bytes) -> Any:
    raise RemoteProtocolError(ErrorCode.EXT_TYPE, f"msgpack extension type {code} is not allowed")


def kind_of(value: object) -> str:
    """How the documentation names a value's type in error messages."""
    if value is None:
        return "nil"
    return {
        bool: "a boolean",
        int: "an integer",
        float: "a float",
        str: "a string",
        bytes: "binary",
        list: "an array",
        tuple: "an array",
        dict: "a map",
    }.get(type(value), type(value).__name__)


def unpack(payload: bytes) -> Any:
    """Decode exactly one msgpack object that fills `payload`, or raise RemoteProtocolError.

    `unpackb` takes no max_buffer_size: the payload is one frame body, already bounded by
    MAX_FRAME, and every string, binary and container limit below is within it.
    """
    try:
        obj = msgpack.unpackb(
            payload,
            raw=False,
            use_list=True,
            strict_map_key=False,  # keys are checked by _pairs_to_map, with a clearer error
            object_pairs_hook=_pairs_to_map,
            ext_hook=_no_ext,
            max_str_len=MAX_FRAME,
            max_bin_len=MAX_FRAME,
            max_array_len=MAX_CONTAINER,
            max_map_len=MAX_CONTAINER,
            max_ext_len=0,
        )
    except RemoteProtocolError:
        raise
    except msgpack.StackError:
        raise RemoteProtocolError(ErrorCode.TOO_DEEP, "msgpack data nested too deeply") from None
    except msgpack.ExtraData:
        raise RemoteProtocolError(
            ErrorCode.BAD_ENCODING, "bytes left over after the msgpack object"
        ) from None
    except UnicodeDecodeError:
        raise RemoteProtocolError(ErrorCode.BAD_ENCODING, "a string is not valid UTF-8") from None
    except (ValueError, msgpack.UnpackException) as exc:
        # The unpacker reports malformed input as FormatError, OutOfData or plain ValueError
        # (limits); every one of them means "not valid msgpack".
        text = str(exc)
        if "max_ext_len" in text:
            raise RemoteProtocolError(
                ErrorCode.EXT_TYPE, "msgpack extension types are not allowed"
            ) from None
        if "exceeds max_" in text:
            raise RemoteProtocolError(
                ErrorCode.TOO_LARGE, f"msgpack container or string too large ({text})"
            ) from None
        raise RemoteProtocolError(ErrorCode.BAD_ENCODING, "not valid msgpack") from None
    if _may_be_out_of_shape(payload):
        _check_unpacked(obj, MAX_DEPTH)
    return obj


_FLOAT_TYPES = (b"\xca", b"\xcb")
_CONTAINER_TYPES = frozenset(range(0x80, 0xA0)) | {0xDC, 0xDD, 0xDE, 0xDF}
_ALL_BUT_CONTAINER_TYPES = bytes(b for b in range(256) if b not in _CONTAINER_TYPES)


def _may_be_out_of_shape(payload: bytes) -> bool:
    """Whether `payload` could hold a non-finite float or nest deeper than MAX_DEPTH; when not,
    the walk of `_check_unpacked` can be skipped, and most messages are so.

    Every msgpack float begins with the byte 0xca or 0xcb, so a payload with neither byte
    anywhere holds no float. Every map and array begins with a byte of its own in 0x80-0x9f or
    0xdc-0xdf, so nesting deeper than MAX_DEPTH needs more than MAX_DEPTH such bytes. Bytes
    that merely look like these (inside a string, an integer) only make the answer a yes."""
    if _FLOAT_TYPES[0] in payload or _FLOAT_TYPES[1] in payload:
        return True
    return len(payload.translate(None, _ALL_BUT_CONTAINER_TYPES)) > MAX_DEPTH


def _check_unpacked(obj: Any, depth: int) -> None:
    """What `check_plain` would find in unpacked data that the unpacker let through: too deep
    a nesting, a float that is not finite. The rest cannot be there: `_pairs_to_map` made every
    key a string, given once; the unpacker's limits bound every container; its format holds no
    integer outside 64 bits; `_no_ext` refused extension types. Checking only what is left
    halves the walk every received message takes."""
    kind = type(obj)
    if kind is dict:
        items: Any = obj.values()
    elif kind is list:
        items = obj
    else:
        if kind is float and not math.isfinite(obj):
            raise RemoteProtocolError(ErrorCode.OUT_OF_RANGE, "floats must be finite")
        return
    if depth <= 0:
        raise RemoteProtocolError(
            ErrorCode.TOO_DEEP, f"data nested more than {MAX_DEPTH} levels deep"
        )
    for value in items:
        t = type(value)
        if t is dict or t is list:
            _check_unpacked(value, depth - 1)
        elif t is float and not math.isfinite(value):
            raise RemoteProtocolError(ErrorCode.OUT_OF_RANGE, "floats must be finite")


def pack(obj: Any) -> bytes:
    """Encode plain data; data a peer would refuse raises LocalProtocolError instead."""
    check_plain(obj, LocalProtocolError)
    return pack_unchecked(obj)


def pack_unchecked(obj: Any) -> bytes:
    """Encode data known to be plain without walking it first (`messages.encode_unchecked`
    says when that is known); what msgpack itself cannot encode still raises
    LocalProtocolError."""
    try:
        return msgpack.packb(obj, use_bin_type=True)
    except (TypeError, ValueError, OverflowError) as exc:
        raise LocalProtocolError(ErrorCode.WRONG_TYPE, f"cannot encode: {exc}") from None


def check_plain(
    obj: Any,
    error: type[RemoteProtocolError] | type[LocalProtocolError],
    depth: int = MAX_DEPTH,
) -> None:
    """Plain data only: nil, bool, int, finite float, str, bin, arrays and string-keyed maps.

    Scalars inside a container are checked in the loop rather than by recursion: this walk
    runs over every message in both directions and dominates the protocol's CPU time.
    """
    kind = type(obj)
    if kind is dict:
        for key in obj:
            if type(key) is not str:
                raise error(ErrorCode.BAD_KEY, f"map keys must be strings, not {kind_of(key)}")
        items = obj.values()
    elif kind is list or kind is tuple:
        items = obj
    else:
        _check_scalar(obj, error)
        return
    if depth <= 0:
        raise error(ErrorCode.TOO_DEEP, f"data nested more than {MAX_DEPTH} levels deep")
    if len(obj) > MAX_CONTAINER:
        raise error(ErrorCode.TOO_LARGE, f"more than {MAX_CONTAINER} items in one container")
    for value in items:
        t = type(value)
        if t is str or t is bool or value is None or t is bytes:
            continue
        if t is int:
            if not -(2**63) <= value < 2**64:
                raise error(ErrorCode.OUT_OF_RANGE, "integer does not fit in 64 bits")
            continue
        check_plain(value, error, depth - 1)


def _check_scalar(obj: Any, error: type[RemoteProtocolError] | type[LocalProtocolError]) -> None:
    kind = type(obj)
    if obj is None or kind is bool or kind is str or kind is bytes:
        return
    if kind is int:
        if not -(2**63) <= obj < 2**64:
            raise error(ErrorCode.OUT_OF_RANGE, "integer does not fit in 64 bits")
        return
    if kind is float:
        if not math.isfinite(obj):
            raise error(ErrorCode.OUT_OF_RANGE, "floats must be finite")
        return
    raise error(ErrorCode.WRONG_TYPE, f"{kind_of(obj)} cannot be sent")
