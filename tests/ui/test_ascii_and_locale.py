"""ASCII mode: chosen from the locale and the terminal as the C library would, and the rules
stay readable in it (from the menu and from a game)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.ui.bursts import burst
from tests.ui.pilots import screen_text, seeded, start_practice, wait_until
from ui.app import make_app
from ui.terminal import unicode_ok
from ui.user_settings import UserSettings

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("environ", "unicode"),
    [
        ({"LANG": "C"}, False),
        ({"LANG": "en_GB.UTF-8", "LC_ALL": "C"}, False),
        ({"LANG": "en_GB.UTF-8", "LC_CTYPE": "POSIX"}, False),
        ({"LANG": "fr_FR.ISO-8859-1"}, False),
        ({"LANG": "nl_NL"}, False),
        ({}, False),
        ({"LANG": "C", "LC_CTYPE": "C.UTF-8"}, True),
        ({"LANG": "fr_FR.utf8"}, True),
        ({"LC_ALL": "", "LANG": "nl_NL.UTF-8@euro"}, True),
        ({"LANG": "en_GB.UTF-8", "TERM": "vt100"}, False),
        ({"LANG": "en_GB.UTF-8", "TERM": "xterm"}, True),
    ],
)
def test_ascii_mode_follows_the_locale_variables_and_the_terminal(
    environ: dict[str, str], unicode: bool
) -> None:
    assert unicode_ok(environ, coerced=False) is unicode


def test_the_ctype_python_sets_in_the_c_locale_is_not_taken_for_the_user_s() -> None:
    coerced = {"LC_CTYPE": "C.UTF-8"}
    assert unicode_ok({"LANG": "C", **coerced}, coerced=True, started={}) is False
    assert unicode_ok({"LANG": "en_GB.UTF-8", **coerced}, coerced=True, started={}) is True


def test_a_netcards_process_started_in_the_c_locale_draws_in_ascii(tmp_path: Path) -> None:
    probe = "from ui.terminal import unicode_ok; print(unicode_ok())"
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    for lang, expected in (("C", "False"), ("C.UTF-8", "True")):
        done = subprocess.run(
            [sys.executable, "-c", probe], env={**environ, "LANG": lang},
            capture_output=True, text=True, check=True, cwd=ROOT,
        )  # fmt: skip
        assert done.stdout.strip() == expected, (lang, done.stdout, done.stderr)


@pytest.mark.skipif(
    not Path("/proc/self/environ").exists(), reason="the starting environment is read from /proc"
)
@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ({"LC_CTYPE": "C", "LANG": "C.UTF-8"}, "False"),
        ({"LC_CTYPE": "POSIX", "LANG": "C.UTF-8"}, "False"),
        ({"LANG": "xx_XX.UTF-8"}, "True"),
    ],
    ids=["LC_CTYPE=C", "LC_CTYPE=POSIX", "LANG-not-installed"],
)
def test_the_user_s_lc_ctype_decides_even_when_python_replaced_it(
    locale: dict[str, str], expected: str
) -> None:
    """Python replaces a C LC_CTYPE with C.UTF-8 (PEP 538): the one the user set still decides,
    and a LANG whose locale is not installed (Python coerces then too) still decides when no
    LC_CTYPE was set."""
    probe = "from ui.terminal import unicode_ok; print(unicode_ok())"
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "PYTHON"))}
    done = subprocess.run(
        [sys.executable, "-c", probe], env={**environ, **locale},
        capture_output=True, text=True, check=True, cwd=ROOT,
    )  # fmt: skip
    assert done.stdout.strip() == expected, (locale, done.stdout, done.stderr)


def test_the_ctype_the_process_was_started_with_is_the_user_s() -> None:
    coerced = {"LANG": "C.UTF-8", "LC_CTYPE": "C.UTF-8"}
    assert unicode_ok(coerced, coerced=True, started={"LC_CTYPE": "C", "LANG": "C.UTF-8"}) is False
    assert unicode_ok(coerced, coerced=True, started={"LANG": "C.UTF-8"}) is True
    assert unicode_ok(coerced, coerced=False, started={"LC_CTYPE": "C"}) is True


def test_the_c_locale_starts_the_app_in_ascii(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_CTYPE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C")
    assert make_app(settings=UserSettings(name="Ann")).ascii_mode is True
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert make_app(settings=UserSettings(name="Ann")).ascii_mode is False


def rules_shown(app: Any) -> bool:
    text = screen_text(app)
    return "Via Gladiola" in text and len(text.split()) > 40


async def test_the_rules_are_readable_in_ascii_mode_from_the_menu() -> None:
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(pilot, "r")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "RulesPicker")
        await burst(pilot, "down", "down", "enter")  # the last entry: Via Gladiola
        await wait_until(pilot, lambda: type(app.screen).__name__ == "RulesScreen")
        await wait_until(pilot, lambda: rules_shown(app), 5)
        assert all(ord(ch) < 128 for ch in screen_text(app)), "nothing but ASCII"


async def test_the_rules_are_readable_in_ascii_mode_from_a_game() -> None:
    app = make_app(
        settings=UserSettings(name="Ann"), ascii_mode=True, random_bytes=seeded(2), bot_delay=0
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 2)
        await burst(pilot, "?")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "RulesScreen")
        await wait_until(pilot, lambda: rules_shown(app), 5)


async def test_every_menu_screen_and_question_draws_only_ascii_in_ascii_mode() -> None:
    from ui.screens.confirm import Confirm
    from ui.screens.password import PasswordPrompt

    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=True)
    drawn: dict[str, str] = {}
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.3)
        drawn["menu"] = screen_text(app)
        for key, name in (("h", "HostSetupScreen"), ("j", "JoinScreen"), ("f", "FindScreen"),
                          ("s", "SettingsScreen"), ("?", "HelpScreen")):  # fmt: skip
            await burst(pilot, key)
            await wait_until(pilot, lambda name=name: type(app.screen).__name__ == name)
            await pilot.pause(0.3)
            drawn[name] = screen_text(app)
            await burst(pilot, "escape")
            await wait_until(pilot, lambda: type(app.screen).__name__ == "MenuScreen")
        for screen in (Confirm("Trust this host?", default=False), PasswordPrompt("Club")):
            await app.push_screen(screen)
            await pilot.pause(0.3)
            drawn[type(screen).__name__] = screen_text(app)
            app.pop_screen()
    for name, text in drawn.items():
        assert ascii_only(text), f"{name}: {sorted({ch for ch in text if ord(ch) > 127})}"


def ascii_only(text: str) -> bool:
    return all(ord(ch) < 128 for ch in text)


def test_the_ascii_filter_keeps_every_width() -> None:
    from ui.ascii_filter import ascii_text

    for text, plain in (("Étape à ┌─┐│", "Etape a +-+|"), ("🔎 ▶ ✓", "?  > v"), ("ab", "ab")):
        assert ascii_text(text) == plain


async def test_a_french_game_in_ascii_mode_draws_only_ascii() -> None:
    from ui import i18n

    i18n.use("fr")
    try:
        app = make_app(
            settings=UserSettings(name="Ann", language="fr"), ascii_mode=True,
            random_bytes=seeded(2), bot_delay=0,
        )  # fmt: skip
        async with app.run_test(size=(80, 24)) as pilot:
            await start_practice(pilot, "auf-achse", 3)
            await pilot.pause(0.5)
            text = screen_text(app)
    finally:
        i18n.use("en")
    assert "A votre course" in text or "Regles" in text, text
    assert ascii_only(text), sorted({ch for ch in text if ord(ch) > 127})


def test_a_card_that_cannot_be_played_is_told_apart_without_colour() -> None:
    """A faint frame is drawn black on black by a 16-colour terminal without colour: there, and
    in ASCII, a card that cannot be played has a dotted frame instead."""
    from ui.widgets.cardface import Look, boxes

    looks = [Look(" 5", "R"), Look(" 7", "B")]
    for ascii_mode, solid, dotted in ((True, "+---+", "....."), (False, "┌───┐", "┌┄┄┄┐")):
        plain = boxes(looks, ascii_mode=ascii_mode, dimmed=frozenset({0}), faint=False).plain
        assert plain.splitlines()[0].split() == [dotted, solid], plain
        faint = boxes(looks, ascii_mode=ascii_mode, dimmed=frozenset({0}), faint=True)
        assert faint.plain.splitlines()[0].split() == [solid, solid], "colour: a faint frame"
