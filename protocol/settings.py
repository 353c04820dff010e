"""Where netcards keeps its files and whom discovery asks, each overridable by the environment.

Tests and people trying things on a machine that must not broadcast set
NETCARDS_DISCOVERY_TARGET=127.0.0.1; tests also point the directories at temporary folders.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "netcards"
DISCOVERY_PORT = 47475
BROADCAST = "255.255.255.255"
HOST_SILENCE = 60.0
"""Seconds a client waits on a host that keeps its link open and says nothing (not even an
answer to a ping) before it gives up on it (docs/protocol.md, section 7, step 9)."""


def config_dir() -> Path:
    """Identity key, known hosts, settings."""
    override = os.environ.get("NETCARDS_CONFIG_DIR")
    return Path(override) if override else Path(platformdirs.user_config_dir(APP))


def data_dir() -> Path:
    """Journals and saved games."""
    override = os.environ.get("NETCARDS_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir(APP))


def discovery_target() -> str:
    """The address a LAN query is sent to: the broadcast address unless configured."""
    return os.environ.get("NETCARDS_DISCOVERY_TARGET", "").strip() or BROADCAST


def discovery_port() -> int:
    text = os.environ.get("NETCARDS_DISCOVERY_PORT", "").strip()
    return int(text) if text.isdigit() and 0 < int(text) < 65536 else DISCOVERY_PORT


def host_silence() -> float:
    """`HOST_SILENCE`, or `NETCARDS_HOST_SILENCE` seconds (tests set a few)."""
    try:
        seconds = float(os.environ.get("NETCARDS_HOST_SILENCE", "").strip())
    except ValueError:
        return HOST_SILENCE
    return seconds if 0 < seconds < 86400 else HOST_SILENCE
