"""The turn clock and an absent player at a sealed table, as a player of the app meets them:
when her time runs out her own app plays her stand-in's move and says so; when another player
is gone, `e` (shown only then) ends the game for everyone after a question whose safe answer is
to wait, and the results screen says the deal was not checked and names the absent player."""

from __future__ import annotations

import asyncio
import os
from typing import Any

from netcards.table import Table
from protocol.client import SeatTaken, TableClient
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts
from tests.network.test_sealed_clock import stop as stop_tasks
from tests.ui.pilots import screen_text, wait_until
from ui.app import JoinPlan, make_app
from ui.user_settings import UserSettings


def words(app: Any) -> str:
    return " ".join(screen_text(app).replace("█", " ").split())


def log_words(screen: Any) -> str:
    """The log pane's lines, as one line of words (a line wraps in the pane)."""
    return " ".join(" ".join(strip.text for strip in screen.query_one("#log").lines).split())


async def sealed_host(players: int, bots: int, turn_clock: float = 0.0) -> TableHost:
    table = Table.create(
        "via-gladiola", players, {"first_player": 0}, name="Club", host_part=os.urandom(32),
        sealed=True,
    )  # fmt: skip
    if bots:
        table.add_bot("random", bots)
    settings = HostSettings(grace=0.0, turn_clock=turn_clock, clock_answer=5.0)
    host = TableHost(table, IdentityKey(bytes(range(32))), settings=settings)
    await host.start()
    return host


async def stop(running: list[asyncio.Task[None]], host: TableHost) -> None:
    """The test's players' tasks, then its host."""
    await stop_tasks(running)
    await host.close()


async def join_as_ann(pilot: Any, app: Any) -> Any:
    await wait_until(pilot, lambda: type(app.screen).__name__ == "Confirm")
    await pilot.press("y")  # the first visit: trust this table's key
    await wait_until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
    await pilot.press("r")
    await wait_until(pilot, lambda: type(app.screen).__name__ == "ViaGladiolaScreen", 20)
    return app.screen


async def ann_and_bob_then_bob_leaves(
    pilot: Any, app: Any, bob: TableClient, running: list[asyncio.Task[None]]
) -> Any:
    """Ann's app (first visit) and Bob's program (its task added to `running`) take their
    seats; once the sealed game is under way, Bob leaves. Ann's client."""
    await wait_until(pilot, lambda: type(app.screen).__name__ == "Confirm")
    running.append(asyncio.create_task(bob.run()))
    while not isinstance(await bob.updates.get(), SeatTaken):
        pass
    await bob.set_ready(True)
    client = (await join_as_ann(pilot, app)).client
    await wait_until(pilot, lambda: client.sealed is not None and bob.sealed is not None)
    await bob.leave("my train")
    return client


async def test_her_time_runs_out_and_her_own_app_plays_her_stand_in(tmp_path: Any) -> None:
    host = await sealed_host(2, 1, turn_clock=1.5)
    app = make_app(settings=UserSettings(name="Ann"), join=JoinPlan(f"127.0.0.1:{host.port}"))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await join_as_ann(pilot, app)
            client = screen.client
            await wait_until(pilot, lambda: client.my_turn, 30)
            await wait_until(pilot, lambda: "s left" in words(app), 5)  # her countdown
            await wait_until(pilot, lambda: client.stand_in_moves >= 1, 10)
            await wait_until(pilot, lambda: "plays the turn" in log_words(screen), 5)
            assert "Your time ran out: your stand-in plays the turn" in log_words(screen)
            # The move is worded as the stand-in's, as at an open table.
            await wait_until(pilot, lambda: "Your stand-in " in log_words(screen), 5)
            assert "You walked" not in log_words(screen) and "You rested" not in log_words(screen)
            assert "End game" not in words(app), "nobody is absent: no key to end the game"
    finally:
        await host.close()


async def test_e_ends_a_sealed_game_whose_player_is_gone_and_names_them(tmp_path: Any) -> None:
    host = await sealed_host(3, 1)
    app = make_app(settings=UserSettings(name="Ann"), join=JoinPlan(f"127.0.0.1:{host.port}"))
    bob = TableClient(f"127.0.0.1:{host.port}", "Bob", KnownHosts(tmp_path / "bob"))
    running: list[asyncio.Task[None]] = []
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            client = await ann_and_bob_then_bob_leaves(pilot, app, bob, running)
            screen = app.screen
            await wait_until(pilot, lambda: bool(client.absent_seats()), 10)
            await wait_until(pilot, lambda: "End game" in words(app), 5)
            # The status line says who is away and what `e` does, whatever else it says.
            await wait_until(
                pilot, lambda: "Away: Bob; e ends the game for everyone." in words(app), 5
            )
            await pilot.press("e")
            await wait_until(pilot, lambda: type(app.screen).__name__ == "Confirm")
            assert "The table waits for Bob" in words(app)
            await pilot.press("enter")  # the safe answer: go on waiting
            await pilot.pause(0.3)
            assert app.screen is screen and not host.finished.is_set()
            await pilot.press("e")
            await wait_until(pilot, lambda: type(app.screen).__name__ == "Confirm")
            await pilot.press("y")
            await wait_until(pilot, host.finished.is_set, 10)
            await wait_until(pilot, lambda: type(app.screen).__name__ == "ResultsScreen", 10)
            await wait_until(pilot, lambda: "deal not checked" in words(app), 10)
            assert "Bob" in words(app)
            assert "You ended the game: the results so far stand" in words(app), words(app)
            assert client.sealed_verdict is not None and "Bob" in client.sealed_verdict
    finally:
        await stop(running, host)


async def test_a_game_ended_without_a_player_says_why_in_the_player_s_language(
    tmp_path: Any,
) -> None:
    """The verdict's own reasons are English (programs compare them); the results screen words
    the same reasons in its player's language, and its status line says who is away."""
    from ui import i18n

    i18n.use("fr")
    host = await sealed_host(3, 1)
    app = make_app(
        settings=UserSettings(name="Ann", language="fr"), join=JoinPlan(f"127.0.0.1:{host.port}")
    )
    bob = TableClient(f"127.0.0.1:{host.port}", "Bob", KnownHosts(tmp_path / "bob"))
    running: list[asyncio.Task[None]] = []
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            client = await ann_and_bob_then_bob_leaves(pilot, app, bob, running)
            await wait_until(pilot, lambda: "Absent(s) : Bob ; e met fin" in words(app), 10)
            await pilot.press("e")
            await wait_until(pilot, lambda: type(app.screen).__name__ == "Confirm")
            await pilot.press("y")
            await wait_until(pilot, lambda: type(app.screen).__name__ == "ResultsScreen", 10)
            await wait_until(pilot, lambda: "donne non contrôlée" in words(app), 10)
            text = words(app)
            assert client.verdict is not None
            english = "; ".join(client.verdict.unchecked)
            n = client.names.index("Bob") + 1
            assert f"seat {n} (Bob) left before publishing its secrets" == english, english
            assert f"Bob (place {n}) est parti avant de publier ses secrets" in text, text
            assert "seat" not in text and "secrets" in text, text
            assert "before publishing" not in text and "while waiting" not in text, text
    finally:
        i18n.use("en")
        await stop(running, host)
