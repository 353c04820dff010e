"""The hint key: the search bot's move for your seat, in words, with its chance to win and how
sure the search is of it."""

from __future__ import annotations

import re

import pytest

import ui.games.base
from tests.ui.pilots import seeded, start_practice, wait_until
from ui.app import make_app
from ui.user_settings import UserSettings


@pytest.mark.parametrize("game", ["via-gladiola", "auf-achse"])
async def test_h_shows_a_legal_move_and_a_win_chance(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ui.games.base, "HINT_SECONDS", 0.3)
    app = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(4), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, game, 2)
        screen = app.screen
        client = screen.client
        await wait_until(pilot, lambda: client.my_turn, seconds=30)
        seq = client.seq
        await pilot.press("h")
        await wait_until(pilot, lambda: screen.message.startswith("Hint:"), seconds=20)
        match = re.fullmatch(
            r"Hint: (.+) \(about (\d+)% to win; "
            r"(the only move|clearly the best|probably the best|a close call)\)",
            screen.message,
        )
        assert match is not None, screen.message
        assert 0 <= int(match.group(2)) <= 100
        # The words name one of this turn's legal moves, and nothing was played for us.
        words = {screen.describe_move(a) for a in client.legal_actions()}
        assert match.group(1) in words
        assert client.seq == seq and client.my_turn
