"""Which of our seat's moves this program made, and which a bot made for us.

The host's updates name only the seat that acted (`actor`): a move the host's stand-in bot
made while we were away, or the turn clock's bot when our time ran out, carries our seat as
any of our own moves does. Only the client can tell them apart: it knows which updates answered
an action it sent. A program that restarts has lost that memory, so the seq of our latest own
move is kept on disk beside the seat token (`SeatTokens.save_moves`): a move of our seat after
it was not ours (the program was not running to make it), one before it was (a seat acts once
per seq), unless it is one of the bot's moves we knew of then: those are kept with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class OwnMoves:
    deal: str = ""
    """The host's commitment to the deal (hex) of the game these seqs number: a next game at
    the same table numbers its moves from 1 again."""
    before: int = 0
    """The seq of our latest own move in an earlier run of the program (0: none)."""
    mine: set[int] = field(default_factory=set)
    """Seqs of our seat's moves this program made (or, at or below `before`, an earlier run)."""
    by_bot: set[int] = field(default_factory=set)
    """Seqs of our seat's moves a bot made for us."""

    @property
    def last_own_seq(self) -> int:
        return max(self.mine | {self.before})

    def for_game(self, commitment: bytes) -> None:
        """The game being played: its moves are numbered afresh when it is another one."""
        if commitment.hex() != self.deal:
            self.deal, self.before = commitment.hex(), 0
            self.mine.clear()
            self.by_bot.clear()

    def made(self, seq: int) -> None:
        """Our seat's move `seq` answered an action of ours."""
        self.mine.add(seq)
        self.by_bot.discard(seq)

    def not_made(self, seq: int) -> None:
        """Our seat's move `seq` was made by a bot for us."""
        self.mine.discard(seq)
        self.by_bot.add(seq)

    def seen(self, seq: int) -> None:
        """Our seat's move `seq` in the history a rejoin brings: ours if we know it as ours,
        or if an earlier run had made a later one and did not know it as the bot's."""
        if seq in self.mine or seq in self.by_bot:
            return
        if seq <= self.before:
            self.mine.add(seq)
        else:
            self.by_bot.add(seq)

    def by_stand_in(self, seq: int) -> bool:
        return seq in self.by_bot

    def taken_back(self, first: int) -> None:
        """The host lost the moves from `first` on (they are decided again)."""
        self.mine = {s for s in self.mine if s < first}
        self.by_bot = {s for s in self.by_bot if s < first}
        self.before = min(self.before, first - 1)

    def to_data(self) -> dict[str, Any]:
        last = self.last_own_seq
        return {
            "deal": self.deal,
            "last_own_seq": last,
            "stand_in": sorted(s for s in self.by_bot if s < last),
        }

    @classmethod
    def restore(cls, data: dict[str, Any] | None) -> OwnMoves:
        """What an earlier run kept (anything malformed is read as nothing)."""
        if not isinstance(data, dict):
            return cls()
        deal, last, bots = data.get("deal"), data.get("last_own_seq"), data.get("stand_in")
        if not isinstance(deal, str) or type(last) is not int or last < 0:
            return cls()
        if not isinstance(bots, list) or not all(type(s) is int for s in bots):
            bots = []
        return cls(deal=deal, before=last, by_bot={s for s in bots if 0 < s < last})
