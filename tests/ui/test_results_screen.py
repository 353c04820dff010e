"""The results are read before anything else happens: no key that a player may still be
pressing from the last move starts a new game, and the title stays on screen at 80x24."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from netcards.fairdeal import Verdict
from tests.ui.pilots import burst, finished_table, screen_text
from ui.app import make_app
from ui.screens.results import ResultsScreen
from ui.user_settings import UserSettings


def finished_session(game: str, players: int) -> Any:
    """A session whose table played a whole game between bots (the first seat is 'Ann')."""
    table = finished_table(game, players)
    outcome = table.game.outcome(table.state)
    assert outcome is not None
    client = SimpleNamespace(
        outcome=outcome,
        names=[s.name for s in table.seats],
        seat=0,
        game=table.game,
        config=table.config,
        verdict=Verdict(),
        replay=lambda: None,
        host_closed=False,
        last_game=False,
    )
    return SimpleNamespace(client=client, host=None)


async def test_enter_and_space_on_the_results_start_no_new_game() -> None:
    app = make_app(settings=UserSettings(name="Ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(ResultsScreen(finished_session("via-gladiola", 3)))
        await pilot.pause()
        await burst(pilot, "enter", "enter", "space", "enter")
        await pilot.pause(0.2)
        assert isinstance(app.screen, ResultsScreen)


async def test_the_results_keep_their_title_on_screen_at_80_by_24() -> None:
    app = make_app(settings=UserSettings(name="Ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(ResultsScreen(finished_session("velonimo", 5)))
        await pilot.pause()
        text = screen_text(app)
        assert "Game over" in text
        assert "deal verified" in text or "down" in text.lower()


async def test_the_score_column_is_named_in_the_player_s_language() -> None:
    from ui import i18n

    i18n.use("fr")
    try:
        app = make_app(settings=UserSettings(name="Ann", language="fr"))
        async with app.run_test(size=(80, 24)) as pilot:
            await app.push_screen(ResultsScreen(finished_session("via-gladiola", 3)))
            await pilot.pause()
            text = screen_text(app)
    finally:
        i18n.use("en")
    assert "ampoules" in text.split("\n", 4)[3], text
    assert "blisters" not in text


async def test_a_saved_replay_s_command_is_not_hidden_under_a_notice(tmp_path: Any) -> None:
    from netcards.replay import from_finished_game

    table = finished_table("via-gladiola", 3)
    session = finished_session("via-gladiola", 3)
    names = [s.name for s in table.seats]
    replay = from_finished_game(table.game, table.config, 0, names, table.seed, table.actions)
    session.client.replay = lambda: replay
    app = make_app(settings=UserSettings(name="Ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(ResultsScreen(session))
        await pilot.pause()
        await burst(pilot, "s")
        await pilot.pause(0.3)
        text = " ".join(screen_text(app).split())
        notices = len(app._notifications)  # (the toasts drawn over the screen)
    assert "Replay saved; watch it with: netcards replay " in text, text
    assert not notices, "a notice over the results would hide the command they show"


async def test_a_table_closed_early_has_leaders_and_no_winner() -> None:
    """Standings so far name nobody the winner: those ahead are leading, and when every seat is
    level (closed before anything was scored) nobody is."""
    from dataclasses import replace

    session = finished_session("via-gladiola", 3)
    done = session.client.outcome
    level = replace(done, scores=(0, 0, 0), winners=(0, 1, 2), places=(1, 1, 1))
    ahead = replace(done, scores=(2, 5, 7), winners=(0,), places=(1, 2, 3))
    for standings, leading in ((level, 0), (ahead, 1)):
        session.client.outcome, session.client.standings = None, standings
        app = make_app(settings=UserSettings(name="Ann"))
        async with app.run_test(size=(80, 24)) as pilot:
            await app.push_screen(ResultsScreen(session))
            await pilot.pause()
            text = screen_text(app)
        assert "The host closed the table. Results so far:" in text
        assert "winner" not in text, text
        assert text.count("leading") == leading, text
        header = next(line for line in text.splitlines() if "place" in line)
        cells = [cell.strip() for cell in header.strip().strip("┃").split("┃")]
        # Nobody ahead: no column for the word, rather than an empty one without a title.
        assert cells == ["place", "player", "blisters", *([""] if leading else [])], header


async def test_play_again_asks_for_the_table_as_it_ended() -> None:
    session = finished_session("via-gladiola", 3)
    session.client.lobby = object()  # the last lobby the table sent
    asked: list[object] = []
    app = make_app(settings=UserSettings(name="Ann"))
    app.play_again = asked.append  # type: ignore[method-assign,assignment]
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(ResultsScreen(session))
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
    assert asked == [session.client.lobby]


async def test_a_table_that_closes_after_its_game_offers_no_next_game() -> None:
    """A headless host says its table closes with the results: Play again would only send the
    player to an address where nobody answers. The screen says why the key is gone."""
    session = finished_session("velonimo", 3)
    session.client.last_game = True
    app = make_app(settings=UserSettings(name="Ann"))
    app.play_again = lambda *_: pytest.fail("Play again at a table that closed")  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(ResultsScreen(session))
        await pilot.pause()
        await burst(pilot, "a")
        await pilot.pause(0.2)
        text = screen_text(app)
    assert "there is no next game here" in text, text
    assert "Play again" not in text, text


@pytest.mark.parametrize(("sealed", "said"), [(False, "could not choose"), (True, "stayed sealed")])
async def test_a_verified_deal_says_what_was_verified(sealed: bool, said: str) -> None:
    """A sealed table's players read that the host could neither see nor choose their cards;
    a classic table's only that it could not choose them (it saw them)."""
    session = finished_session("via-gladiola", 3)
    session.client.sealed = object() if sealed else None
    app = make_app(settings=UserSettings(name="Ann"))
    async with app.run_test(size=(100, 30)) as pilot:
        await app.push_screen(ResultsScreen(session))
        await pilot.pause()
        text = " ".join(screen_text(app).split())
    assert "deal verified" in text and said in text
    assert ("neither see" in text) is sealed
