"""Which proofs this process has checked already, so that it checks each one once.

At the host, the relay checks a step's proof, then each of its bots' seats takes the same
step; a program rebuilt from a seed replays steps it may have checked. A proof's check is a pure
function of its statement and its bytes, so a proof found good is good again. The key is a
digest of everything the check reads; a failed check is never remembered."""

from __future__ import annotations

from collections import OrderedDict


class Checked:
    def __init__(self, most: int = 256) -> None:
        self._most = most
        self._seen: OrderedDict[bytes, None] = OrderedDict()

    def __contains__(self, memo: bytes) -> bool:
        if memo in self._seen:
            self._seen.move_to_end(memo)
            return True
        return False

    def add(self, memo: bytes) -> None:
        self._seen[memo] = None
        if len(self._seen) > self._most:
            self._seen.popitem(last=False)

    def forget(self) -> None:
        """Forget every check (a benchmark measures each as a new program makes it)."""
        self._seen.clear()
