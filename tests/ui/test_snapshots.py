"""What the screens look like at 80x24, in colour and in ASCII mode, from fixed deals."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from netcards.games.via_gladiola.actions import PlayGladiola, Walk
from tests.ui.pilots import play_turns, seeded, start_practice, wait_until
from ui.app import make_app
from ui.session import TablePlan
from ui.user_settings import UserSettings

SIZE = (80, 24)


def app(ascii_mode: bool = False, **kwargs: Any) -> Any:
    return make_app(
        settings=UserSettings(name="Ann"),
        random_bytes=seeded(7),
        bot_delay=0,
        ascii_mode=ascii_mode,
        **kwargs,
    )


def vg_keys(client: Any) -> list[str]:
    plays = [a for a in client.legal_actions() if isinstance(a, Walk | PlayGladiola)]
    if not plays:
        return ["r"]
    hand = sorted(client.view["hand"])
    return ["home", *["right"] * hand.index(plays[0].card), "enter"]


@pytest.mark.parametrize("ascii_mode", [False, True], ids=["unicode", "ascii"])
def test_menu(snap_compare: Any, ascii_mode: bool) -> None:
    assert snap_compare(app(ascii_mode), terminal_size=SIZE)


def test_host_setup(snap_compare: Any) -> None:
    assert snap_compare(app(), press=["h", "_"], terminal_size=SIZE)


@pytest.mark.parametrize("ascii_mode", [False, True], ids=["unicode", "ascii"])
def test_lobby_of_a_hosted_table(snap_compare: Any, ascii_mode: bool) -> None:
    plan = TablePlan(
        "via-gladiola", 3, {}, bots=1, name="Friday club", bind="127.0.0.1", port=0,
        discovery=False,
    )  # fmt: skip

    async def ready(pilot: Pilot[Any]) -> None:
        await wait_until(pilot, lambda: type(pilot.app.screen).__name__ == "LobbyScreen")
        client = pilot.app.screen.session.client
        await wait_until(pilot, lambda: client.lobby is not None and client.seat == 0)
        await pilot.press("r")
        await wait_until(pilot, lambda: client.lobby.seats[0].ready)
        pilot.app.session.host.port = 47474  # the port the OS gave differs from run to run
        pilot.app.session.addresses = ["192.0.2.7:47474"]  # and so do this machine's addresses
        pilot.app.screen.refresh_lobby()
        await pilot.pause(0.3)

    assert snap_compare(app(ascii_mode, host=plan), run_before=ready, terminal_size=SIZE)


@pytest.mark.parametrize("ascii_mode", [False, True], ids=["unicode", "ascii"])
def test_via_gladiola_mid_game(snap_compare: Any, ascii_mode: bool) -> None:
    async def middle(pilot: Pilot[Any]) -> None:
        await start_practice(pilot, "via-gladiola", 3)
        await play_turns(pilot, 4, vg_keys)

    assert snap_compare(app(ascii_mode), run_before=middle, terminal_size=SIZE)


def test_via_gladiola_results(snap_compare: Any) -> None:
    async def to_the_end(pilot: Pilot[Any]) -> None:
        await start_practice(pilot, "via-gladiola", 2)
        await play_turns(pilot, 500, vg_keys)
        client = pilot.app.screen.client if hasattr(pilot.app.screen, "client") else None
        await wait_until(pilot, lambda: type(pilot.app.screen).__name__ == "ResultsScreen")
        session = pilot.app.screen.session
        await wait_until(pilot, lambda: session.client.verdict is not None)
        assert client is None or client.outcome is not None
        await pilot.pause(0.3)

    assert snap_compare(app(), run_before=to_the_end, terminal_size=SIZE)
