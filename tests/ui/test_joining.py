"""Joining by address: what the player is told when it fails, and the form kept to fix it."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest
from textual.widgets import Input

from protocol.settings import config_dir
from tests.ui.bursts import burst
from tests.ui.pilots import screen_text, wait_until
from tests.ui.tables import open_host
from ui.app import JoinPlan, make_app
from ui.user_settings import UserSettings


def app(**kwargs: Any) -> Any:
    return make_app(settings=UserSettings(name="Ann"), ascii_mode=False, **kwargs)


def on(pilot: Any, name: str) -> bool:
    return type(pilot.app.screen).__name__ == name


async def join_from_the_form(pilot: Any, address: str, password: str = "") -> None:
    await burst(pilot, "j")
    await wait_until(pilot, lambda: on(pilot, "JoinScreen"))
    await burst(pilot, address, "tab", "tab", password, "enter")


def free_tcp_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_nobody_listening_is_said_plainly_and_the_address_is_kept() -> None:
    address = f"127.0.0.1:{free_tcp_port()}"
    async with app().run_test(size=(80, 24)) as pilot:
        await join_from_the_form(pilot, address, "secret")
        await wait_until(
            pilot, lambda: on(pilot, "JoinScreen") and "Nobody" in screen_text(pilot.app)
        )
        screen = pilot.app.screen
        await pilot.pause(0.2)
        text = screen_text(pilot.app)
        assert f"Nobody answers at {address}" in text
        assert "lost the table" not in text, "it was never found, so it was not lost"
        assert screen.query_one("#address", Input).value == address
        assert screen.query_one("#password", Input).value == "secret"
        assert screen.focused is screen.query_one("#address", Input)


async def test_a_name_that_is_no_machine_is_said_so_not_in_the_resolver_s_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = socket.getaddrinfo

    def resolve(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host == "kitchen-laptop":  # never asked of a real resolver: nothing leaves loopback
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    async with app().run_test(size=(80, 24)) as pilot:
        await join_from_the_form(pilot, "kitchen-laptop")
        await wait_until(pilot, lambda: on(pilot, "JoinScreen") and "!" in screen_text(pilot.app))
        text = " ".join(screen_text(pilot.app).split())
        assert "No machine called kitchen-laptop was found" in text
        assert "Name or service not known" not in text
        assert pilot.app.screen.query_one("#address", Input).value == "kitchen-laptop"


async def test_a_wrong_password_brings_back_the_form_on_the_password() -> None:
    host = await open_host(password="tulip")
    try:
        async with app().run_test(size=(80, 24)) as pilot:
            await join_from_the_form(pilot, f"127.0.0.1:{host.port}", "tulpi")
            await wait_until(pilot, lambda: "Wrong password" in screen_text(pilot.app), 30)
            screen = pilot.app.screen
            await pilot.pause(0.2)
            assert screen.query_one("#address", Input).value == f"127.0.0.1:{host.port}"
            assert screen.query_one("#password", Input).value == "tulpi"
            assert screen.focused is screen.query_one("#password", Input)
            await burst(pilot, *["backspace"] * 5, "tulip", "enter")
            await wait_until(pilot, lambda: on(pilot, "Confirm"), 30)
            await pilot.press("y")
            await wait_until(pilot, lambda: on(pilot, "LobbyScreen"))
    finally:
        await host.close()


@pytest.mark.parametrize("answer", ["enter", "n"])
async def test_the_fingerprint_question_is_not_trusted_by_default(answer: str) -> None:
    host = await open_host()
    try:
        async with app(join=JoinPlan(f"127.0.0.1:{host.port}")).run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: on(pilot, "Confirm"))
            await pilot.press(answer)
            await wait_until(pilot, lambda: on(pilot, "JoinScreen"))
            await asyncio.sleep(0.2)
            text = " ".join(screen_text(pilot.app).split())
            assert "You did not trust the host's key" in text
            assert "new key" not in text and "Known hosts" not in text, "no changed-key warning"
            assert not host.table.seats[0].name, "nobody took a seat"
            assert (
                not (config_dir() / "known_hosts").exists()
                or not (config_dir() / "known_hosts").read_text().strip()
            )
    finally:
        await host.close()


async def test_a_busy_port_brings_the_host_form_back_on_the_port_field() -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        async with app().run_test(size=(80, 24)) as pilot:
            await burst(pilot, "h")
            await wait_until(pilot, lambda: on(pilot, "HostSetupScreen"))
            field = pilot.app.screen.query_one("#port", Input)
            field.value = str(port)
            await burst(pilot, "ctrl+o")
            await wait_until(pilot, lambda: "already in use" in screen_text(pilot.app), 10)
            text = " ".join(screen_text(pilot.app).split())
            assert f"Port {port} is already in use (another table?)" in text
            assert on(pilot, "HostSetupScreen") and pilot.app.screen.focused is field
