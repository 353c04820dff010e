"""ASCII mode: chosen from the locale and the terminal as the C library would, and the rules
stay readable in it (from the menu and from a game)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.bursts import burst
from tests.ui.pilots import screen_text, seeded, start_practice, wait_until
from ui.app import make_app
from ui.terminal import unicode_ok
from ui.user_settings import UserSettings


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
    assert unicode_ok(environ) is unicode


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
        await burst(pilot, "up", "enter")  # the last entry: Via Gladiola
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
