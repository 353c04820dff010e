"""What one client saw of the deal being made, kept so that the host cannot rewrite it later.

The fair deal is only as good as the client's memory: a host that could send a new commitment
in `start`, or publish a contribution nobody pledged, could choose the deal after seeing the
players' parts. So a client keeps the first host commitment it saw from a table and the pledges
published in the round it revealed its part in, and refuses any later message that changes them
or adds a contributor (`DealTampered`), before it plays a single card of such a deal. A deal
made again after this client revealed its part is not refused (a player may really have left at
that moment) but remembered, and the end-of-game check says so: the host could have chosen
between the deals.

The notes round-trip through `to_data`/`from_data` so that a restarted program still holds the
host to what it saw before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from netcards.fairdeal import PART_BYTES, part_problems, pledge


class DealTampered(Exception):
    """The host broke the deal's commit-then-reveal order: it may be choosing the deal."""


@dataclass
class DealWitness:
    host_commitment: bytes | None = None
    """The host's commitment, as first seen from this table; it may never change."""
    asked: frozenset[int] | None = None
    """The seats asked to pledge in the current round (`commit.seats`)."""
    pledges: dict[int, bytes] | None = None
    """The pledges published in the current round, as first seen."""
    my_part: bytes | None = None
    my_pledge: bytes | None = None
    revealed: bool = False
    """Our part of the current round has been sent: from now on the host knows it."""
    redeals_after_reveal: int = 0
    started: bool = False
    """A `start` matched everything above: the deal of the game is the one we witnessed."""
    saw_the_deal: bool = False
    """We saw the commitment before the game started (not a spectator who came in later)."""

    def on_commit(
        self,
        commitment: bytes,
        seats: Iterable[int],
        seat: int | None,
        random: Callable[[int], bytes],
    ) -> bytes | None:
        """A new round: check the host's commitment; the pledge to send if we are asked."""
        if self.started:
            raise DealTampered("the host began a new deal after the game had started")
        if self.host_commitment is None:
            self.host_commitment = commitment
        elif commitment != self.host_commitment:
            raise DealTampered("the host changed its commitment to its seed part between two deals")
        if self.revealed:
            self.redeals_after_reveal += 1
        self.saw_the_deal = True
        self.asked = frozenset(seats)
        self.pledges = None
        self.revealed = False
        self.my_part = self.my_pledge = None
        if seat is None or seat not in self.asked:
            return None
        self.my_part = random(PART_BYTES)
        self.my_pledge = pledge(seat, self.my_part)
        return self.my_pledge

    def on_pledges(self, pledges: Mapping[int, bytes], seat: int | None) -> bytes | None:
        """The pledges the host publishes; our part to reveal if ours is among them, unchanged."""
        if self.asked is None:
            raise DealTampered("the host published pledges before committing to its own part")
        pledges = dict(pledges)
        if self.pledges is not None:
            if pledges != self.pledges:
                raise DealTampered("the host changed the published pledges")
            return None
        invented = sorted(set(pledges) - self.asked)
        if invented:
            raise DealTampered(
                f"the host published a pledge for seat(s) {invented}, which were never asked "
                "to contribute (an invented contributor)"
            )
        self.pledges = pledges
        if self.my_part is None or seat is None or seat not in pledges:
            return None  # not asked, or our pledge came too late: we keep our part to ourselves
        if pledges[seat] != self.my_pledge:
            raise DealTampered("the host published a pledge for our seat that is not ours")
        self.revealed = True
        return self.my_part

    def on_start(self, commitment: bytes, contributions: Mapping[int, bytes]) -> None:
        """The deal the game is played with: it must be exactly the one we witnessed."""
        if not self.saw_the_deal:
            if self.host_commitment is None:
                self.host_commitment = commitment
            elif commitment != self.host_commitment:
                raise DealTampered("the host's commitment in 'start' is not the one it sent before")
            return  # we came in after the deal was made: only the replay can be checked
        if commitment != self.host_commitment:
            raise DealTampered(
                "the host's commitment in 'start' is not the one it committed to before the "
                "players revealed their parts (a new seed part chosen after the reveals)"
            )
        if self.pledges is None:
            raise DealTampered("the game started before the host published the pledges")
        problems = part_problems(self.pledges, contributions)
        if problems:
            raise DealTampered("; ".join(problems))
        self.started = True

    def problems(self, seat: int | None) -> list[str]:
        """What makes the deal unfair for us even though every message was consistent."""
        out = []
        if self.my_part is not None and self.pledges is not None and seat not in self.pledges:
            out.append(
                "our seed part was left out of the deal: we cannot tell whether the host chose it"
            )
        if self.redeals_after_reveal:
            out.append(
                f"the deal was made again {self.redeals_after_reveal} time(s) after our seed part "
                "had been revealed: the host could have chosen between deals"
            )
        return out

    def caveats(self) -> list[str]:
        if self.saw_the_deal:
            return []
        return ["we did not see the deal being made: only the replay of the game was checked"]

    @property
    def contribution(self) -> bytes | None:
        """Our part, if it is one of the deal's parts."""
        return self.my_part if self.revealed else None

    # -- kept on disk with the seat token ---------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        def hx(b: bytes | None) -> str | None:
            return None if b is None else b.hex()

        return {
            "host_commitment": hx(self.host_commitment),
            "asked": None if self.asked is None else sorted(self.asked),
            "pledges": None
            if self.pledges is None
            else {str(s): p.hex() for s, p in self.pledges.items()},
            "my_part": hx(self.my_part),
            "my_pledge": hx(self.my_pledge),
            "revealed": self.revealed,
            "redeals_after_reveal": self.redeals_after_reveal,
            "started": self.started,
            "saw_the_deal": self.saw_the_deal,
        }

    @classmethod
    def restore(cls, data: Mapping[str, Any] | None) -> DealWitness:
        """Notes kept on disk, or fresh ones if there are none or they are damaged."""
        if data is None:
            return cls()
        try:
            return cls.from_data(data)
        except (KeyError, TypeError, ValueError, AttributeError):
            return cls()

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> DealWitness:
        """Notes written by `to_data`; ValueError (or KeyError, TypeError) if they are damaged."""

        def bx(value: Any) -> bytes | None:
            return None if value is None else bytes.fromhex(str(value))

        pledges = data["pledges"]
        return cls(
            host_commitment=bx(data["host_commitment"]),
            asked=None if data["asked"] is None else frozenset(int(s) for s in data["asked"]),
            pledges=None
            if pledges is None
            else {int(s): bytes.fromhex(str(p)) for s, p in pledges.items()},
            my_part=bx(data["my_part"]),
            my_pledge=bx(data["my_pledge"]),
            revealed=bool(data["revealed"]),
            redeals_after_reveal=int(data["redeals_after_reveal"]),
            started=bool(data["started"]),
            saw_the_deal=bool(data["saw_the_deal"]),
        )
