"""Every test runs with its own config and data folders, and discovery aimed at loopback only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_dirs_and_loopback_discovery(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("NETCARDS_CONFIG_DIR", str(home / "config"))
    monkeypatch.setenv("NETCARDS_DATA_DIR", str(home / "data"))
    monkeypatch.setenv("NETCARDS_DISCOVERY_TARGET", "127.0.0.1")
    yield home
