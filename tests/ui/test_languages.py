"""French and Dutch: every string translated, the switch in Settings, and the screens in both."""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.ui.bursts import burst
from tests.ui.pilots import play_turns, screen_text, seeded, start_practice, wait_until
from tests.ui.test_snapshots import vg_keys
from ui import i18n
from ui.app import make_app
from ui.user_settings import UserSettings

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def catalogue_tool() -> Any:
    spec = importlib.util.spec_from_file_location("catalogue", ROOT / "scripts" / "catalogue.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def _english_again() -> Iterator[None]:
    yield
    i18n.use("en")


@pytest.mark.parametrize("language", ["fr", "nl"])
def test_every_string_the_app_shows_is_in_the_catalogue(language: str) -> None:
    strings = catalogue_tool().extract()
    assert len(strings) > 300
    catalogue = i18n.load(language)
    assert isinstance(catalogue, i18n.Catalogue)
    missing = []
    for msgid, plural in strings.items():
        if plural is None:
            text = catalogue.messages.get(msgid, "")
            forms = [text]
        else:
            forms = catalogue.plurals.get(msgid, [])
            text = forms[0] if forms else ""
        if not text or not all(forms):
            missing.append(msgid)
            continue
        for form in forms:
            assert set(PLACEHOLDER.findall(form)) == set(PLACEHOLDER.findall(msgid)), (
                f"{language}: {msgid!r} -> {form!r} changes the placeholders"
            )
    assert not missing, f"{language} misses {len(missing)} strings, e.g. {missing[:5]}"


# One way of speaking to the player per language, and one word for the host: a string written
# later in the other register reads like another program's.
REGISTER = {
    "fr": re.compile(r"\b(tu|te|toi|ton|ta|tes)\b|\bt'", re.IGNORECASE),  # "vous" throughout
    "nl": re.compile(r"\b(u|uw|gastheer)\b", re.IGNORECASE),  # "je" and "host" throughout
}


@pytest.mark.parametrize("language", ["fr", "nl"])
def test_each_language_speaks_to_the_player_in_one_register(language: str) -> None:
    messages, plurals = i18n.parse_po((ROOT / "ui" / "locale" / f"{language}.po").read_text())
    texts = [*messages.values(), *(form for forms in plurals.values() for form in forms)]
    assert len(texts) > 300
    other = [text for text in texts if REGISTER[language].search(text)]
    assert not other, f"{language}: {other[:3]}"


def test_names_are_listed_the_way_each_language_lists_them() -> None:
    assert [i18n.names_list(names) for names in ([], ["Ann"], ["Ann", "Bea"])] == [
        "",
        "Ann",
        "Ann and Bea",
    ]
    assert i18n.names_list(["Ann", "Bea", "Cas"]) == "Ann, Bea and Cas"
    i18n.use("fr")
    assert i18n.names_list(["Ann", "Bea", "Cas"]) == "Ann, Bea et Cas"
    i18n.use("nl")
    assert i18n.names_list(["Ann", "Bea"]) == "Ann en Bea"
    # and the verb agrees with them: one player "is" ready, two "are"
    waiting = "waiting for {names} to be ready"
    assert i18n.ngettext(waiting, waiting, 1).format(names="Ann") == "wachten tot Ann klaar is"
    assert (
        i18n.ngettext(waiting, waiting, 2).format(names=i18n.names_list(["Ann", "Bea"]))
        == "wachten tot Ann en Bea klaar zijn"
    )


def test_the_catalogue_test_notices_a_missing_string(tmp_path: Path) -> None:
    messages, _plurals = i18n.parse_po((ROOT / "ui" / "locale" / "fr.po").read_text())
    assert messages.get("Host a table")
    broken = i18n.Catalogue("fr", {}, {})
    assert broken.gettext("Host a table") == "Host a table", "a missing string falls back"


async def test_switching_the_language_in_settings_redraws_the_app() -> None:
    app = make_app(settings=UserSettings(name="Ann", language="en"), random_bytes=seeded(3))
    async with app.run_test(size=(80, 24)) as pilot:
        assert "Host a table" in screen_text(app)
        await pilot.press("s")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "SettingsScreen")
        await pilot.press("tab", "enter")  # the language list
        await pilot.pause(0.2)
        await pilot.press("down", "enter")  # from English to Français
        await pilot.pause(0.2)
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: i18n.current() == "fr")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "MenuScreen")
        french = i18n.load("fr").gettext("Host a table")
        assert french != "Host a table"
        await wait_until(pilot, lambda: french in screen_text(app))
    assert UserSettings.load().language == "fr"


