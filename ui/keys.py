"""Keys one at a time, each to the screen it was meant for, however fast they come.

People type in bursts and SSH delivers keys in bursts. Textual routes every key to the focused
widget the moment the app reads it, before the keys ahead of it have been handled: in a burst
such as `j` then an address, the address goes to the menu that `j` is about to replace, and is
lost. Here the app takes keys in order and routes the next only when the one before has been
handled all the way up (widget, screen, app bindings) and any screen it opened has mounted and
taken its focus, which is what a person waiting between keys gets anyway.

A terminal sends escape as the byte ESC, which also starts the sequence of an alt+key: escape
followed at once by a letter reads as alt+letter. netcards binds no alt keys, so an alt+key is
taken for what it almost always is, escape and then the key.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from textual import events
from textual.message_pump import MessagePump

STUCK_AFTER = 2.0
"""Seconds after which a key that never came back (its widget closed) stops holding the rest."""


def split_alt(event: events.Key) -> list[events.Key]:
    """An alt+key as the escape and key it was typed as; any other key as it is."""
    char = event.character
    if not event.key.startswith("alt+") or not char or len(char) != 1 or not char.isprintable():
        return [event]
    rest = event.key.removeprefix("alt+")
    key = char if rest.startswith("shift+") or char.isalnum() else rest
    return [events.Key("escape", "\x1b"), events.Key(key, char)]


class KeysInOrder:
    """The app's queue of keys read from the terminal: `take` each one, it is routed in turn
    with the app's `route_key` (Textual's own routing)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.waiting: deque[events.Key] = deque()
        self.busy = False
        self.turn = 0
        self.stuck: asyncio.TimerHandle | None = None
        self.mounting: asyncio.Task[None] | None = None

    def take(self, event: events.Key) -> None:
        self.waiting.extend(split_alt(event))
        self.app.call_later(self.next)

    async def next(self) -> None:
        if self.busy or not self.waiting:
            return
        screen = self.app.screen
        self.busy = True
        if not screen.is_mounted:
            self.mounting = asyncio.create_task(self.after_mount(screen))
            return
        event = self.waiting.popleft()
        self.turn += 1
        target: MessagePump = self.app.focused or screen
        await self.app.route_key(event)
        self.stuck = asyncio.get_running_loop().call_later(STUCK_AFTER, self.done, self.turn)
        self.follow(target, self.turn)

    async def after_mount(self, screen: Any) -> None:
        await screen._mounted_event.wait()
        self.busy = False
        self.app.call_later(self.next)  # queued after the focus the new screen asked for

    def follow(self, node: MessagePump, turn: int) -> None:
        """Once `node` has handled what it holds, the key has left it: follow it to the parent."""
        if node is self.app or not node.call_later(self.climb, node, turn):
            self.app.call_later(self.done, turn)

    def climb(self, node: MessagePump, turn: int) -> None:
        parent = node._parent
        self.follow(parent if isinstance(parent, MessagePump) else self.app, turn)

    def done(self, turn: int) -> None:
        if turn != self.turn or not self.busy:
            return
        if self.stuck is not None:
            self.stuck.cancel()
        self.busy = False
        self.app.call_later(self.next)
