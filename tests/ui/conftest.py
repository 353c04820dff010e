"""The app's tests run with a fixed host identity, so fingerprints (and snapshots) repeat."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from protocol.identity import IdentityKey
from protocol.identity_store import KEY_FILE


@pytest.fixture(autouse=True)
def _fixed_identity() -> None:
    config = Path(os.environ["NETCARDS_CONFIG_DIR"])
    config.mkdir(parents=True, exist_ok=True)
    (config / KEY_FILE).write_text(IdentityKey(bytes(range(32))).dump())
