"""A host who leaves is asked first and closes the table for everyone, who are told at once."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from protocol.client import TableClient, TableClosed
from protocol.known_hosts import KnownHosts
from protocol.settings import data_dir
from tests.ui.bursts import burst
from tests.ui.pilots import play_turns, screen_text, seeded, wait_until
from tests.ui.tables import open_host
from tests.ui.test_snapshots import vg_keys
from ui.app import JoinPlan, make_app
from ui.session import TablePlan
from ui.user_settings import UserSettings


def on(pilot: Any, name: str) -> bool:
    return type(pilot.app.screen).__name__ == name


def words(pilot: Any) -> str:
    """The screen's words in one line, without the dialogs' borders."""
    return " ".join(screen_text(pilot.app).replace("█", " ").split())


async def test_a_host_is_asked_before_leaving_or_quitting_and_the_others_hear_it(
    tmp_path: Path,
) -> None:
    plan = TablePlan("via-gladiola", 3, {}, bots=1, bind="127.0.0.1", port=0, discovery=False)
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False, host=plan)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: on(pilot, "LobbyScreen") and app.session is not None)
        port = app.session.host.port
        bea = TableClient(f"127.0.0.1:{port}", "Bea", KnownHosts(tmp_path / "hosts"))
        runner = asyncio.create_task(bea.run())
        await wait_until(pilot, lambda: app.others_at_table() == 1)
        await pilot.press("escape")
        await wait_until(pilot, lambda: "Close the table?" in words(pilot))
        assert "leaving closes it for the 1 other person at it" in words(pilot)
        assert "ends the game" not in words(pilot), "no game has begun"
        await pilot.press("enter")  # the safe answer: stay
        await wait_until(pilot, lambda: on(pilot, "LobbyScreen"))
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: "Close the table?" in words(pilot))  # ctrl+q asks too
        await pilot.press("n")
        await wait_until(pilot, lambda: on(pilot, "LobbyScreen"))
        assert app.is_running
        await pilot.press("ctrl+q", "y")
    heard = [n for n in await everything_said(bea, runner) if isinstance(n, TableClosed)]
    assert heard == [TableClosed(None, None)], "Bea is told the table closed"


async def everything_said(client: TableClient, runner: asyncio.Task[None]) -> list[Any]:
    """Every notice `client` gave, once its session is over (a table closed by its host ends
    it): none can come after, so nothing is missed by not waiting for a silence."""
    try:
        await asyncio.wait_for(runner, 10)
    finally:
        runner.cancel()
    said = []
    while not client.updates.empty():
        said.append(client.updates.get_nowait())
    return said


def joining(host: Any) -> Any:
    """Ann's app, joining `host` (a table on loopback) as it starts."""
    join = JoinPlan(f"127.0.0.1:{host.port}")
    return make_app(
        settings=UserSettings(name="Ann"), ascii_mode=False, join=join, random_bytes=seeded(3)
    )


async def into_the_game(pilot: Any) -> None:
    """Trust the table, be ready: the game begins against its bot."""
    await wait_until(pilot, lambda: on(pilot, "Confirm"))
    await pilot.press("y")
    await wait_until(pilot, lambda: on(pilot, "LobbyScreen"))
    await pilot.press("r")
    await wait_until(pilot, lambda: on(pilot, "ViaGladiolaScreen"))


async def test_a_player_is_told_the_host_closed_the_table_with_the_results_so_far() -> None:
    host = await open_host(players=2, bots=1)
    app = joining(host)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await into_the_game(pilot)
            await play_turns(pilot, 2, vg_keys)
            expected = host.table.game.standings(host.table.state)
            await host.close()
            await wait_until(pilot, lambda: "Results so far" in words(pilot), 10)
            assert on(pilot, "ResultsScreen")
            text = words(pilot)
            assert "The host closed the table. Results so far:" in text
            assert "Connection lost" not in text and "not sent" not in text
            assert "deal verified" in text
            ann = app.session.client
            assert ann.standings.scores == expected.scores
            assert "Play again" not in text, "there is no table to go back to"
            await pilot.press("a")
            await pilot.pause(0.3)
            assert on(pilot, "ResultsScreen"), "a does nothing: the table is gone"
            await pilot.press("s")
            await wait_until(pilot, lambda: any((data_dir() / "replays").glob("*.json")))
    finally:
        await host.close()


