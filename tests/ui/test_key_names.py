"""Keys are named in the player's language (échap, espace, spatie) in the key bar and the help,
and the practice form's key bar names ctrl+o as its button does."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.ui.bursts import burst
from tests.ui.pilots import screen_text, seeded, start_practice, wait_until
from ui import i18n
from ui.app import make_app
from ui.key_names import KEY_NAMES
from ui.user_settings import UserSettings

ENGLISH_NAMES = re.compile(r"\b(esc|escape|space|enter|pgup|pgdn)\b")


@pytest.fixture(autouse=True)
def _english_again() -> Iterator[None]:
    yield
    i18n.use("en")


def app_in(language: str, **kwargs: Any) -> Any:
    i18n.use(language)
    return make_app(settings=UserSettings(name="Ann", language=language), **kwargs)


def key_bar(app: Any) -> str:
    return screen_text(app).splitlines()[-1]


def on(app: Any, name: str) -> bool:
    return type(app.screen).__name__ == name


@pytest.mark.parametrize(
    ("language", "form", "words"),
    [
        ("en", "p", "Start"),
        ("en", "h", "Open the table"),
        ("fr", "p", "Démarrer"),
        ("fr", "h", "Ouvrir la table"),
        ("nl", "p", "Start"),
        ("nl", "h", "Tafel openen"),
    ],
)
async def test_the_key_bar_names_ctrl_o_as_the_form_s_button_does(
    language: str, form: str, words: str
) -> None:
    app = app_in(language, ascii_mode=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, form)
        await wait_until(pilot, lambda: on(app, "HostSetupScreen"))
        await pilot.pause(0.2)
        assert f"^o {words} " in key_bar(app) + " ", key_bar(app)
        button = app.screen.query_one("#open")
        assert str(button.label) == words
        other = {"Start", "Démarrer", "Open the table", "Ouvrir la table", "Tafel openen"}
        assert not any(o in key_bar(app) for o in other - {words}), key_bar(app)


@pytest.mark.parametrize(("language", "escape"), [("fr", "échap"), ("nl", "esc")])
async def test_the_help_and_the_key_bar_name_keys_in_the_player_s_language(
    language: str, escape: str
) -> None:
    app = app_in(language, ascii_mode=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        await burst(pilot, "?")
        await wait_until(pilot, lambda: on(app, "HelpScreen"))
        await wait_until(pilot, lambda: bool(key_bar(app).strip()))  # (drawn a moment after)
        assert key_bar(app).startswith(f" {escape} "), key_bar(app)
        if language == "fr":
            assert not ENGLISH_NAMES.search(screen_text(app)), screen_text(app)


async def test_a_french_game_names_space_and_enter_in_french_even_in_ascii() -> None:
    """Velonimo's keys: space selects, enter plays. In ASCII mode enter loses its glyph for
    its name, which the player reads in French too (the accent dropped by ASCII mode)."""
    app = app_in("fr", ascii_mode=True, random_bytes=seeded(2), bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await start_practice(pilot, "velonimo", 3)
        await wait_until(pilot, lambda: "espace" in key_bar(app))
        bar = key_bar(app)
        assert "echap Partir" in bar and "espace Choisir" in bar and "entree Jouer" in bar, bar
        assert not ENGLISH_NAMES.search(bar), bar


async def test_dutch_names_space_spatie() -> None:
    app = app_in("nl", ascii_mode=False, random_bytes=seeded(2), bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await start_practice(pilot, "velonimo", 3)
        await wait_until(pilot, lambda: "spatie" in key_bar(app))
        assert "space" not in key_bar(app)


@pytest.mark.parametrize("language", ["fr", "nl"])
def test_every_key_name_has_a_word_in_each_language(language: str) -> None:
    catalogue = i18n.load(language)
    assert isinstance(catalogue, i18n.Catalogue)
    missing = [n for n in KEY_NAMES if not catalogue.messages.get(i18n.in_context("key", n))]
    assert not missing, missing
    if language == "fr":
        assert catalogue.pgettext("key", "esc") == "échap"
