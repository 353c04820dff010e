"""What one client saw of the deal being made, kept so that the host cannot rewrite it later.

The fair deal is only as good as the client's memory: a host that could send a new commitment
in `start`, or publish a contribution nobody pledged, could choose the deal after seeing the
players' parts. So a client keeps the first host commitment it saw from a table and the pledges
published in the round it revealed its part in, and refuses any later message that changes them
or adds a contributor (`DealTampered`), before it plays a single card of such a deal.

A deal made again once parts were out (our own revealed, or the pledges of others published,
or a game already dealt) is a re-deal: the host has seen a seed and may be throwing it away.
It is not refused (a player may really have left at that moment) but counted, and the
end-of-game check says "deal NOT verified" with the count. The host cannot make us forget: the
notes outlive the connection, a refused seat token (`bad_token`), a new seat, a restart of the
host (a new table there, with a new commitment, is adopted only as one more re-deal) and a
restart of our own program (they round-trip through `to_data`/`from_data`, and the client
writes them to disk before it sends a pledge or its part). Only a finished check, or our own
user leaving, ends them.
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
    """Deals made again after our own part was out."""
    redeals_after_others: int = 0
    """Deals made again after other players' parts were out (published pledges), not ours."""
    started: bool = False
    """A `start` matched everything above: the deal of the game is the one we witnessed."""
    saw_the_deal: bool = False
    """We saw the commitment before the game started (not a spectator who came in later)."""
    maybe_new_table: bool = False
    """This link did not take back our seat (a new seat, a spectator's, or our token refused):
    the host may be another table now, with another commitment. Not kept on disk: a restarted
    program is on a new link anyway."""
    catching_up: bool = False
    """No deal message yet on this link: a `commit` may be the host repeating our round."""
    repeated: bool = False
    """The round's `commit` came again on a new link and was taken for the same round, until
    its `pledges` show whether it is."""
    left: bool = False
    """Our own user left the table on purpose: the next deal is not counted as a re-deal (the
    round we left is called off because we left, and a game we left for good is over for us).
    Only our user can set it; nothing the host sends does."""

    def on_left(self) -> None:
        """Our user chose to leave the table (not a dropped link, not a refusal by the host)."""
        self.left = True

    def on_link(self, resumed: bool) -> None:
        """A new link to the table took a seat (or a spectator's place); `resumed` if the host
        gave us back our seat."""
        self.catching_up = True
        self.maybe_new_table = not resumed

    @property
    def parts_out(self) -> bool:
        """Some part of the current round (or of the game dealt) may be known to the host."""
        return self.started or self.revealed or bool(self.pledges)

    def _count_redeal(self) -> None:
        if self.left:
            return
        if self.revealed:
            self.redeals_after_reveal += 1
        elif self.parts_out:
            self.redeals_after_others += 1

    def on_commit(
        self,
        commitment: bytes,
        seats: Iterable[int],
        seat: int | None,
        random: Callable[[int], bytes],
    ) -> bytes | None:
        """A new round: check the host's commitment; the pledge to send if we are asked."""
        new_table, self.maybe_new_table = self.maybe_new_table, False
        catching_up, self.catching_up = self.catching_up, False
        if self.left and new_table:
            self._new_round()  # the game or round we left is over for us: start afresh
        if self.started and not new_table:
            raise DealTampered("the host began a new deal after the game had started")
        if self.host_commitment is None or new_table:
            # A table that does not know our seat may be a new one, with a part of its own: its
            # commitment is taken, and whatever was out of the last one counts as a re-deal.
            if self.host_commitment != commitment:
                self._count_redeal()
                self._new_round()
            self.host_commitment = commitment
        elif commitment != self.host_commitment:
            raise DealTampered("the host changed its commitment to its seed part between two deals")
        seats = frozenset(seats)
        if catching_up and not self.started and self.asked == seats:
            # The round we were in, sent again to a new link, or a new round with the same seats:
            # its pledges will tell (the same ones bind the same parts, so the same deal).
            self.repeated = True
            self.saw_the_deal = True
            return None
        self._count_redeal()
        self._new_round()
        self.left = False
        self.saw_the_deal = True
        self.asked = seats
        if seat is None or seat not in self.asked:
            return None
        self.my_part = random(PART_BYTES)
        self.my_pledge = pledge(seat, self.my_part)
        return self.my_pledge

    def _new_round(self) -> None:
        self.asked = None
        self.pledges = None
        self.revealed = self.started = self.repeated = False
        self.my_part = self.my_pledge = None

    def on_pledges(self, pledges: Mapping[int, bytes], seat: int | None) -> bytes | None:
        """The pledges the host publishes; our part to reveal if ours is among them, unchanged."""
        if self.asked is None:
            raise DealTampered("the host published pledges before committing to its own part")
        pledges = dict(pledges)
        repeated, self.repeated = self.repeated, False
        self.catching_up = False
        if self.pledges is not None and pledges == self.pledges:
            return None  # sent again (to a new link): the same round, our part already out
        if self.pledges is not None:
            if not repeated:
                raise DealTampered("the host changed the published pledges")
            # Not the round we were in after all: a new one, made after those parts were out.
            asked = self.asked
            self._count_redeal()
            self._new_round()
            self.asked = asked
        invented = sorted(set(pledges) - self.asked)
        if invented:
            raise DealTampered(
                f"the host published a pledge for seat(s) {[s + 1 for s in invented]}, which were never asked "
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
        self.catching_up = self.maybe_new_table = False
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
        if self.redeals_after_others:
            out.append(
                f"the deal was made again {self.redeals_after_others} time(s) after the players' "
                "seed parts had been published: the host could have chosen between deals"
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

    # -- kept on disk beside the seat token ---------------------------------------------------------

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
            "redeals_after_others": self.redeals_after_others,
            "started": self.started,
            "saw_the_deal": self.saw_the_deal,
            "left": self.left,
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
            redeals_after_others=int(data.get("redeals_after_others", 0)),
            started=bool(data["started"]),
            saw_the_deal=bool(data["saw_the_deal"]),
            left=bool(data.get("left", False)),
        )
