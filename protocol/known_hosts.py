"""Trust on first use, like SSH's known_hosts: the first fingerprint seen for an address is kept,
and a different one later is refused loudly (someone may be in the middle)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class KnownHost:
    address: str
    fingerprint: str


class KnownHosts:
    """A text file, one `address fingerprint` per line; written atomically."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def entries(self) -> list[KnownHost]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return []
        out = []
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 2 and not line.startswith("#"):
                out.append(KnownHost(parts[0], parts[1]))
        return out

    def lookup(self, address: str) -> str | None:
        for entry in self.entries():
            if entry.address == address:
                return entry.fingerprint
        return None

    def remember(self, address: str, fingerprint: str) -> None:
        kept = [e for e in self.entries() if e.address != address]
        self._write([*kept, KnownHost(address, fingerprint)])

    def forget(self, address: str) -> bool:
        entries = self.entries()
        kept = [e for e in entries if e.address != address]
        self._write(kept)
        return len(kept) != len(entries)

    def _write(self, entries: list[KnownHost]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(
            "# netcards known hosts: address fingerprint\n"
            + "".join(f"{e.address} {e.fingerprint}\n" for e in entries),
            encoding="utf-8",
        )
        os.replace(tmp, self.path)
