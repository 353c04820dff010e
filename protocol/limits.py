"""Hard limits applied to everything that arrives from a peer.

They are deliberately generous for card games and small enough that a hostile peer cannot make
us allocate much: no frame is larger than `MAX_FRAME`, so nothing decoded from it can be either.
A second implementation must apply the same numbers, or peers will refuse its messages.
"""

from __future__ import annotations

PROTOCOL_VERSION = 5
"""The version both ends announce in their hello; any difference ends the handshake."""

LENGTH_PREFIX = 4
"""Bytes of the big-endian unsigned length in front of every frame body."""

MAX_FRAME = 64 * 1024
"""Largest frame body (ciphertext and tag after the handshake), in bytes."""

TAG_SIZE = 16
"""ChaCha20-Poly1305 authentication tag appended to every encrypted body."""

MAX_PLAINTEXT = MAX_FRAME - TAG_SIZE
"""Largest msgpack payload of an encrypted frame."""

MAX_TURN_CLOCK = 86_400
"""The longest turn clock a host offers, in seconds (a day): far beyond any game, and well
inside the wire's milliseconds (`turn_clock_ms`, at most 4294967295)."""

MAX_DEPTH = 16
"""Most nested containers in one message, the message's own map counting as one."""

MAX_CONTAINER = 4096
"""Most items in one array or pairs in one map."""

MAX_SEATS = 8
"""Seats at one table; seat numbers run from 0 to MAX_SEATS - 1."""

CHAT_MEMORY = 20
"""Most lines of chat, said before a connection joined, that the host sends it again."""
