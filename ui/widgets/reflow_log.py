"""A log that wraps its lines again when its width changes.

Textual's RichLog wraps a line once, at the width the log has when the line is written. A
terminal made narrower then cuts the old lines off at the right edge (the game log and the
chat sit in a column a resize squeezes most), and one made wider leaves them folded in a
narrow strip. This log keeps what it was given and writes it all again at the new width.

RichLog also scrolls to its end only when a line is written: a pane made shorter (a second
row of status below it, a shorter window) keeps its top row and hides the newest lines below
its bottom. This log is anchored to its end instead, until the reader scrolls up, and follows
again once they are back at the end.
"""

from __future__ import annotations

from typing import Any, Self

from textual.events import Resize
from textual.widgets import RichLog


class ReflowLog(RichLog):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._written: list[str] = []
        self._wrapped_at = 0  # the width the lines were last wrapped at
        self._deferred = 0
        """Lines written before the log had a width: RichLog keeps them back and writes them
        again, through `write`, once it has one. They are kept here already."""

    def on_mount(self) -> None:
        self.anchor()

    def release_anchor(self) -> None:
        # Every scroll by the reader lets go of the end, even one that goes nowhere (page down
        # at the end): Textual takes the anchor back only when the position changes to the end.
        super().release_anchor()
        self.call_after_refresh(self.follow_if_at_end)  # after the scroll, itself deferred

    def follow_if_at_end(self) -> None:
        if self.is_vertical_scroll_end:
            self.anchor()

    def write(self, content: Any, *args: Any, **kwargs: Any) -> Self:
        if not isinstance(content, str):
            raise TypeError("a ReflowLog keeps text (markup) only, to wrap it again")
        if not self._size_known:
            self._deferred += 1
        elif self._deferred:  # RichLog writing out what it kept back: kept here already
            self._deferred -= 1
            return super().write(content, *args, **kwargs)
        self._written.append(content)
        if self.max_lines is not None and len(self._written) > self.max_lines:
            del self._written[: -self.max_lines]
        return super().write(content, *args, **kwargs)

    def clear(self) -> Self:
        self._written.clear()
        self._deferred = 0  # RichLog forgets what it kept back too
        return super().clear()

    def on_resize(self, event: Resize) -> None:
        # RichLog's own handler (called too) writes what waited for a first size.
        width = self.scrollable_content_region.width
        if not self._wrapped_at:
            self._wrapped_at = width
            return
        if width == self._wrapped_at or not width:
            return
        self.reflow()

    def reflow(self) -> None:
        """Wrap everything again at the width the log has now. Also for its owner to call
        when the log is shown again: lines written while it was hidden were wrapped at no
        width at all, and showing it again may give it back the width it had before."""
        width = self.scrollable_content_region.width
        if not width:
            return
        self._wrapped_at = width
        at_end = self.is_vertical_scroll_end
        super().clear()  # RichLog's: what was written stays in `_written`
        self._deferred = 0
        for line in self._written:
            super().write(line, scroll_end=False)
        if at_end:
            self.scroll_end(animate=False, immediate=False, x_axis=False)
