"""The app's one checkbox, which shows its state as text.

Textual's Checkbox tells on from off only by the colour of its "X": with NO_COLOR, in a
monochrome terminal or in ASCII mode both states read `[X]`. Here the box is empty when off.
"""

from __future__ import annotations

from textual.content import Content, ContentText
from textual.geometry import Size
from textual.style import Style
from textual.widgets import Checkbox


class TextCheckbox(Checkbox):
    """A Checkbox whose box holds an "X" when on and a space when off, colours or not.

    It stays a Checkbox, so its keys, its `Checkbox.Changed` message (and the
    `on_checkbox_changed` handlers that take it) and the CSS aimed at `Checkbox` are unchanged.
    """

    BUTTON_OFF: str = " "
    """What the box holds when off: the width of BUTTON_INNER, so the label never moves."""

    def __init__(
        self,
        label: ContentText = "",
        value: bool = False,
        *,
        id: str | None = None,
        ascii_mode: bool = False,
    ) -> None:
        super().__init__(label, value, id=id)
        if ascii_mode:
            # The ASCII filter would draw the half blocks as `|X|`; brackets read as a box.
            self.BUTTON_LEFT, self.BUTTON_RIGHT = "[", "]"

    @property
    def _button(self) -> Content:
        """Rebuilt rather than extended: ToggleButton's draws BUTTON_INNER whatever the value,
        and its style is applied per character, which a replaced character would lose."""
        button_style = self.get_visual_style("toggle--button")
        side_style = Style(
            foreground=button_style.background,
            background=self.background_colors[1],
        )
        return Content.assemble(
            (self.BUTTON_LEFT, side_style),
            (self.BUTTON_INNER if self.value else self.BUTTON_OFF, button_style),
            (self.BUTTON_RIGHT, side_style),
        )

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """As many lines as its label takes where the styles let it wrap (a narrow window's
        form); ToggleButton's is always one, which cut a long label off."""
        if self.styles.text_wrap != "wrap":
            return 1
        return max(1, len(self.render().wrap(width)))
