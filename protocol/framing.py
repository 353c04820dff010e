"""Frames: a 4-byte big-endian length, then that many bytes of body.

The length is checked the moment its four bytes arrive, so an oversized or empty frame is
refused before any of its body is buffered. End of stream inside a frame is a truncation;
end of stream between frames is an ordinary close.
"""

from __future__ import annotations

from protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from protocol.limits import LENGTH_PREFIX, MAX_FRAME


def length_prefix(size: int) -> bytes:
    if not 0 < size <= MAX_FRAME:
        raise LocalProtocolError(
            ErrorCode.FRAME_TOO_LARGE, f"a frame body must be 1 to {MAX_FRAME} bytes, not {size}"
        )
    return size.to_bytes(LENGTH_PREFIX, "big")


def frame(body: bytes) -> bytes:
    return length_prefix(len(body)) + body


class FrameReader:
    """Collects received bytes and hands out whole frame bodies, one at a time."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._eof = False

    @property
    def eof(self) -> bool:
        """The peer closed its side (received_data(b"") was called)."""
        return self._eof

    @property
    def buffered(self) -> int:
        return len(self._buffer)

    def feed(self, data: bytes) -> None:
        if self._eof:
            raise LocalProtocolError(ErrorCode.MISUSE, "data received after the end of stream")
        if data:
            self._buffer += data
        else:
            self._eof = True

    def next_body(self) -> bytes | None:
        """The next complete body, or None when more bytes are needed."""
        buf = self._buffer
        if len(buf) < LENGTH_PREFIX:
            if self._eof and buf:
                raise RemoteProtocolError(
                    ErrorCode.TRUNCATED, "the stream ended inside a frame's length prefix"
                )
            return None
        size = int.from_bytes(buf[:LENGTH_PREFIX], "big")
        if size == 0:
            raise RemoteProtocolError(ErrorCode.EMPTY_FRAME, "a frame with an empty body")
        if size > MAX_FRAME:
            raise RemoteProtocolError(
                ErrorCode.FRAME_TOO_LARGE,
                f"a frame of {size} bytes is larger than the limit of {MAX_FRAME}",
            )
        end = LENGTH_PREFIX + size
        if len(buf) < end:
            if self._eof:
                raise RemoteProtocolError(
                    ErrorCode.TRUNCATED,
                    f"the stream ended {end - len(buf)} bytes before the end of a frame",
                )
            return None
        body = bytes(buf[LENGTH_PREFIX:end])
        del buf[:end]
        return body
