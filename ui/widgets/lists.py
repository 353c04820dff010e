"""Lists whose cursor stops at their ends instead of wrapping around.

Textual's option lists (the menu, and the list a Select opens) go from the last entry to the
first on one more down arrow. Keys come in bursts (a fast typist, an SSH link): three downs
meant to reach the last game of three went one too far and picked the first, with nothing to
show it had wrapped. Here one more down stays on the last entry, one more up on the first.
"""

from __future__ import annotations

from typing import Any

from textual import _widget_navigation
from textual.app import ComposeResult
from textual.widgets import OptionList, Select
from textual.widgets._select import SelectCurrent, SelectOverlay


class StoppingOptionList(OptionList):
    """An option list whose up and down arrows stop at the first and the last entry."""

    def action_cursor_up(self) -> None:
        self.highlighted = _stopped(self, -1)

    def action_cursor_down(self) -> None:
        self.highlighted = _stopped(self, 1)


class StoppingOverlay(SelectOverlay):
    """The list a `FormSelect` opens, stopping at its ends."""

    def action_cursor_up(self) -> None:
        self.highlighted = _stopped(self, -1)

    def action_cursor_down(self) -> None:
        self.highlighted = _stopped(self, 1)


class FormSelect(Select[Any]):
    """A Select whose open list stops at its ends (see the module)."""

    def compose(self) -> ComposeResult:
        yield SelectCurrent(self.prompt)
        yield StoppingOverlay(type_to_search=self._type_to_search).data_bind(compact=Select.compact)


def _stopped(options: OptionList, direction: _widget_navigation.Direction) -> int | None:
    """The next enabled option in `direction` (the first or the last when none is
    highlighted), or the one highlighted when it is the last that way."""
    found = _widget_navigation.find_next_enabled_no_wrap(
        options.options, anchor=options.highlighted, direction=direction
    )
    return options.highlighted if found is None else found
