"""Trust on first use, like SSH's known_hosts: the first host key seen at an address is kept,
and a different one later is refused loudly (someone may be in the middle)."""

from __future__ import annotations

import base64
import binascii
import os
from dataclasses import dataclass
from pathlib import Path

from protocol.identity import fingerprint


@dataclass(frozen=True)
class KnownHost:
    address: str
    key: bytes

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)


class KnownHosts:
    """A text file, one `address base64-key` per line; rewritten atomically."""

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
            if len(parts) != 2 or line.startswith("#"):
                continue
            try:
                key = base64.b64decode(parts[1], validate=True)
            except (binascii.Error, ValueError):
                continue
            if len(key) == 32:
                out.append(KnownHost(parts[0], key))
        return out

    def lookup(self, address: str) -> bytes | None:
        for entry in self.entries():
            if entry.address == address:
                return entry.key
        return None

    def remember(self, address: str, key: bytes) -> None:
        kept = [e for e in self.entries() if e.address != address]
        self._write([*kept, KnownHost(address, key)])

    def forget(self, address: str) -> bool:
        entries = self.entries()
        kept = [e for e in entries if e.address != address]
        self._write(kept)
        return len(kept) != len(entries)

    def _write(self, entries: list[KnownHost]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.{id(entries)}.tmp")
        tmp.write_text(
            "# netcards known hosts: address host-key (base64)\n"
            + "".join(f"{e.address} {base64.b64encode(e.key).decode()}\n" for e in entries),
            encoding="utf-8",
        )
        os.replace(tmp, self.path)


class OwnHost(KnownHosts):
    """The one key a program's own table has: its client, sitting at the table this process
    hosts, knows the key already. Nothing is trusted on first use and nothing is written, so
    hosting (a practice game on a fresh port each time) does not fill the known hosts."""

    def __init__(self, address: str, key: bytes) -> None:
        super().__init__(Path(os.devnull))
        self._entry = KnownHost(address, key)

    def entries(self) -> list[KnownHost]:
        return [self._entry]

    def _write(self, entries: list[KnownHost]) -> None:
        """Nothing is kept: the table's key is known for as long as the table is open."""
