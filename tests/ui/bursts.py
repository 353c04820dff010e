"""Keys as a terminal delivers them when people type fast or SSH batches them: many in one read.

`pilot.press` waits for the app to settle after every key, which no person does. `burst` feeds
the bytes of several keys through Textual's own terminal parser in one go and hands the app
every key at once, as its driver does after one read from a terminal.
"""

from __future__ import annotations

from typing import Any

from textual._xterm_parser import XTermParser
from textual.pilot import Pilot

KEYS = {"enter": "\r", "escape": "\x1b", "tab": "\t", "backspace": "\x7f", "down": "\x1b[B"}
KEYS |= {"up": "\x1b[A", "right": "\x1b[C", "left": "\x1b[D", "ctrl+p": "\x10", "ctrl+q": "\x11"}
KEYS |= {"ctrl+o": "\x0f", "ctrl+s": "\x13", "shift+tab": "\x1b[Z", "ctrl+c": "\x03"}


def as_bytes(*keys: str) -> str:
    """Key names (enter, escape, tab, arrows, ctrl+p) and plain text, as the terminal sends them."""
    return "".join(KEYS.get(key, key) for key in keys)


async def burst(pilot: Pilot[Any], *keys: str) -> None:
    """Type `keys` (names or text) in one burst, then let the app handle them all."""
    app = pilot.app
    parser = XTermParser()
    for event in [*parser.feed(as_bytes(*keys)), *parser.feed("")]:
        event.set_sender(app)
        await app._post_message(event)
    for _ in range(200):  # until the app has taken every key (it routes them one at a time)
        await pilot.pause(0.05)
        queue = getattr(app, "keys", None)
        if queue is None or not (queue.waiting or queue.busy):
            return
