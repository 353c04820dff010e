"""Tables found on the LAN (loopback here): enter joins, password tables say so and ask there."""

from __future__ import annotations

from typing import Any

import pytest

from tests.network.processes import free_udp_base
from tests.ui.bursts import burst
from tests.ui.pilots import screen_text, wait_until
from tests.ui.tables import announce, open_host
from ui.app import make_app
from ui.user_settings import UserSettings


@pytest.fixture
def udp_port(monkeypatch: pytest.MonkeyPatch) -> int:
    port = free_udp_base()
    monkeypatch.setenv("NETCARDS_DISCOVERY_PORT", str(port))
    return port


def on(pilot: Any, name: str) -> bool:
    return type(pilot.app.screen).__name__ == name


async def find(pilot: Any, table: str) -> None:
    await burst(pilot, "f")
    await wait_until(pilot, lambda: table in screen_text(pilot.app), 10)


async def test_enter_on_a_found_table_joins_it(udp_port: int) -> None:
    host = await open_host(name="Kitchen")
    responder = await announce(host, udp_port)
    try:
        app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await find(pilot, "Kitchen")
            assert "⏎ Join" in screen_text(app), "the footer names the key"
            assert "enter joins as Ann" in screen_text(app), "the name it joins under"
            await burst(pilot, "enter")
            await wait_until(pilot, lambda: on(pilot, "Confirm"))
            await pilot.press("y")
            await wait_until(pilot, lambda: on(pilot, "LobbyScreen"))
            await wait_until(pilot, lambda: host.table.seats[0].name == "Ann")
    finally:
        await responder.close()
        await host.close()


async def test_a_table_with_a_password_is_marked_and_asks_for_it_in_the_list(
    udp_port: int,
) -> None:
    host = await open_host(name="Attic", password="tulip")
    responder = await announce(host, udp_port)
    try:
        app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False)
        async with app.run_test(size=(100, 24)) as pilot:
            await find(pilot, "Attic")
            row = next(line for line in screen_text(app).splitlines() if "Attic" in line)
            assert "yes" in row.split(), "the password column says so"
            await burst(pilot, "s")
            await wait_until(pilot, lambda: on(pilot, "PasswordPrompt"))
            await burst(pilot, "escape")
            await wait_until(pilot, lambda: on(pilot, "FindScreen"))
            await burst(pilot, "enter")
            await wait_until(pilot, lambda: on(pilot, "PasswordPrompt"))
            await burst(pilot, "tulip", "enter")
            await wait_until(pilot, lambda: on(pilot, "Confirm"), 30)
            await pilot.press("y")
            await wait_until(pilot, lambda: host.table.seats[0].name == "Ann", 30)
    finally:
        await responder.close()
        await host.close()


async def test_the_cursor_stays_on_its_table_when_another_appears_above_it(
    udp_port: int,
) -> None:
    """A refresh that brings a new table above the chosen one must not move the choice: enter
    pressed just after it joins the table the player picked, not the one now in its row."""
    kitchen, porch = await open_host(name="Kitchen"), await open_host(name="Porch")
    responders = [await announce(kitchen, udp_port), await announce(porch, udp_port + 1)]
    attic = await open_host(name="Attic")
    try:
        app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await find(pilot, "Porch")
            await burst(pilot, "down")
            await wait_until(pilot, lambda: "Porch" in str(app.screen.chosen().info.name))
            responders.append(await announce(attic, udp_port + 2))
            await wait_until(pilot, lambda: "Attic" in screen_text(app), 10)
            rows = [ln.split()[0] for ln in screen_text(app).splitlines() if "127.0.0.1:" in ln]
            assert rows == ["Attic", "Kitchen", "Porch"], "the new table came above the chosen one"
            assert "The table says its fingerprint is" in screen_text(app)
            await burst(pilot, "enter")
            await wait_until(pilot, lambda: on(pilot, "Confirm"))
            await pilot.press("y")
            await wait_until(pilot, lambda: porch.table.seats[0].name == "Ann")
            assert kitchen.table.seats[0].name != "Ann" and attic.table.seats[0].name != "Ann"
    finally:
        for responder in responders:
            await responder.close()
        for host in (kitchen, porch, attic):
            await host.close()


async def test_at_40_columns_the_list_fits_and_the_chosen_table_says_the_rest(
    udp_port: int,
) -> None:
    """A phone's window: the list keeps the table, its game and its seats, each whole; the
    address and the password, which ran off the right edge, are said under it; wider again,
    the columns come back."""
    host = await open_host(name="Attic", password="tulip")
    responder = await announce(host, udp_port)
    try:
        app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False)
        async with app.run_test(size=(40, 20)) as pilot:
            await find(pilot, "Attic")
            text = screen_text(app)
            header = next(line for line in text.splitlines() if "free seats" in line)
            assert header.split() == ["table", "game", "free", "seats"], header
            assert f"127.0.0.1:{host.port}" in text and "This table has a password." in text
            await pilot.resize_terminal(100, 24)
            await wait_until(pilot, lambda: "address" in screen_text(app))
            row = next(line for line in screen_text(app).splitlines() if "Attic" in line)
            assert f"127.0.0.1:{host.port}" in row and "yes" in row.split()
    finally:
        await responder.close()
        await host.close()
