"""Players choose and read bot levels by how hard they play; the identifiers stay as they are."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from textual.widgets import Select

from netcards.bots.registry import bot_levels
from tests.ui.pilots import screen_text, wait_until
from ui import i18n, notices
from ui.app import make_app
from ui.bot_levels import level_choice, level_name
from ui.user_settings import UserSettings


@pytest.fixture(autouse=True)
def _english_again() -> Iterator[None]:
    yield
    i18n.use("en")


def test_each_level_is_named_by_how_hard_it_plays() -> None:
    assert [level_name(level) for level in ("random", "heuristic", "search")] == [
        "easy",
        "medium",
        "hard",
    ]
    # a budget says how long the bot thinks: it stays beside the name
    assert level_name("search:1s") == "hard, search:1s"
    assert level_name("search:200") == "hard, search:200"
    # a level this program does not know (a newer host's) is shown as the host names it
    assert level_name("oracle") == "oracle"


def test_every_level_the_engine_offers_has_a_name_and_a_line_in_the_list() -> None:
    for level in bot_levels():
        assert level_name(level) != level, f"{level!r} has no name for players"
        assert level_choice(level).startswith(level_name(level)), level


def test_names_follow_the_player_s_language() -> None:
    i18n.use("fr")
    assert level_name("heuristic") == "moyen"
    assert level_name("search:1s") == "difficile, search:1s"
    assert level_choice("random") == "facile\N{NO-BREAK SPACE}: joue un coup permis au hasard"
    i18n.use("nl")
    assert level_name("search") == "moeilijk"


def test_a_stand_in_notice_names_the_level_for_players() -> None:
    text = notices.say("stand_in", {"seat": 1, "name": "Bea", "level": "search"})
    assert text == "Bea is away: a hard bot plays for them until they come back"
    i18n.use("fr")
    text = notices.say("stand_in", {"seat": 1, "name": "Bea", "level": "heuristic"})
    assert (
        text
        == "Bea n'est plus là\N{NO-BREAK SPACE}: un bot (moyen) joue à sa place jusqu'à son retour"
    )


async def test_the_host_form_lists_levels_by_name_and_keeps_the_identifier() -> None:
    i18n.use("fr")
    app = make_app(settings=UserSettings(name="Ann", language="fr"), ascii_mode=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "HostSetupScreen")
        level = app.screen.query_one("#level", Select)
        assert level.value == "heuristic"
        level.focus()
        await pilot.pause(0.1)
        await pilot.press("enter")  # the list opens
        await pilot.pause(0.3)
        text = screen_text(app).replace("\N{NO-BREAK SPACE}", " ")  # a space, on a screen
        for line in (
            "facile : joue un coup permis au hasard",
            "moyen : joue selon des règles simples",
            "difficile : réfléchit à l'avance, une demi-seconde par coup",
        ):
            assert line in text, (line, text)
        assert "heuristic" not in text
        assert "Dismiss menu" not in text  # the open list's own key, in French too
        await pilot.press("down", "enter")
        await pilot.pause(0.1)
        assert level.value == "search"
