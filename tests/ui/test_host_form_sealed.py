"""The host form's "Sealed" box: offered for a title with a sealed engine only, taken with a
turn clock too, and the table it opens is sealed."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input, Select

from netcards.registry import all_games
from netcards.sealed_game import has_sealed_engine
from tests.ui.bursts import burst
from tests.ui.pilots import screen_text, wait_until
from ui.app import make_app
from ui.user_settings import UserSettings
from ui.widgets.text_checkbox import TextCheckbox


def on(pilot: Any, name: str) -> bool:
    return type(pilot.app.screen).__name__ == name


def words(pilot: Any) -> str:
    return " ".join(screen_text(pilot.app).split())


async def host_form(pilot: Any, game: str) -> Any:
    await burst(pilot, "h")
    await wait_until(pilot, lambda: on(pilot, "HostSetupScreen"))
    screen = pilot.app.screen
    screen.query_one("#game", Select).value = game
    await wait_until(pilot, lambda: screen.shown_game == game)
    await pilot.pause(0.1)
    screen.query_one("#port", Input).value = "0"
    return screen


async def test_the_box_is_offered_for_a_title_with_a_sealed_engine_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every title has a sealed engine now: the form is shown one that has none (as a title
    added without one would be), and every real title gets the box."""
    from ui.screens import host_setup

    assert all(has_sealed_engine(g) for g in all_games())
    monkeypatch.setattr(host_setup, "has_sealed_engine", lambda g: g == "via-gladiola")
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await host_form(pilot, "via-gladiola")
        box = screen.query_one("#sealed", TextCheckbox)
        assert box.value is False, "a table is not sealed unless the host asks"
        box.focus()  # its help shows once the form has scrolled it into view, under load later
        promise = "nobody, the host included, sees a card they may not see"
        await wait_until(pilot, lambda: promise in words(pilot), 10)
        assert "Sealed" in words(pilot)
        without = [g for g in sorted(all_games()) if not host_setup.has_sealed_engine(g)]
        assert without
        for game in without:
            screen.query_one("#game", Select).value = game
            await wait_until(pilot, lambda g=game: screen.shown_game == g)
            await pilot.pause(0.1)
            assert not screen.query("#sealed"), f"{game} has no sealed engine: no box"
        screen.query_one("#game", Select).value = "via-gladiola"
        await wait_until(pilot, lambda: bool(screen.query("#sealed")))


async def test_a_sealed_table_opens_with_the_turn_clock_asked_for() -> None:
    """A sealed seat's own program plays its stand-in's move when its time runs out, so the
    form takes a clock beside the box (docs/sealed.md, section 7, "The turn clock")."""
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await host_form(pilot, "via-gladiola")
        note = str(screen.query_one("#sealing .field-note").render())
        assert "their own program plays for them" in note and "no turn clock" not in note, note
        screen.query_one("#sealed", TextCheckbox).value = True
        screen.query_one("#clock", Input).value = "30"
        await burst(pilot, "ctrl+o")
        await wait_until(pilot, lambda: on(pilot, "LobbyScreen") and app.session is not None, 15)
        session: Any = app.session
        assert session.host is not None and session.host.table.sealed
        await wait_until(pilot, lambda: session.client.lobby is not None, 10)
        lobby = session.client.lobby
        assert lobby.sealed and lobby.turn_clock_ms == 30_000


async def test_the_form_opens_a_sealed_table() -> None:
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await host_form(pilot, "via-gladiola")
        screen.query_one("#sealed", TextCheckbox).value = True
        await burst(pilot, "ctrl+o")
        await wait_until(pilot, lambda: on(pilot, "LobbyScreen") and app.session is not None, 15)
        session: Any = app.session
        assert session.host is not None and session.host.table.sealed
        await wait_until(pilot, lambda: session.client.lobby is not None, 10)
        assert session.client.lobby.sealed, "the lobby its players read says sealed"
        await wait_until(pilot, lambda: "Sealed table" in words(pilot), 10)


async def test_a_table_opened_without_the_box_is_not_sealed() -> None:
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await host_form(pilot, "via-gladiola")
        await burst(pilot, "ctrl+o")
        await wait_until(pilot, lambda: on(pilot, "LobbyScreen") and app.session is not None, 15)
        session: Any = app.session
        assert session.host is not None and not session.host.table.sealed
