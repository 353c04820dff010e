"""One attempt at making the deal, on the host: who is asked, their pledges, then their parts.

The round has two stages, and the order is what makes the deal fair: while `pledging`, asked
seats send hashes of their parts; the host then closes the pledges (whoever has not pledged by
then is left out) and publishes them; only then, while `revealing`, do seats send their parts,
each checked against its pledge. Bot seats are never asked: the host's own committed part,
fixed before anyone pledged, is all the say the host and its bots get. No clock and no socket
here: the host decides when a stage times out.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from netcards.fairdeal import pledge


class DealRefusal(Exception):
    """A pledge or a part the round cannot take; the text says why (for the player)."""


class DealRound:
    def __init__(self, asked: Iterable[int]) -> None:
        self.asked = frozenset(asked)
        self.stage: Literal["pledging", "revealing"] = "pledging"
        self.pledges: dict[int, bytes] = {}
        self.parts: dict[int, bytes] = {}

    def pledge(self, seat: int, commitment: bytes) -> None:
        if self.stage != "pledging" or seat not in self.asked:
            raise DealRefusal("no pledge was asked of you now")
        if seat in self.pledges:
            raise DealRefusal("you have pledged already")
        self.pledges[seat] = commitment

    @property
    def all_pledged(self) -> bool:
        return set(self.pledges) == self.asked

    def close_pledges(self) -> dict[int, bytes]:
        """No more pledges: the ones made so far are the deal's contributors, in seat order."""
        self.stage = "revealing"
        return dict(sorted(self.pledges.items()))

    def reveal(self, seat: int, part: bytes) -> None:
        if self.stage != "revealing" or seat not in self.pledges:
            raise DealRefusal("no seed part was asked of you now")
        if seat in self.parts:
            raise DealRefusal("you have revealed your part already")
        if pledge(seat, part) != self.pledges[seat]:
            raise DealRefusal("this seed part is not the one you pledged")
        self.parts[seat] = part

    @property
    def all_revealed(self) -> bool:
        return self.stage == "revealing" and set(self.parts) == set(self.pledges)

    def missing(self) -> list[int]:
        """Seats that pledged and have not revealed yet."""
        return sorted(set(self.pledges) - set(self.parts))
