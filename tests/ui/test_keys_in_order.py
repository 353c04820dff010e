"""The queue of keys never holds the rest for good: a key that waits for a screen to mount goes
on once that screen is gone without mounting (replaced while a switch was under way)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual import events

import ui.keys
from ui.keys import KeysInOrder


class Pump:
    """Just enough of a Textual message pump for the queue's walk up to the app."""

    def __init__(self) -> None:
        self._message_queue: asyncio.Queue[Any] = asyncio.Queue()

    def call_later(self, callback: Any, *args: Any) -> bool:
        asyncio.get_running_loop().call_soon(callback, *args)
        return True


class Screen(Pump):
    def __init__(self, mounted: bool) -> None:
        super().__init__()
        self.is_mounted = mounted
        self._mounted_event = asyncio.Event()
        self.ancestors_with_self = [self]


class App(Pump):
    def __init__(self) -> None:
        super().__init__()
        self.screen: Screen = Screen(mounted=False)
        self.focused = None
        self.routed: list[str] = []
        self.tasks: list[asyncio.Future[Any]] = []

    def call_later(self, callback: Any, *args: Any) -> bool:
        result = callback(*args)
        if asyncio.iscoroutine(result):
            self.tasks.append(asyncio.ensure_future(result))
        return True

    async def route_key(self, event: events.Key) -> None:
        self.routed.append(event.key)


async def test_a_screen_that_never_mounts_does_not_hold_the_keys(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ui.keys, "STUCK_AFTER", 0.2)
    app = App()
    keys = KeysInOrder(app)
    keys.take(events.Key("ctrl+q", None))
    await asyncio.sleep(0.05)
    assert app.routed == [], "held while the screen mounts"
    app.screen = Screen(mounted=True)  # the screen it waited for was replaced, never mounted
    for _ in range(50):
        await asyncio.sleep(0.02)
        if app.routed:
            break
    assert app.routed == ["ctrl+q"]


async def test_a_screen_that_mounts_lets_the_key_go_at_once() -> None:
    app = App()
    keys = KeysInOrder(app)
    keys.take(events.Key("x", "x"))
    await asyncio.sleep(0.05)
    assert app.routed == []
    app.screen.is_mounted = True
    app.screen._mounted_event.set()
    await asyncio.sleep(0.05)
    assert app.routed == ["x"]
