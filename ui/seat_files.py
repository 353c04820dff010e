"""What a player's program keeps of its seat on disk, so that it takes the seat back after a
crash: the notes on the deal, which of the seat's moves were its own, and at a sealed table the
seed of its seat (its secrets) with what the host told it (`protocol/seat_tokens.py`).

A player who joined and the host's own player keep the same files, under the address the
player's program connects to: `netcards join ADDRESS` started again reads them back. The host's
own player connects to its own table at `127.0.0.1:PORT`, so after a crash and `netcards host
--resume JOURNAL --headless` the same person takes their seat back with `netcards join
127.0.0.1:PORT --name NAME` on the same machine: at a sealed table nobody else holds that
seat's secrets, and without them the seat could never be played again."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from protocol.deal_witness import DealWitness
from protocol.own_moves import OwnMoves
from protocol.seat_tokens import SealedSeedFile, SeatTokens


@dataclass
class SeatFiles:
    """The `TableClient` fields that read and write a seat's files (see `fields`)."""

    deal: DealWitness = field(default_factory=DealWitness)
    moves: OwnMoves = field(default_factory=OwnMoves)
    keep_deal: Callable[[DealWitness], None] | None = None
    keep_moves: Callable[[OwnMoves], None] | None = None
    seed_file: SealedSeedFile | None = None

    @classmethod
    def kept(cls, tokens: SeatTokens, address: str, name: str) -> SeatFiles:
        """A player joining `address` as `name`: what an earlier run kept, and kept from now."""
        files = cls.fresh(tokens, address, name)
        files.deal = DealWitness.restore(tokens.load_deal(address, name))
        files.moves = OwnMoves.restore(tokens.load_moves(address, name))
        return files

    @classmethod
    def fresh(cls, tokens: SeatTokens, address: str, name: str) -> SeatFiles:
        """A seat at a table just opened (the host's own): nothing to read back, since notes
        left by an earlier table at that address are of another deal; kept from now."""
        return cls(
            keep_deal=lambda deal: tokens.save_deal(address, name, deal.to_data()),
            keep_moves=lambda moves: tokens.save_moves(address, name, moves.to_data()),
            seed_file=tokens.sealed_seed(address, name),
        )

    def fields(self) -> dict[str, Any]:
        """As `TableClient` takes them."""
        return {
            "deal": self.deal,
            "moves": self.moves,
            "keep_deal": self.keep_deal,
            "keep_moves": self.keep_moves,
            "seed_file": self.seed_file,
        }
