"""The verifiable deal: the host commits to its seed part before anyone else contributes.

Before the deal the host sends `commit` = SHA-256(label, host part) for a secret 32-byte part;
the players asked to contribute send random 32-byte parts; the game seed hashes the host part
with every contribution, in seat order. After the game `audit` reveals the host part and the
actions, so each player can check the commitment, recompute the seed, replay the game with the
engine and compare it with what it was shown. The host cannot pick the deal once committed,
as long as at least one contributing player is honest and is not the host itself.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from protocol.errors import ErrorCode, LocalProtocolError
from protocol.messages import Contribution

COMMIT_LABEL = b"netcards deal commit v1"
SEED_LABEL = b"netcards deal seed v1"


def commitment(host_part: bytes) -> bytes:
    if len(host_part) != 32:
        raise LocalProtocolError(ErrorCode.MISUSE, "the host's seed part is 32 bytes")
    return hashlib.sha256(COMMIT_LABEL + host_part).digest()


def combine_seed(host_part: bytes, contributions: Sequence[Contribution]) -> bytes:
    """The 32-byte game seed (what `Game.setup` takes)."""
    seats = [c.seat for c in contributions]
    if len(set(seats)) != len(seats):
        raise LocalProtocolError(ErrorCode.MISUSE, "one contribution per seat")
    h = hashlib.sha256(SEED_LABEL + host_part)
    for c in sorted(contributions, key=lambda c: c.seat):
        h.update(bytes([c.seat]) + c.part)
    return h.digest()


def verify_deal(
    committed: bytes, host_part: bytes, contributions: Sequence[Contribution], seed: bytes
) -> bool:
    """True when the revealed part matches the commitment and the seed follows from the parts."""
    if len(host_part) != 32 or commitment(host_part) != committed:
        return False
    try:
        return combine_seed(host_part, contributions) == seed
    except LocalProtocolError:
        return False
