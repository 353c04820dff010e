"""Private transfers: a card already in one seat's hand handed to another seat alone.

Once position j was opened to its first owner k (its *keeper*), every other seat's y_ij is
public and only y_kj is still secret. A card that changes hands without being played (Velonimo's
steal and give-back) must reach its new owner t and nobody else, so y_kj cannot be published:
it would open the card to everyone. Instead it is sealed to t with a fresh Diffie-Hellman
exchange in the same group:

1. t publishes a `pass_key` step: B = commit(b) for a fresh scalar b, and the positions.
2. The keeper (who may have lost the card to another seat since: it knows y_kj all the same,
   and that the card moves is public) publishes a `pass` step: E = commit(e) for a fresh e, and for each
   position y_kj XOR SHA-256(label || x(e·b·G) || round as 4 bytes || position as 4 bytes).
3. t computes x(b·E) = x(e·B), recovers y_kj, checks it against the keeper's commitment c_kj
   (a scalar that fails names the sender) and unmasks the card. When t plays it, its `reveal`
   step carries y_kj, checked against c_kj, and everyone reads the card.

The host relays both steps and learns neither b nor e: it sees only what any eavesdropper of a
Diffie-Hellman exchange sees.
"""

from __future__ import annotations

import hashlib

from protocol.sealed.group import SCALAR_BYTES, commit, mul

PAD_LABEL = b"netcards sealed pass v5"


def pad(shared: bytes, round_no: int, position: int) -> bytes:
    return hashlib.sha256(
        PAD_LABEL + shared + round_no.to_bytes(4, "big") + position.to_bytes(4, "big")
    ).digest()


def seal_scalar(y: int, their_key: bytes, mine: int, round_no: int, position: int) -> bytes:
    """y as 32 bytes, XORed with the pad of the exchange between `mine` and `their_key`."""
    shared = mul(their_key, mine)
    raw = y.to_bytes(SCALAR_BYTES, "big")
    return bytes(a ^ b for a, b in zip(raw, pad(shared, round_no, position), strict=True))


def open_scalar(sealed: bytes, their_key: bytes, mine: int, round_no: int, position: int) -> int:
    shared = mul(their_key, mine)
    raw = bytes(a ^ b for a, b in zip(sealed, pad(shared, round_no, position), strict=True))
    return int.from_bytes(raw, "big")


def public_key(secret: int) -> bytes:
    return commit(secret)
