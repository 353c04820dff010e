"""Joining by address: what the player is told when it fails, and the form kept to fix it."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest
from textual.widgets import Input

from protocol.seat_tokens import SeatTokens
from protocol.settings import config_dir, data_dir
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


async def test_a_restarted_app_offers_the_address_and_name_last_joined() -> None:
    """A program killed mid-game is started again to take the seat back: its form must not
    make the player remember and retype the address. The password is never kept."""
    address = f"127.0.0.1:{free_tcp_port()}"
    async with app().run_test(size=(80, 24)) as pilot:
        await burst(pilot, "j")
        await wait_until(pilot, lambda: on(pilot, "JoinScreen"))
        await burst(pilot, address)
        pilot.app.screen.query_one("#name", Input).value = "Cor"
        await burst(pilot, "tab", "tab", "pw", "enter")
        await wait_until(pilot, lambda: "Nobody" in screen_text(pilot.app))
    again = make_app(settings=UserSettings.load(), ascii_mode=False)
    async with again.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "j")
        await wait_until(pilot, lambda: on(pilot, "JoinScreen"))
        form = pilot.app.screen
        assert form.query_one("#address", Input).value == address
        assert form.query_one("#name", Input).value == "Cor"
        assert form.query_one("#password", Input).value == ""
        # Typed straight away, a new address replaces the remembered one, not the name.
        await burst(pilot, "127.0.0.1:9")
        assert form.query_one("#address", Input).value == "127.0.0.1:9"
        assert form.query_one("#name", Input).value == "Cor"
    assert "pw" not in UserSettings.path().read_text()


async def test_the_error_stays_until_the_player_changes_a_field_then_goes() -> None:
    """An error left under a field being fixed reads as if the fix were wrong too."""
    address = f"127.0.0.1:{free_tcp_port()}"
    async with app().run_test(size=(80, 24)) as pilot:
        await join_from_the_form(pilot, address)
        await wait_until(
            pilot, lambda: on(pilot, "JoinScreen") and "Nobody" in screen_text(pilot.app)
        )
        await pilot.pause(0.3)
        assert "Nobody answers" in screen_text(pilot.app), "shown until something is changed"
        await burst(pilot, "backspace")
        await pilot.pause()
        assert "Nobody answers" not in screen_text(pilot.app)
        await burst(pilot, "end", ":", "enter")  # no address at all now: said at once
        await wait_until(pilot, lambda: "!" in screen_text(pilot.app))
        assert on(pilot, "JoinScreen")
        await burst(pilot, "tab", "tab", "x")  # another field than the one at fault
        await pilot.pause()
        assert "!" not in screen_text(pilot.app)


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
            await burst(pilot, "backspace")
            await pilot.pause()
            assert "already in use" not in screen_text(pilot.app), "the port was changed"


@pytest.mark.parametrize("size", [(80, 24), (40, 20)])
async def test_a_table_whose_game_has_begun_says_so_not_that_nobody_answers(
    tmp_path: Any, size: tuple[int, int]
) -> None:
    """The host's refusal of a newcomer is the host's answer, not a connection that failed;
    in a phone's window too, where the form scrolls to show it with the box it points at."""
    from protocol.client import GameStarted, TableClient
    from protocol.known_hosts import KnownHosts

    host = await open_host(players=2, bots=1)
    bea = TableClient(f"127.0.0.1:{host.port}", "Bea", KnownHosts(tmp_path / "hosts"))
    runner = asyncio.create_task(bea.run())
    try:
        asked = False
        while not isinstance(await asyncio.wait_for(bea.updates.get(), 10), GameStarted):
            if bea.seat is not None and not asked:
                await bea.set_ready(True)
                asked = True
        async with app().run_test(size=size) as pilot:
            await join_from_the_form(pilot, f"127.0.0.1:{host.port}")
            await wait_until(pilot, lambda: on(pilot, "Confirm"), 30)
            await pilot.press("y")
            await wait_until(pilot, lambda: on(pilot, "JoinScreen") and "!" in words(pilot), 30)
            text = words(pilot)
            assert "Nobody answers" not in text, text
            assert "no free seat" in text and "space ticks the box, enter joins" in text, text
            assert "has already started; you may join" not in text, "the host's words, again"
            # The box the words point at has the focus: space ticks it (the address stays),
            # and enter joins to watch.
            screen = pilot.app.screen
            assert screen.focused is screen.query_one("#spectator")
            await burst(pilot, " ")
            assert screen.query_one("#address", Input).value == f"127.0.0.1:{host.port}"
            assert screen.query_one("#spectator").value is True
            await burst(pilot, "enter")
            await wait_until(pilot, lambda: hasattr(pilot.app.screen, "game_id"), 30)
            assert pilot.app.session.client.spectator
    finally:
        runner.cancel()
        await host.close()


