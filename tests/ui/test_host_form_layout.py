"""The host form's fields line up: the game table's players panel shares the id `players` with
the form's player count, and its padding and rule once shifted that field and drew a stray line."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from textual.widgets import Select

from netcards.registry import all_games, get_game
from tests.ui.pilots import screen_text, wait_until
from ui.app import make_app
from ui.user_settings import UserSettings


async def test_every_choice_of_the_host_form_starts_in_the_same_column() -> None:
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "HostSetupScreen")
        await pilot.pause(0.2)
        fields = list(app.screen.query(Select))
        assert len(fields) >= 3
        assert len({field.region.x for field in fields}) == 1, [f.region for f in fields]
        assert len({field.region.width for field in fields}) == 1, [f.region for f in fields]
        assert {field.styles.border_bottom[0] for field in fields} == {
            fields[0].styles.border_bottom[0]
        }


async def test_every_option_of_every_game_is_shown_at_80x24() -> None:
    """The game's own options sit below the host's fields: scrolled to, each one is on the
    screen with its height, and the first player can only be one of the table's seats."""
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "HostSetupScreen")
        screen: Any = app.screen
        for game in sorted(all_games()):
            screen.query_one("#game", Select).value = game
            await pilot.pause(0.2)
            specs = get_game(game).option_specs
            assert specs
            for spec in specs:
                field = screen.query_one(f"#opt-{spec.name}")
                field.focus()
                # Scrolling to the focused field takes a moment on a loaded machine.
                with contextlib.suppress(AssertionError):
                    await wait_until(
                        pilot, lambda f=field: 0 <= f.region.y < f.region.bottom <= 24, 5
                    )
                region = field.region
                assert region.height > 0, (game, spec.name, region)
                assert region.y >= 0 and region.bottom <= 24, (game, spec.name, region)
            seat_specs = [s for s in specs if s.kind == "seat"]
            for spec in seat_specs:
                players = screen.query_one("#players", Select)
                for count in (get_game(game).min_players, get_game(game).max_players):
                    players.value = count
                    await pilot.pause(0.1)
                    first = screen.query_one(f"#opt-{spec.name}", Select)
                    seats = [value for _label, value in first._options if value != "random"]
                    assert len(seats) == count, (game, count, seats)


async def test_a_long_option_text_wraps_whole_at_80_columns_in_french() -> None:
    from ui import i18n

    i18n.use("fr")
    try:
        app = make_app(settings=UserSettings(name="Ann", language="fr"), ascii_mode=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("h")
            await wait_until(pilot, lambda: type(app.screen).__name__ == "HostSetupScreen")
            screen: Any = app.screen
            screen.query_one("#game", Select).value = "velonimo"
            await wait_until(pilot, lambda: bool(screen.query("#opt-first_player")))
            screen.query_one("#opt-first_player").focus()
            spec = next(s for s in get_game("velonimo").option_specs if s.name == "first_player")
            text = " ".join(i18n._(spec.help).split())
            # Scrolling to the focused field takes a moment on a loaded machine: wait for it.
            await wait_until(pilot, lambda: text in " ".join(screen_text(app).split()))
    finally:
        i18n.use("en")


@pytest.mark.parametrize("language", ["en", "fr", "nl"])
async def test_the_variant_s_checkbox_text_is_whole_at_80_columns(language: str) -> None:
    """A checkbox's text does not wrap: each language's must fit the form at 80 columns."""
    from ui import i18n

    i18n.use(language)
    try:
        app = make_app(settings=UserSettings(name="Ann", language=language), ascii_mode=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("h")
            await wait_until(pilot, lambda: type(app.screen).__name__ == "HostSetupScreen")
            screen: Any = app.screen
            screen.query_one("#game", Select).value = "via-gladiola"
            # The game's options are built anew, then the form scrolls to the focused box: both
            # take a moment on a loaded machine, so wait for each rather than for a fixed time.
            await wait_until(pilot, lambda: bool(screen.query("#opt-variant_last_card")))
            box = screen.query_one("#opt-variant_last_card")
            # Focused before the new options are laid out, the form may scroll to where the box
            # was not yet: wait for its size, then focus it.
            await wait_until(pilot, lambda: box.size.height > 0)
            box.focus()
            spec = next(s for s in get_game("via-gladiola").option_specs if s.kind == "bool")
            await wait_until(pilot, lambda: i18n._(spec.help) in screen_text(app))
    finally:
        i18n.use("en")