@pytest.mark.parametrize("language", ["fr", "nl"])
def test_menu_in_each_language(snap_compare: Any, language: str) -> None:
    i18n.use(language)
    app = make_app(settings=UserSettings(name="Ann", language=language), random_bytes=seeded(7))
    assert snap_compare(app, terminal_size=(80, 24))


@pytest.mark.parametrize("language", ["fr", "nl"])
def test_via_gladiola_in_each_language(snap_compare: Any, language: str) -> None:
    i18n.use(language)
    app = make_app(
        settings=UserSettings(name="Ann", language=language), random_bytes=seeded(7), bot_delay=0
    )

    async def middle(pilot: Pilot[Any]) -> None:
        await start_practice(pilot, "via-gladiola", 3)
        await play_turns(pilot, 3, vg_keys)

    assert snap_compare(app, run_before=middle, terminal_size=(80, 24))


async def test_saving_other_settings_keeps_the_language_of_the_command_line() -> None:
    """`--lang nl`, then Settings: the list shows Dutch, the language in use; saving a new
    theme keeps it, and goes back to the menu, where the next keys are meant for."""
    i18n.use("nl")  # what `netcards --lang nl` does before the app starts
    app = make_app(settings=UserSettings(name="Ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "SettingsScreen")
        assert str(app.screen.query_one("#language").value) == "nl"
        await burst(pilot, "ctrl+s", "p")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "HostSetupScreen")
        assert i18n.current() == "nl"
        assert UserSettings.load().language == "nl" and UserSettings.load().name == "Ann"


async def test_a_language_chosen_on_the_command_line_wins_over_the_settings() -> None:
    i18n.use("nl")  # what `netcards --lang nl` does before the app starts
    app = make_app(settings=UserSettings(name="Ann", language="fr"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert i18n.current() == "nl"
        assert i18n.load("nl").gettext("Host a table") in screen_text(app)


def test_every_game_option_s_text_is_marked_for_translation() -> None:
    """The host form shows the games' option texts in the player's language: each one is in
    the list the catalogue is built from (a new option needs its words there)."""
    from netcards.registry import all_games
    from ui.option_words import OPTION_TEXTS

    texts = {spec.help for game in all_games().values() for spec in game.option_specs}
    assert texts == OPTION_TEXTS
    i18n.use("fr")
    assert all(i18n._(text) != text for text in texts)


def test_a_letter_two_games_share_is_translated_for_each_game() -> None:
    """ "P" is Velonimo's purple and Auf Achse's rest card: French writes violet "Vi" and the
    petrol pump "P" (each page of rules says so), so each letter has a context of its own."""
    from netcards.games.auf_achse.cards import REST
    from netcards.games.velonimo.cards import ALL_CARDS, COLOUR
    from ui.games.auf_achse import LABELS
    from ui.games.velonimo import short_code

    purple = next(c for c in ALL_CARDS if COLOUR[c] == 5 and short_code(c).endswith("P"))
    i18n.use("fr")
    assert i18n.pgettext("card", LABELS[REST]) == "P"
    assert short_code(purple).endswith("Vi")
    i18n.use("nl")
    assert i18n.pgettext("card", LABELS[REST]) == "P"
