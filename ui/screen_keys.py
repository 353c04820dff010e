"""The keys of the screen on top, as netcards declares them: for `?` (the help) and ctrl+p (the
command palette, where each key is also a command), in the player's language.

One list for both, taken from the same bindings the footer shows (including the ones it hides
for room, such as the menu's letters), so a new key on a screen appears in all three. Textual's
own widgets' keys (arrows, page up...) are left to the screen's docstring and the footer.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from textual.binding import Binding
from textual.dom import DOMNode

from ui.i18n import _


@dataclass(frozen=True)
class ScreenKey:
    key: str
    """As the footer shows it (with the app's ASCII replacements)."""
    description: str
    """Translated."""
    node: Any
    """The widget, screen or app whose binding it is (its `run_action` runs it)."""
    action: str


def _declared(node: DOMNode) -> set[tuple[str, str]]:
    """(action, description) of the bindings netcards' own classes declare for `node`."""
    found = set()
    for cls in type(node).__mro__:
        if not cls.__module__.startswith("ui."):
            continue
        for binding in cls.__dict__.get("BINDINGS", []):
            if isinstance(binding, Binding) and binding.description:
                found.add((binding.action, binding.description))
    return found


def screen_keys(app: Any, screen: Any) -> list[ScreenKey]:
    """Every key usable on `screen` now (disabled and hidden ones left out), one entry per
    action with all its keys (`esc / q`)."""
    found: dict[tuple[int, str], ScreenKey] = {}
    declared: dict[int, set[tuple[str, str]]] = {}
    for active in screen.active_bindings.values():
        binding, node = active.binding, active.node
        if not active.enabled or not binding.description:
            continue
        mine = declared.setdefault(id(node), _declared(node))
        if (binding.action, binding.description) not in mine:
            continue
        shown = app.get_key_display(binding)
        key = (id(node), binding.action)
        if key in found:
            found[key] = replace(found[key], key=f"{found[key].key} / {shown}")
        else:
            found[key] = ScreenKey(shown, _(binding.description), node, binding.action)
    return list(found.values())