def words(pilot: Any) -> str:
    return " ".join(screen_text(pilot.app).split())


async def test_a_web_server_at_the_address_is_named_not_a_table() -> None:
    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(1)
        writer.write(b"HTTP/1.0 400 Bad request\r\n\r\n<!DOCTYPE html>\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    address = f"127.0.0.1:{server.sockets[0].getsockname()[1]}"
    try:
        async with app().run_test(size=(80, 24)) as pilot:
            await join_from_the_form(pilot, address)
            await wait_until(
                pilot,
                lambda: on(pilot, "JoinScreen") and "not a netcards" in screen_text(pilot.app),
            )
            text = " ".join(screen_text(pilot.app).split())
            assert f"{address} answered, but it is not a netcards table" in text
            assert "firewall" not in text and "bytes" not in text
            screen = pilot.app.screen
            await wait_until(pilot, lambda: screen.focused is screen.query_one("#address", Input))
    finally:
        server.close()


async def test_a_name_another_program_of_ours_plays_at_that_table_is_refused_here() -> None:
    """The seat file of (address, name) is held by another program of the user: joining with
    that name would push it out of its seat (and it would come back, and so on), so the form
    comes back on the name instead, and another name joins."""
    host = await open_host(players=3)
    address = f"127.0.0.1:{host.port}"
    other = SeatTokens(data_dir() / "seats").claim(address, "Ann")
    assert other is not None
    try:
        async with app().run_test(size=(80, 24)) as pilot:
            await join_from_the_form(pilot, address)
            await wait_until(
                pilot, lambda: on(pilot, "JoinScreen") and "already at" in screen_text(pilot.app)
            )
            await pilot.pause(0.2)
            text = " ".join(screen_text(pilot.app).split())
            assert f"Another netcards program of yours is already at {address} as Ann" in text
            screen = pilot.app.screen
            await wait_until(pilot, lambda: screen.focused is screen.query_one("#name", Input))
            assert not any(s.kind == "human" for s in host.table.seats)
            await burst(pilot, "Ann 2", "enter")  # the focused field's text is selected: replaced
            await wait_until(pilot, lambda: on(pilot, "Confirm"))
            await pilot.press("y")
            await wait_until(pilot, lambda: on(pilot, "LobbyScreen"))
            await wait_until(pilot, lambda: "Ann 2" in screen_text(pilot.app))
            assert [s.name for s in host.table.seats if s.kind == "human"] == ["Ann 2"]
    finally:
        other.release()
        await host.close()


async def test_play_again_after_a_joined_game_keeps_the_name_and_password() -> None:
    """Back to the join form after a game at someone else's table: the same address, the same
    name and password as typed then (not the settings' name), ready for enter."""
    async with app().run_test(size=(80, 24)) as pilot:
        pilot.app.last_plan = JoinPlan("192.0.2.7:47474", "sesame", False, "Bob")
        pilot.app.play_again()
        await wait_until(pilot, lambda: on(pilot, "JoinScreen") and pilot.app.screen.query("#name"))
        screen = pilot.app.screen
        assert screen.query_one("#address", Input).value == "192.0.2.7:47474"
        assert screen.query_one("#name", Input).value == "Bob"
        assert screen.query_one("#password", Input).value == "sesame"


async def test_play_again_joins_as_a_newcomer_not_back_into_the_game_just_over() -> None:
    """The seat token of the game just over would only take the player back to its results:
    Play again forgets it, and pressed too soon, the form says the host has not opened the
    table again yet."""
    host = await open_host("via-gladiola", 2, bots=1)
    address = f"127.0.0.1:{host.port}"
    tokens = SeatTokens(data_dir() / "seats")
    tokens.save(address, "Bob", b"t" * 32)
    host.table.phase = "over"  # as when its game has just ended
    try:
        async with app().run_test(size=(80, 24)) as pilot:
            pilot.app.last_plan = JoinPlan(address, None, False, "Bob")
            pilot.app.play_again()
            await wait_until(pilot, lambda: on(pilot, "JoinScreen"))
            assert tokens.load(address, "Bob") is None
            await burst(pilot, "enter")
            await wait_until(pilot, lambda: on(pilot, "Confirm"), 30)  # a first visit
            await pilot.press("y")
            await wait_until(pilot, lambda: "is over, and its host" in screen_text(pilot.app))
            assert on(pilot, "JoinScreen")
    finally:
        await host.close()