async def test_a_player_waiting_in_the_lobby_is_told_the_table_closed() -> None:
    host = await open_host(players=3)
    app = make_app(
        settings=UserSettings(name="Ann"), ascii_mode=False, join=JoinPlan(f"127.0.0.1:{host.port}")
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: on(pilot, "Confirm"))
        await pilot.press("y")
        await wait_until(pilot, lambda: on(pilot, "LobbyScreen") and app.session.client.lobby)
        await host.close()
        await wait_until(pilot, lambda: "The host closed the table." in words(pilot), 10)
        assert "Connection lost" not in words(pilot)


async def test_an_escape_after_a_chat_line_closes_the_chat_and_the_next_asks() -> None:
    """Sending a line leaves the chat open: the escape right after it closes the chat, and
    does not ask about leaving; the next escape does, and the enter that may follow in the
    burst keeps the seat (staying is the default)."""
    host = await open_host(players=2, bots=1)
    app = joining(host)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await into_the_game(pilot)
            await burst(pilot, "c", "hi", "enter", "escape")
            await wait_until(pilot, lambda: "Ann: hi" in words(pilot))
            await pilot.pause(0.3)
            assert on(pilot, "ViaGladiolaScreen") and not app.screen.chatting
            await burst(pilot, "escape")
            await wait_until(pilot, lambda: "Leave the table?" in words(pilot))
            assert "Your seat waits for you" in words(pilot)
            await burst(pilot, "enter")
            await wait_until(pilot, lambda: on(pilot, "ViaGladiolaScreen"))
            assert app.session is not None and app.session.client.connected
    finally:
        await host.close()


async def test_a_host_that_closes_its_table_mid_game_gets_the_results_so_far() -> None:
    """The host played too: closing its table mid-game shows it what its players see (the
    standings so far, its own client's check of the deal, a replay to save), not the menu."""
    plan = TablePlan("via-gladiola", 2, {}, bots=1, bind="127.0.0.1", port=0, discovery=False)
    app = make_app(
        settings=UserSettings(name="Ann"), ascii_mode=False, host=plan, random_bytes=seeded(5)
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: on(pilot, "LobbyScreen") and app.session is not None)
        await pilot.press("r")
        await wait_until(pilot, lambda: on(pilot, "ViaGladiolaScreen"))
        await play_turns(pilot, 2, vg_keys)
        session = app.session
        table = session.host.table
        expected = table.game.standings(table.state)
        await pilot.press("escape")
        await wait_until(pilot, lambda: "Leave the table?" in words(pilot))
        await pilot.press("y")
        await wait_until(pilot, lambda: "Results so far" in words(pilot), 15)
        assert on(pilot, "ResultsScreen")
        text = words(pilot)
        assert "You closed the table. Results so far:" in text
        assert "Ann (you)" in text
        assert "deal verified" in text, "the same check as every player's, by its own client"
        assert session.client.standings.scores == expected.scores
        assert "Play again" not in text, "its players were told the table is gone"
        await pilot.press("a")
        await pilot.pause(0.3)
        assert on(pilot, "ResultsScreen"), "a does nothing: the table was closed on purpose"
        await pilot.press("s")
        await wait_until(pilot, lambda: any((data_dir() / "replays").glob("*.json")))
        assert "Replay saved" in words(pilot)
        await pilot.press("m")
        await wait_until(pilot, lambda: on(pilot, "MenuScreen") and app.session is None)


async def test_a_host_that_closes_its_table_from_the_lobby_goes_to_the_menu() -> None:
    plan = TablePlan("via-gladiola", 3, {}, bots=1, bind="127.0.0.1", port=0, discovery=False)
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False, host=plan)
    async with app.run_test(size=(80, 24)) as pilot:  # a seat free: the game waits
        await wait_until(pilot, lambda: on(pilot, "LobbyScreen") and app.session is not None)
        await wait_until(pilot, lambda: app.session.client.lobby is not None)
        await pilot.press("escape")
        await wait_until(pilot, lambda: "Leave the table?" in words(pilot))
        await pilot.press("y")
        await wait_until(pilot, lambda: on(pilot, "MenuScreen") and app.session is None)
        await pilot.pause(0.5)
        assert on(pilot, "MenuScreen"), "no game was on: nothing to show"
