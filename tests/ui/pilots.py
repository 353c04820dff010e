"""Driving the app with key presses only, as a player would."""

from __future__ import annotations

import html
import random
import re
import time
from collections.abc import Callable
from typing import Any

from textual import events
from textual.pilot import Pilot

from netcards.table import Table

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


def finished_table(game: str, players: int, levels: tuple[str, ...] = ("heuristic",)) -> Table:
    """A table whose game was played to the end by bots; the first seat is 'Ann' (a bot
    plays for her), the others are bots of `levels` in turn."""
    table = Table.create(game, players, {}, name="t", host_part=bytes(32))
    table.claim_seat("Ann", "tok")
    table.set_ready(0, True)
    for seat in range(1, players):
        table.add_bot(levels[(seat - 1) % len(levels)])
    table.start()
    table.set_stand_in(0, True)
    while table.bot_seats_to_act():
        seat = table.bot_seats_to_act()[0]
        table.submit(seat, table.bot_action(seat))
    return table


def between_deals(app: Any) -> bool:
    return type(app.screen).__name__ == "BetweenDeals"


async def wait_for_turn(pilot: Pilot[Any], client: Any, seconds: float = 30) -> None:
    """Until it is our turn (or the game is over), closing each summary between two deals
    with enter as a player does, once it takes keys."""
    from ui.screens.between_deals import READING

    app = pilot.app
    for _ in range(int(seconds / 0.05)):
        if client.outcome is not None:
            return
        if between_deals(app):
            screen = app.screen
            await pilot.pause(max(0.0, READING - (time.monotonic() - screen.opened)))
            await pilot.press("enter")
            continue
        if client.my_turn:
            return
        await pilot.pause(0.05)
    raise AssertionError(f"timed out; screen is {type(app.screen).__name__}")


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


async def burst(pilot: Pilot[Any], *keys: str) -> None:
    """Keys as they arrive over SSH or from a fast typist: all of them queued before the app
    handles the first (`pilot.press` waits for the app to be idle after each key)."""
    app = pilot.app
    driver = app._driver
    assert driver is not None
    for key in keys:
        event = events.Key(key, key if len(key) == 1 else None)
        event.set_sender(app)
        driver.send_message(event)
    await pilot.pause()


def keys_to(cards: list[int], cursor: int, card: int) -> list[str]:
    """The fewest key presses that move a hand's cursor from `cursor` to `card`."""
    index = cards.index(card)
    step = "right" if index > cursor else "left"
    ways = [
        [step] * abs(index - cursor),
        ["home", *["right"] * index],
        ["end", *["left"] * (len(cards) - 1 - index)],
    ]
    return min(ways, key=len)


async def move_cursor_to(pilot: Pilot[Any], card: int) -> None:
    """Each key press costs the test time: the fewest from where the cursor is."""
    hand = pilot.app.screen.query_one("#hand")
    keys = keys_to(hand.cards, hand.cursor, card)
    if keys:
        await pilot.press(*keys)


async def play_turns(pilot: Pilot[Any], turns: int, choose: Callable[[Any], list[str]]) -> None:
    """Play `turns` of our own turns; `choose(client)` gives the keys for one move."""
    client = pilot.app.screen.client
    for _ in range(turns):
        await wait_for_turn(pilot, client)
        if client.outcome is not None:
            return
        seq = client.seq
        await pilot.press(*choose(client))
        await wait_until(pilot, lambda s=seq: client.seq > s or client.outcome is not None)
    await wait_for_turn(pilot, client)
    await pilot.pause(0.3)


CELL_WIDTH = 12.2
"""The width of one terminal cell in Textual's SVG screenshots."""

_SVG_TEXT = re.compile(
    r'<text [^>]*x="([\d.]+)"[^>]*clip-path="url\(#[\w-]+-line-(\d+)\)">([^<]*)</text>'
)


def screen_text(app: Any) -> str:
    """The screen as plain text, one line per terminal row, read back from a screenshot."""
    rows: dict[int, list[tuple[int, str]]] = {}
    for x, row, text in _SVG_TEXT.findall(app.export_screenshot()):
        rows.setdefault(int(row), []).append((round(float(x) / CELL_WIDTH), html.unescape(text)))
    lines = []
    for row in range(max(rows, default=-1) + 1):
        line = ""
        for column, text in sorted(rows.get(row, [])):
            line = line.ljust(column) + text
        lines.append(line.replace("\xa0", " ").rstrip())
    return "\n".join(lines)
