"""Table options: declared once per game, validated once, shared by the CLI, the lobby and the host.

Values arrive either typed (from the wire, a journal) or as text (`--option k=v` on the command
line); both paths end in the same checks so a bad value is refused the same way everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from netcards.errors import BadOption

OptionKind = Literal["bool", "int", "choice", "text", "int_list", "seat", "deck"]

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


@dataclass(frozen=True)
class OptionSpec:
    """One option a game accepts. `seat` means a seat index or None for "random"."""

    name: str
    kind: OptionKind
    default: Any
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    max_items: int = 20

    def parse_text(self, text: str) -> Any:
        """Turn command-line text into a typed value (then `check` validates it)."""
        t = text.strip()
        if self.kind == "bool":
            if t.lower() in _TRUE:
                return True
            if t.lower() in _FALSE:
                return False
            raise BadOption(f"option '{self.name}' takes true or false, not {text!r}")
        if self.kind == "int":
            try:
                return int(t)
            except ValueError:
                raise BadOption(
                    f"option '{self.name}' takes a whole number, not {text!r}"
                ) from None
        if self.kind == "int_list":
            try:
                return [int(x) for x in t.split(",") if x.strip()]
            except ValueError:
                raise BadOption(
                    f"option '{self.name}' takes comma-separated whole numbers, not {text!r}"
                ) from None
        if self.kind == "seat":
            if t.lower() == "random":
                return None
            try:
                return int(t)
            except ValueError:
                raise BadOption(
                    f"option '{self.name}' takes 'random' or a seat number, not {text!r}"
                ) from None
        return t

    def check(self, value: Any, players: int) -> Any:
        """Validate a typed value; returns it normalised (lists stay lists)."""
        name = self.name
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise BadOption(f"option '{name}' must be true or false")
            return value
        if self.kind in ("int", "seat"):
            if value is None and self.kind == "seat":
                return None
            if not isinstance(value, int) or isinstance(value, bool):
                raise BadOption(f"option '{name}' must be a whole number")
            lo = 0 if self.kind == "seat" else self.minimum
            hi = players - 1 if self.kind == "seat" else self.maximum
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise BadOption(f"option '{name}' must be between {lo} and {hi}, not {value}")
            return value
        if self.kind == "int_list":
            if not isinstance(value, list | tuple) or not value:
                raise BadOption(f"option '{name}' must be a non-empty list of whole numbers")
            if len(value) > self.max_items:
                raise BadOption(f"option '{name}' has more than {self.max_items} items")
            out = []
            for v in value:
                if not isinstance(v, int) or isinstance(v, bool):
                    raise BadOption(f"option '{name}' must be a list of whole numbers")
                if (self.minimum is not None and v < self.minimum) or (
                    self.maximum is not None and v > self.maximum
                ):
                    raise BadOption(
                        f"option '{name}': each value must be between "
                        f"{self.minimum} and {self.maximum}, not {v}"
                    )
                out.append(v)
            return out
        if self.kind == "choice":
            if value not in self.choices:
                raise BadOption(f"option '{name}' must be one of {', '.join(self.choices)}")
            return value
        if self.kind in ("text", "deck"):
            if value is not None and not isinstance(value, str):
                raise BadOption(f"option '{name}' must be text")
            if isinstance(value, str) and len(value) > 16_000:
                raise BadOption(f"option '{name}' is too long")
            return value
        raise AssertionError(self.kind)


def resolve_options(
    game_id: str, specs: tuple[OptionSpec, ...], given: Mapping[str, Any], players: int
) -> dict[str, Any]:
    """All options of a game with defaults filled in; an unknown name or bad value is refused."""
    by_name = {s.name: s for s in specs}
    unknown = [k for k in given if k not in by_name]
    if unknown:
        known = ", ".join(by_name) or "none"
        raise BadOption(f"unknown option '{unknown[0]}' for {game_id} (known: {known})")
    out: dict[str, Any] = {}
    for spec in specs:
        out[spec.name] = (
            spec.check(given[spec.name], players) if spec.name in given else spec.default
        )
    return out


def parse_option_assignments(
    game_id: str, specs: tuple[OptionSpec, ...], assignments: list[str]
) -> dict[str, Any]:
    """`k=v` strings from the command line, typed by each option's spec."""
    by_name = {s.name: s for s in specs}
    out: dict[str, Any] = {}
    for item in assignments:
        if "=" not in item:
            raise BadOption(f"option {item!r} must be written name=value")
        key, _, text = item.partition("=")
        key = key.strip().replace("-", "_")
        spec = by_name.get(key)
        if spec is None:
            known = ", ".join(by_name) or "none"
            raise BadOption(f"unknown option '{key}' for {game_id} (known: {known})")
        out[key] = spec.parse_text(text)
    return out
