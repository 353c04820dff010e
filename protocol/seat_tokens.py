"""Seat tokens kept on disk, so that a player whose program died rejoins their seat by simply
starting it again (`netcards join ADDRESS`, `netcards bot ADDRESS`).

Next to the token the file keeps the client's notes on the deal (`DealWitness.to_data`): what
the host committed to and what was pledged before our part was revealed. A restarted program
then holds the host to the same deal instead of believing whatever it is told next. The file
is readable by the user alone and deleted when the game is over.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any


class SeatTokens:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, address: str, name: str) -> Path:
        key = hashlib.sha256(f"{address}\n{name}".encode()).hexdigest()[:32]
        return self.folder / f"{key}.token"

    def _read(self, address: str, name: str) -> dict[str, Any]:
        try:
            text = self._path(address, name).read_text().strip()
        except OSError:
            return {}
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        # Anything but our map is read as a file of an earlier release: the token alone, in hex.
        return data if isinstance(data, dict) else {"token": text}

    def load(self, address: str, name: str) -> bytes | None:
        try:
            token = bytes.fromhex(str(self._read(address, name).get("token")))
        except ValueError:
            return None
        return token if len(token) == 32 else None

    def load_deal(self, address: str, name: str) -> dict[str, Any] | None:
        """The deal notes saved with the token, if any."""
        deal = self._read(address, name).get("deal")
        return deal if isinstance(deal, dict) else None

    def save(
        self, address: str, name: str, token: bytes, deal: dict[str, Any] | None = None
    ) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self._path(address, name)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(json.dumps({"token": token.hex(), "deal": deal}))

    def forget(self, address: str, name: str) -> None:
        self._path(address, name).unlink(missing_ok=True)
