"""Driving the app with key presses only, as a player would."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

GAME_ORDER = ["auf-achse", "velonimo", "via-gladiola"]
"""The host screen's game list, sorted by display name: Auf Achse, Velonimo, Via Gladiola."""


def seeded(seed: int) -> Callable[[int], bytes]:
    """Deterministic 'randomness' for the app, so deals and screens repeat exactly."""
    rng = random.Random(seed)
    return rng.randbytes


async def wait_until(pilot: Pilot[Any], predicate: Callable[[], bool], seconds: float = 20) -> None:
    for _ in range(int(seconds / 0.05)):
        if predicate():
            return
        await pilot.pause(0.05)
    raise AssertionError(f"timed out; screen is {type(pilot.app.screen).__name__}")


async def start_practice(
    pilot: Pilot[Any], game: str, players: int, options: dict[str, str] | None = None
) -> None:
    """Menu > Practise, choose the game and the player count, type the `options` given (text
    fields of the game's options, by name), start; returns on the game screen."""
    app = pilot.app
    await pilot.press("p")
    await wait_until(pilot, lambda: type(app.screen).__name__ == "HostSetupScreen")
    await pilot.pause(0.2)
    await pilot.press("enter", *["down"] * GAME_ORDER.index(game), "enter")
    await pilot.pause(0.2)
    await pilot.press("tab", "enter")
    select = app.screen.query_one("#players")
    steps = players - select.value
    await pilot.press(*(["down"] * steps if steps > 0 else ["up"] * -steps), "enter")
    await pilot.pause(0.2)
    assert app.screen.query_one("#game").value == game
    assert app.screen.query_one("#players").value == players
    for name, text in (options or {}).items():
        for _ in range(20):
            if app.screen.focused is not None and app.screen.focused.id == f"opt-{name}":
                break
            await pilot.press("tab")
        assert app.screen.focused is not None and app.screen.focused.id == f"opt-{name}"
        await pilot.press("home", "ctrl+k", *text)
    await pilot.press("ctrl+o")
    await wait_until(pilot, lambda: hasattr(app.screen, "game_id"))


async def move_cursor_to(pilot: Pilot[Any], card: int) -> None:
    hand = pilot.app.screen.query_one("#hand")
    index = hand.cards.index(card)
    await pilot.press("home", *["right"] * index)


async def play_turns(pilot: Pilot[Any], turns: int, choose: Callable[[Any], list[str]]) -> None:
    """Play `turns` of our own turns; `choose(client)` gives the keys for one move."""
    client = pilot.app.screen.client
    for _ in range(turns):
        await wait_until(pilot, lambda: client.my_turn or client.outcome is not None, seconds=30)
        if client.outcome is not None:
            return
        seq = client.seq
        await pilot.press(*choose(client))
        await wait_until(pilot, lambda s=seq: client.seq > s or client.outcome is not None)
    await wait_until(pilot, lambda: client.my_turn or client.outcome is not None, seconds=30)
    await pilot.pause(0.3)
