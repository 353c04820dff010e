"""Keys one at a time, each to the screen it was meant for, however fast they come.

People type in bursts and SSH delivers keys in bursts. Textual routes every key to the focused
widget the moment the app reads it, before the keys ahead of it have been handled: in a burst
such as `j` then an address, the address goes to the menu that `j` is about to replace, and is
lost. Here the app takes keys in order and routes the next only when the one before has been
handled all the way up (widget, screen, app bindings) and any screen it opened has mounted and
taken its focus, which is what a person waiting between keys gets anyway.

Each key is bound to what was on the screen when it came: the screen on top then, and what
that screen showed (`Typed`). A key is handled later than it was typed when the keys before it
take time or the program was held up, and meanwhile the screen may have changed by itself, not
by a key: a summary that closed when its countdown ran out (`keeps_its_keys`), a turn a bot
played when the turn clock ran out. Such a key is dropped (`refuses_key`), never played on
what came after.

A terminal sends escape as the byte ESC, which also starts the sequence of an alt+key: escape
followed at once by a letter reads as alt+letter. netcards binds no alt keys, so an alt+key is
taken for what it almost always is, escape and then the key.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Typed:
    """A key as it came: the screen on top then, and that screen's `shown_now()` (what it
    showed: a game screen's update number), or None."""

    event: Input
    screen: Any
    shown: object = None


def typed_at(app: Any, event: Input) -> Typed:
    try:
        screen = app.screen
    except Exception:  # no screen yet (the app starting): the key is bound to nothing
        return Typed(event, None)
    shown_now = getattr(screen, "shown_now", None)
    return Typed(event, screen, shown_now() if shown_now is not None else None)


def meant_for(typed: Typed, screen: Any) -> bool:
    """Whether `typed` still acts on `screen`, now on top: not when it was typed at a screen
    that keeps its keys and has gone since, nor when `screen` refuses it (a game screen, a
    key typed for a turn a bot has played since)."""
    gone = typed.screen is not None and typed.screen is not screen
    if gone and getattr(typed.screen, "keeps_its_keys", False):
        return False
    refuses = getattr(screen, "refuses_key", None)
    return refuses is None or not refuses(typed)


class KeysInOrder:
    """The app's queue of keys read from the terminal: `take` each one, it is routed in turn
    with the app's `route_key` (Textual's own routing).

    A key has been handled once the widget it went to, every ancestor up to the screen, and
    the app have worked through their queues: the key bubbles up to the app, whose bindings may
    set off more below (enter in an input: `Submitted`, then the screen's answer to it, which
    may move the focus). A callback is posted to each in turn, from the widget up to the app,
    and the walk starts again until one, after the first, finds every queue empty behind it.
    """

    def __init__(self, app: Any) -> None:
        self.app = app
        self.waiting: deque[Typed] = deque()
        self.busy = False
        self.turn = 0
        self.stuck: asyncio.TimerHandle | None = None
        self.mounting: asyncio.Task[None] | None = None

    def take(self, event: Input) -> None:
        """A key (or a paste) from the terminal, bound at once to what is on the screen (see
        `Typed`); a paste waits its turn among the keys like one more key."""
        keys: list[Input] = list(split_alt(event)) if isinstance(event, events.Key) else [event]
        self.waiting.extend(typed_at(self.app, key) for key in keys)
        self.app.call_later(self.next)

    async def next(self) -> None:
        if self.busy or not self.waiting:
            return
        screen = self.app.screen
        self.busy = True
        if not screen.is_mounted:
            self.mounting = asyncio.create_task(self.after_mount(screen))
            return
        typed = self.waiting.popleft()
        if not meant_for(typed, screen):
            self.busy = False
            self.app.call_later(self.next)
            return
        self.turn += 1
        target: MessagePump = self.app.focused or screen
        await self.app.route_key(typed.event)
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
