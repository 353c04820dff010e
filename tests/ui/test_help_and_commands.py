"""The menu's letters, `?` for the keys of a screen, and ctrl+p for commands, in each language."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.ui.bursts import burst
from tests.ui.pilots import screen_text, seeded, start_practice, wait_until
from ui import i18n
from ui.app import make_app
from ui.user_settings import UserSettings


@pytest.fixture(autouse=True)
def _english_again() -> Iterator[None]:
    yield
    i18n.use("en")


def app(language: str = "en") -> Any:
    i18n.use(language)
    return make_app(
        settings=UserSettings(name="Ann", language=language),
        ascii_mode=False,
        random_bytes=seeded(5),
        bot_delay=0,
    )


def on(pilot: Any, name: str) -> bool:
    return type(pilot.app.screen).__name__ == name


async def test_the_menu_shows_the_letter_of_each_entry() -> None:
    async with app().run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        lines = [" ".join(line.split()) for line in screen_text(pilot.app).splitlines()]
        for entry in ("h Host a table", "j Join by address", "f Find tables on the LAN",
                      "p Practise against bots", "r Rules", "s Settings", "q Quit"):  # fmt: skip
            assert any(entry in line for line in lines), entry


@pytest.mark.parametrize(
    ("language", "title", "entry"),
    [("en", "Keys of this screen", "Host"), ("fr", "Touches de cet écran", "Héberger")],
)
async def test_question_mark_lists_the_keys_of_the_screen_you_are_on(
    language: str, title: str, entry: str
) -> None:
    async with app(language).run_test(size=(80, 24)) as pilot:
        await burst(pilot, "?")
        await wait_until(pilot, lambda: on(pilot, "HelpScreen"))
        text = screen_text(pilot.app)
        assert title in text
        rows = [line.replace("█", " ").split() for line in text.splitlines()]
        assert ["h", entry] in [row[:2] for row in rows]
        await burst(pilot, "escape", "j")
        await wait_until(pilot, lambda: on(pilot, "JoinScreen"))


async def test_the_command_palette_offers_the_game_s_own_commands_in_french() -> None:
    async with app("fr").run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        game = pilot.app.screen
        names = [command.title for command in pilot.app.get_system_commands(game)]
        for french in ("Indice", "Règles", "Chat", "Partir"):
            assert french in names, (french, names)
        assert "Quit" not in names and "Theme" not in names, "no English left"
        await burst(pilot, "ctrl+p")
        await wait_until(pilot, lambda: on(pilot, "Palette"))
        await burst(pilot, "Règles")
        await pilot.pause(0.5)
        await burst(pilot, "enter")
        await wait_until(pilot, lambda: on(pilot, "RulesScreen"))


async def test_the_rules_of_a_game_begin_with_every_key_of_its_table() -> None:
    """`?` at a table opens the rules: the page's own key table has the game's moves; the
    keys every table has (chat, hint, leave, the log, the palette) are listed first."""
    async with app("en").run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        await burst(pilot, "?")
        await wait_until(pilot, lambda: on(pilot, "RulesScreen"))
        keys = dict(pilot.app.screen.keys)
        for what in ("Chat", "Hint", "Leave", "Scroll the log"):
            assert what in keys.values(), (what, keys)
        assert keys["ctrl+p"].startswith("Every key of this screen")
