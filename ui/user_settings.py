"""The player's own settings (name, ASCII mode, theme...), kept under the platform's config dir."""

from __future__ import annotations

import getpass
import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from protocol.settings import config_dir

SETTINGS_FILE = "settings.json"


def _default_name() -> str:
    try:
        return getpass.getuser()[:24] or "Player"
    except Exception:
        return "Player"


@dataclass
class UserSettings:
    name: str = ""
    ascii: bool = False
    theme: str = "textual-dark"
    language: str = ""
    bot_delay: float = 0.6
    last_address: str = ""
    """The table last joined from the join form, offered there next time."""

    def __post_init__(self) -> None:
        if not self.name:
            self.name = _default_name()

    @classmethod
    def path(cls) -> Path:
        return config_dir() / SETTINGS_FILE

    @classmethod
    def load(cls) -> UserSettings:
        try:
            data: Any = json.loads(cls.path().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(data, dict):
            return cls()
        known = {f.name for f in fields(cls)}
        kept = {k: v for k, v in data.items() if k in known}
        try:
            return cls(**kept)
        except TypeError:
            return cls()

    def save(self) -> None:
        path = self.path()
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(asdict(self), indent=2), encoding="utf-8")
        os.replace(tmp, path)
