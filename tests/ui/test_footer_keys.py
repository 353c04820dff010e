"""The footer offers only keys that do something for whoever looks at it: a replay only its
own, and every key offered fits at 80 columns (a watcher's footer: test_spectator_and_clock)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.ui.pilots import screen_text
from tests.ui.test_replay_screen import finished_replay
from ui.app import make_app
from ui.i18n import _
from ui.replay import load_replay
from ui.user_settings import UserSettings

PLAYERS_KEYS = ("Hint", "Rest", "Walk", "Play", "Pass")


def footer(app: Any) -> str:
    return screen_text(app).splitlines()[-1]


def shown_keys(app: Any) -> list[str]:
    """The descriptions of the keys the footer is asked to show."""
    return [
        _(b.binding.description)
        for b in app.screen.active_bindings.values()
        if b.binding.show and b.binding.description
    ]


async def test_a_replay_shows_its_own_keys_only_and_all_of_them_fit(tmp_path: Path) -> None:
    replay = load_replay(finished_replay(tmp_path))
    app = make_app(settings=UserSettings(name="Ann"), replay=replay)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        line = footer(app)
        for word in (*PLAYERS_KEYS, "Chat"):
            assert word not in line, line
        for description in shown_keys(app):
            assert description in line, (description, line)


@pytest.mark.parametrize(("players", "digits"), [(2, "1-2"), (3, "1-3")])
async def test_the_digits_that_choose_a_seat_go_as_far_as_the_table_s_seats(
    players: int, digits: str
) -> None:
    """A duel has two seats: a footer saying 1-5 offers three keys that do nothing."""
    from tests.ui.pilots import seeded, start_practice, wait_until

    app = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(2), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "velonimo", players)
        await wait_until(pilot, lambda: bool(getattr(app.screen, "view", None)))
        (pick,) = [b for b in type(app.screen).BINDINGS if b.action == "pick(0)"]
        assert app.get_key_display(pick) == digits


@pytest.mark.parametrize(
    ("opened", "words"),
    [
        ("join", ("Join", "Back")),
        ("password", ("Join", "Back")),
        ("between", ("Go on",)),
        ("help", ("Close",)),
    ],
)
async def test_forms_and_dialogs_name_their_keys_on_the_bottom_line(
    opened: str, words: tuple[str, ...]
) -> None:
    """The bottom line always shows the keys of the moment: over a question, a summary or a
    form too (a blank line there left the player guessing how to go on)."""
    from ui.screens.between_deals import BetweenDeals
    from ui.screens.help import HelpScreen
    from ui.screens.join import JoinScreen
    from ui.screens.password import PasswordPrompt

    screen = {
        "join": lambda: JoinScreen("127.0.0.1"),
        "password": lambda: PasswordPrompt("Ann's table"),
        "between": lambda: BetweenDeals("Day 1 is over", ["Ann: 3"], seconds=60),
        "help": lambda: HelpScreen("Keys", [("enter", "plays")]),
    }[opened]()
    app = make_app(settings=UserSettings(name="Ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(screen)
        await pilot.pause()
        line = footer(app)
        for word in words:
            assert word in line, line
