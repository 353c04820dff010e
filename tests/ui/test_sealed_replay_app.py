"""A sealed table's results in the app: once the deal is verified, `s` saves the replay like any
other game's and `netcards replay FILE` plays it (every title); a sealed game stopped before its
audit has none, so `s` is not offered and the screen says why."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest

from protocol.settings import data_dir
from tests.network.sealed_moments import GAMES, when
from tests.ui.pilots import screen_text, wait_until
from ui.app import make_app
from ui.replay import load_replay
from ui.screen_keys import screen_keys
from ui.session import TablePlan
from ui.user_settings import UserSettings

SAVED = "Replay saved; watch it with: netcards replay "


def words(app: Any) -> str:
    return " ".join(screen_text(app).replace("█", " ").split())


def sealed_table(title: str, players: int) -> Any:
    plan = TablePlan(
        title, players, {}, bots=players - 1, bot_level="random", bind="127.0.0.1", port=0,
        discovery=False, sealed=True,
    )  # fmt: skip
    return make_app(settings=UserSettings(name="Ann"), ascii_mode=False, host=plan, bot_delay=0.0)


def offered(app: Any, action: str) -> bool:
    return any(k.action == action for k in screen_keys(app, app.screen))


ONE_OF_EACH = [g for g in GAMES if g != ("velonimo", 3)]
"""Every title once (Velonimo as its duel): a whole game in the app is long, and
tests/network/test_sealed_replay.py replays each of `GAMES` over the wire."""


@pytest.mark.parametrize(("title", "players"), ONE_OF_EACH)
async def test_s_saves_a_verified_sealed_game_s_replay_and_netcards_replay_plays_it(
    title: str, players: int
) -> None:
    app = sealed_table(title, players)
    rng = random.Random(title)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.session is not None)
        client = app.session.client
        for _ in range(6000):  # the day's summaries come and go by themselves meanwhile
            if type(app.screen).__name__ == "ResultsScreen":
                break
            if client.my_turn and client.legal_actions():
                await client.act(rng.choice(client.legal_actions()))
            await pilot.pause(0.02)
        await wait_until(pilot, lambda: "deal verified" in words(app), 30)
        assert offered(app, "save")
        await pilot.press("s")
        await wait_until(pilot, lambda: ".replay.json" in words(app).replace(" ", ""), 10)
        shown = words(app)
        log, view, outcome = list(client.log), client.view, client.outcome
    (path,) = (data_dir() / "replays").glob(f"{title}-*.replay.json")
    assert path.name in shown.replace(" ", ""), "the screen shows the command, scrolled to"
    replay = load_replay(path)  # as `netcards replay FILE` does
    watch = make_app(settings=UserSettings(name="Ann"), replay=replay)
    async with watch.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = watch.screen
        await pilot.press("n", "n")
        assert screen.step_index == 2
        await pilot.press("end")
        last = len(replay.steps()) - 1
        assert screen.step_index == last
        text = words(watch)
        assert f"move {last} of {last}" in text and "Every hand" in text
        assert screen.client.view == view
        assert screen.client.outcome == outcome
        assert len(screen.client.log) == len(log)
        await pilot.press("q")


async def test_a_sealed_game_closed_before_its_audit_offers_no_replay_and_says_why() -> None:
    app = sealed_table("velonimo", 3)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.session is not None)
        session = app.session
        assert session is not None and session.host is not None

        def close() -> None:
            app.left_on_purpose()
            app.run_worker(app._close_own_table(), group="close")

        when(session.host.session, "mid-round", close)
        rng = random.Random(3)
        while type(app.screen).__name__ != "ResultsScreen":
            if session.client.my_turn and session.client.legal_actions():
                with contextlib.suppress(ConnectionError):  # the table closing under it
                    await session.client.act(rng.choice(session.client.legal_actions()))
            await pilot.pause(0.02)
        await wait_until(pilot, lambda: "deal not checked" in words(app), 10)
        assert not offered(app, "save"), "no replay to save: `s` is not in the keys"
        await pilot.press("s")
        await pilot.pause(0.2)
        text = words(app)
    assert "No replay: this sealed game ended before every player's program showed its" in text
    assert SAVED not in text
