"""A table's options away from the game's defaults are said where its players look: the lobby
before the game, the rules (`?`) during it. A variant nobody can see changes the game under
their feet."""

from __future__ import annotations

from tests.ui.pilots import screen_text, start_practice, wait_until
from ui.app import make_app
from ui.session import TablePlan
from ui.user_settings import UserSettings

VARIANT = "Variant: the game ends when a player plays their last card."


async def test_the_lobby_says_the_variant_is_on_and_says_nothing_of_defaults() -> None:
    for options, shown in (({"variant_last_card": True}, True), ({}, False)):
        plan = TablePlan("via-gladiola", 3, options, bind="127.0.0.1", port=0, discovery=False)
        app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False, host=plan)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: "Host fingerprint" in screen_text(pilot.app))
            words = " ".join(screen_text(app).split())
            assert (VARIANT in words) is shown, words
            assert "This table:" not in words, "the first player is random, as by default"


async def test_the_rules_in_a_game_start_with_this_table_s_options() -> None:
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False, bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await start_practice(pilot, "velonimo", 3, {"difficulties": "1,2"})
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "RulesScreen")
        await wait_until(pilot, lambda: "This table" in screen_text(app))
        words = " ".join(screen_text(app).split())
        assert "as many rounds as values. This table: 1,2." in words, words
