"""Seat tokens kept on disk, so that a player whose program died rejoins their seat by simply
starting it again (`netcards join ADDRESS`, `netcards bot ADDRESS`)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


class SeatTokens:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, address: str, name: str) -> Path:
        key = hashlib.sha256(f"{address}\n{name}".encode()).hexdigest()[:32]
        return self.folder / f"{key}.token"

    def load(self, address: str, name: str) -> bytes | None:
        try:
            token = bytes.fromhex(self._path(address, name).read_text().strip())
        except (OSError, ValueError):
            return None
        return token if len(token) == 32 else None

    def save(self, address: str, name: str, token: bytes) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self._path(address, name)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(token.hex())

    def forget(self, address: str, name: str) -> None:
        self._path(address, name).unlink(missing_ok=True)
