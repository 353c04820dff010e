"""The app hosting a sealed table closes it at several moments of every title (while the deal is
being sealed, mid-round, while a later round is sealed, right after a round ended): nothing
raises, and its results screen shows the results so far the public record scores (none in Via
Gladiola, whose score is the hands, and it says why) and `deal not checked`.

The app's own player plays random legal moves through its client; the table is closed at the
moment through what the leave dialog's "Close the table" does, from inside the host's own turn
of events, so that the moment is exactly the one named (a key pressed a moment later would find
the game moved on: a sealed game of bots runs in well under a second)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from tests.network.sealed_moments import GAMES, MOMENTS, TRIES, when
from tests.ui.pilots import screen_text, wait_until
from ui.app import make_app
from ui.session import TablePlan
from ui.user_settings import UserSettings


def words(app: Any) -> str:
    return " ".join(screen_text(app).replace("█", " ").split())


@pytest.mark.parametrize("moment", list(MOMENTS))
@pytest.mark.parametrize(("title", "players"), GAMES)
async def test_the_app_closes_its_sealed_table_at_any_moment_and_shows_the_results_so_far(
    tmp_path: Path, title: str, players: int, moment: str
) -> None:
    for _attempt in range(TRIES):
        if await closed_at(title, players, moment):
            return
    raise AssertionError(f"no game of {TRIES} came to {moment}")


async def closed_at(title: str, players: int, moment: str) -> bool:
    plan = TablePlan(
        title, players, {}, bots=players - 1, bot_level="random", bind="127.0.0.1", port=0,
        discovery=False, sealed=True,
    )  # fmt: skip
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False, host=plan, bot_delay=0.0)
    rng = random.Random(f"{title} {players} {moment}")
    reached = False

    def close() -> None:
        nonlocal reached
        reached = True
        app.left_on_purpose()  # what "Close the table" in the leave dialog does
        app.run_worker(app._close_own_table(), group="close")

    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.session is not None)
        session = app.session
        assert session is not None and session.host is not None
        client, host = session.client, session.host
        assert host.session.sealed_host is None, "installed before the game starts"
        when(host.session, moment, close)
        for _ in range(2400):
            if reached or host.finished.is_set():
                break
            if client.my_turn and client.legal_actions():
                with_effect = asyncio.ensure_future(client.act(rng.choice(client.legal_actions())))
                await with_effect
            await pilot.pause(0.02)
        if not reached:
            assert host.finished.is_set(), f"the game got stuck before {moment}"
            return False
        await wait_until(pilot, lambda: type(app.screen).__name__ == "ResultsScreen", 20)
        await wait_until(pilot, lambda: "deal not checked" in words(app), 10)
        shown = words(app)
        verdict = client.verdict
        standings = client.standings
        so_far = host.standings_so_far()
    assert verdict is not None and verdict.unchecked and not verdict.ok
    if title == "via-gladiola":
        assert standings is None and so_far is None
        assert "You closed the table. No results so far: they need cards that are still sealed" in (
            shown
        ), shown
    else:
        assert standings is not None and so_far is not None
        assert standings.to_data() == so_far.to_data()
        assert "You closed the table. Results so far:" in shown, shown
        assert "Ann (you)" in shown
    assert "deal verified" not in shown
    return True
