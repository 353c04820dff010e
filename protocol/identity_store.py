"""The host's long-lived identity key on disk: made once, kept private, reused by every table
(so players' pinned fingerprints stay valid, and a resumed game is the same host)."""

from __future__ import annotations

import os
from pathlib import Path

from protocol.identity import IdentityKey

KEY_FILE = "host_key"


def load_or_create_identity(config: Path) -> IdentityKey:
    path = config / KEY_FILE
    if path.exists():
        return IdentityKey.load(path.read_text(encoding="ascii"))
    key = IdentityKey.generate(os.urandom)
    config.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key.dump())
    return key
