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

A paste (a terminal's bracketed paste) takes its turn among the keys: read in the same burst
as the `c` that opens the chat, it goes to the chat, not to the hand the `c` is taking the
focus from.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from typing import Any

from textual import events
from textual.message_pump import MessagePump

STUCK_AFTER = 2.0
"""Seconds after which a key whose handling never finishes stops holding the rest."""
MAX_LAPS = 20
"""Walks from the widget up to the app before a key counts as handled however busy they are."""


def split_alt(event: events.Key) -> list[events.Key]:
    """An alt+key as the escape and key it was typed as; any other key as it is."""
    char = event.character
    if not event.key.startswith("alt+") or not char or len(char) != 1 or not char.isprintable():
        return [event]
    rest = event.key.removeprefix("alt+")
    key = char if rest.startswith("shift+") or char.isalnum() else rest
    return [events.Key("escape", "\x1b"), events.Key(key, char)]


Input = events.Key | events.Paste
"""What comes from the keyboard: a key, or a text pasted at once."""


class KeysInOrder:
    """The app's queue of keys (and pastes) read from the terminal: `take` each one, it is
    routed in turn with the app's `route_key` (Textual's own routing).

    A key has been handled once the widget it went to, every ancestor up to the screen, and
    the app have worked through their queues: the key bubbles up to the app, whose bindings may
    set off more below (enter in an input: `Submitted`, then the screen's answer to it, which
    may move the focus). A callback is posted to each in turn, from the widget up to the app,
    and the walk starts again until one, after the first, finds every queue empty behind it.
    """

    def __init__(self, app: Any) -> None:
        self.app = app
        self.waiting: deque[Input] = deque()
        self.busy = False
        self.turn = 0
        self.stuck: asyncio.TimerHandle | None = None
        self.mounting: asyncio.Task[None] | None = None
        self.dropped: frozenset[str] = frozenset()
        self.dropped_until = 0.0

    def drop_for_a_moment(self, keys: frozenset[str], seconds: float) -> None:
        """`keys` are dropped, not routed, for the next `seconds`: they were typed at a screen
        that closed by itself before they came, and must not act on the screen under it."""
        self.dropped, self.dropped_until = keys, time.monotonic() + seconds

    def take(self, event: Input) -> None:
        self.waiting.extend(split_alt(event) if isinstance(event, events.Key) else [event])
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
        key = event.key if isinstance(event, events.Key) else None
        if key in self.dropped and time.monotonic() < self.dropped_until:
            self.busy = False
            self.app.call_later(self.next)
            return
        self.turn += 1
        target: MessagePump = self.app.focused or screen
        await self.app.route_key(event)
        self.stuck = asyncio.get_running_loop().call_later(STUCK_AFTER, self.done, self.turn)
        path: list[MessagePump] = list(target.ancestors_with_self)  # type: ignore[attr-defined]
        if path[-1] is not self.app:
            path.append(self.app)
        self.walk(path, 0, self.turn, calm=True, laps=0)

    async def after_mount(self, screen: Any) -> None:
        """Hold the keys until `screen` has mounted; a screen replaced before it ever mounts
        (a menu switch under way) must not hold them for good, so not longer than STUCK_AFTER."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(screen._mounted_event.wait(), STUCK_AFTER)
        self.busy = False
        self.app.call_later(self.next)  # queued after the focus the new screen asked for

    def walk(
        self, path: list[MessagePump], index: int, turn: int, *, calm: bool, laps: int
    ) -> None:
        """Post a callback to `path[index]`; once past the last, start again unless calm."""
        while index < len(path):
            if path[index].call_later(self.step, path, index, turn, calm, laps):
                return
            index += 1  # a closed widget: the key died with it
        if (calm and laps > 0) or laps >= MAX_LAPS:  # the first lap ends before the app's bindings
            self.done(turn)
        else:
            self.walk(path, 0, turn, calm=True, laps=laps + 1)

    def step(self, path: list[MessagePump], index: int, turn: int, calm: bool, laps: int) -> None:
        calm = calm and path[index]._message_queue.empty()
        self.walk(path, index + 1, turn, calm=calm, laps=laps)

    def done(self, turn: int) -> None:
        """The key has been handled; the next goes once the screen's `holds_keys` (a future:
        an answer the key asked for that comes later, such as the hint) is there, so that the
        next key acts on it as it would for a person who waited, or after STUCK_AFTER."""
        if turn != self.turn or not self.busy:
            return
        if self.stuck is not None:
            self.stuck.cancel()
        held: asyncio.Future[None] | None = getattr(self.app.screen, "holds_keys", None)
        if held is not None and not held.done():
            self.stuck = asyncio.get_running_loop().call_later(STUCK_AFTER, self.release, turn)
            held.add_done_callback(lambda _: self.release(turn))
            return
        self.release(turn)

    def release(self, turn: int) -> None:
        if turn != self.turn or not self.busy:
            return
        if self.stuck is not None:
            self.stuck.cancel()
        self.busy = False
        self.app.call_later(self.next)
