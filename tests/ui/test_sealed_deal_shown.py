"""At a sealed table's start the seats' programs seal and shuffle the deck among themselves
before any hand is known (about a second over a network): the screen says so, with no move
key on offer, instead of "(no cards)" beside keys that do nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from protocol.client import TableClient
from tests.ui.pilots import screen_text, wait_until
from ui.app import make_app
from ui.session import TablePlan
from ui.user_settings import UserSettings

SEALING = "Sealing the deal"


def key_bar(app: Any) -> str:
    return screen_text(app).splitlines()[-1]


@pytest.mark.parametrize("size", [(80, 24), (40, 20)])
async def test_the_sealing_is_said_until_the_hand_is_known(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    # The sealing's messages wait (as over a slow link) until the test has looked.
    sealing = TableClient._on_sealed
    go_on = asyncio.Event()

    async def slowly(self: TableClient, message: Any) -> None:
        await go_on.wait()
        await sealing(self, message)

    monkeypatch.setattr(TableClient, "_on_sealed", slowly)
    plan = TablePlan(
        "via-gladiola", 3, {}, bots=2, sealed=True, bind="127.0.0.1", port=0, discovery=False
    )
    app: Any = make_app(settings=UserSettings(name="Ann"), ascii_mode=False, host=plan)
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: hasattr(app.screen, "game_id"), 30)
        screen = app.screen
        await wait_until(pilot, lambda: SEALING in screen_text(app), 10)
        text = screen_text(app)
        assert screen.client.view is None, "the hand is not known yet"
        assert SEALING in text, text
        assert "(no cards)" not in text
        await wait_until(pilot, lambda: "Leave" in key_bar(app), 10)  # (drawn just after)
        bar = key_bar(app)
        assert "Walk" not in bar and "Rest" not in bar and "Hint" not in bar, bar
        assert "Chat" in bar, "the keys that need no hand stay"
        assert screen.client.view is None, "still sealing"
        await pilot.press("r")  # a move key typed now does nothing, and says nothing else
        assert screen.message == ""
        go_on.set()
        await wait_until(pilot, lambda: screen.client.view is not None, 30)
        await wait_until(pilot, lambda: SEALING not in screen_text(app), 10)
        await wait_until(pilot, lambda: "Walk" in key_bar(app) or "Waiting" in screen_text(app))
