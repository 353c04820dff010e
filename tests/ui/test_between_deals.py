"""The end of a deal is summed up (who scored what, by name) and the next one waits for the
player: a key (not one left from the burst that ended the deal) or the countdown."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

import ui.keys
import ui.screens.between_deals
from tests.ui.pilots import between_deals, burst, screen_text, seeded, start_practice, wait_until
from tests.ui.test_play_velonimo import keys_for
from ui.app import make_app
from ui.screens.between_deals import READING
from ui.user_settings import UserSettings


async def play_to_the_end_of_round_one(pilot: Any) -> None:
    app = pilot.app
    screen = app.screen
    client = screen.client
    while not between_deals(app):
        await wait_until(pilot, lambda: client.my_turn or between_deals(app), seconds=30)
        if between_deals(app):
            break
        seq = client.seq
        await pilot.press(*keys_for(screen))
        await wait_until(pilot, lambda s=seq: client.seq > s or between_deals(app))


async def test_a_round_end_says_who_scored_what_and_waits_for_a_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The first moment made longer than the product's, so that a busy machine handles the
    # burst within it (the test says so if it did not).
    monkeypatch.setattr(ui.screens.between_deals, "READING", 3.0)
    app = make_app(settings=UserSettings(name="ann"), random_bytes=seeded(4), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "velonimo", 3, {"difficulties": "1,2"})
        game = app.screen
        client = game.client
        await play_to_the_end_of_round_one(pilot)
        opened = time.monotonic()
        end = next(e for e in client.log if e["kind"] == "round_end")
        text = screen_text(app)
        assert "Round 1 is over" in text
        for seat, name in enumerate(client.names):
            shown = "You" if seat == client.seat else name
            line = next(line for line in text.splitlines() if f" {shown}: +" in line)
            assert f"+{end['scores'][seat]}, {end['totals'][seat]} in all" in line
        await burst(pilot, "enter", "enter")  # the rest of the burst that ended the round
        assert time.monotonic() - opened < ui.screens.between_deals.READING
        assert between_deals(app)
        assert not app.screen.active_bindings["enter"].enabled, "dimmed while not taken"
        await wait_until(pilot, lambda: "Press enter to go on now" in screen_text(app))
        assert app.screen.active_bindings["enter"].enabled
        await pilot.press("enter")
        assert app.screen is game


async def test_the_summary_closes_by_itself_when_its_countdown_runs_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ui.screens.between_deals, "SECONDS", 2)
    app = make_app(settings=UserSettings(name="ann"), random_bytes=seeded(4), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "velonimo", 3, {"difficulties": "1,2"})
        game = app.screen
        await play_to_the_end_of_round_one(pilot)
        assert "Next round in" in screen_text(app), "Velonimo's word for what comes next"
        await wait_until(pilot, lambda: app.screen is game, seconds=5)


async def test_a_key_typed_at_the_summary_never_plays_on_the_table_however_late(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Enters typed to skip the summary are handled only after its countdown closed it, well
    over a second later (the keys before them still in flight): they were for the summary, and
    must not play a card on the table underneath; an enter typed at the table plays at once."""
    monkeypatch.setattr(ui.screens.between_deals, "SECONDS", 4)
    monkeypatch.setattr(ui.keys, "STUCK_AFTER", 30.0)  # the key in flight holds the rest
    app = make_app(settings=UserSettings(name="ann"), random_bytes=seeded(4), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "velonimo", 3, {"difficulties": "1,2"})
        game = app.screen
        client = game.client
        await play_to_the_end_of_round_one(pilot)
        await wait_until(pilot, lambda: client.my_turn, seconds=10)  # the bots play beneath
        summary = app.screen
        assert between_deals(app), "the next round's first turn came while the summary is up"
        await pilot.pause(max(0.0, READING - (time.monotonic() - summary.opened)))
        seq = client.seq
        held: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        summary.holds_keys = held  # as a key still being handled holds those behind it
        await pilot.press("left")
        await pilot.press("enter", "space", "enter")
        assert between_deals(app) and app.keys.waiting
        await wait_until(pilot, lambda: app.screen is game, seconds=6)
        await pilot.pause(1.2)  # well after the summary closed
        held.set_result(None)
        await wait_until(pilot, lambda: not app.keys.waiting and not app.keys.busy)
        await pilot.pause(0.2)
        assert client.seq == seq and not client.awaiting, "a key for the summary played"
        assert client.my_turn
        await pilot.press("enter")
        await wait_until(pilot, lambda: client.seq > seq or client.awaiting, seconds=5)
