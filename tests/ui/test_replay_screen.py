"""Watching a finished game again: stepping forward and back, jumping by day, every hand."""

from __future__ import annotations

import json
import re
from pathlib import Path

from netcards.replay import from_finished_game
from tests.ui.pilots import finished_table, screen_text
from ui.app import make_app
from ui.replay import load_replay, save_replay
from ui.user_settings import UserSettings


def finished_replay(tmp: Path, game: str = "via-gladiola") -> Path:
    table = finished_table(game, 3, ("heuristic", "random"))
    names = [s.name for s in table.seats]
    return save_replay(
        from_finished_game(table.game, table.config, 0, names, table.seed, table.actions)
    )


async def test_a_replay_steps_forward_and_back_and_shows_every_hand_at_the_end(
    tmp_path: Path,
) -> None:
    path = finished_replay(tmp_path)
    assert json.loads(path.read_text())["seat"] == 0
    replay = load_replay(path)
    steps = replay.steps()
    app = make_app(settings=UserSettings(name="Ann"), replay=replay)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.step_index == 0
        assert screen.client.view == steps[0].view
        await pilot.press("n", "n", "n")
        assert screen.step_index == 3 and screen.client.view == steps[3].view
        assert "move 3 of" in screen_text(app)
        await pilot.press("p")
        assert screen.step_index == 2 and screen.client.view == steps[2].view
        assert len(screen.client.log) == sum(len(s.events) for s in steps[:3])
        await pilot.press("right_square_bracket")
        assert steps[screen.step_index].boundary, "jumped to the start of day 2"
        assert screen.client.view["day"] == 2
        await pilot.press("left_square_bracket")
        assert screen.step_index == 0
        assert "Every hand" not in screen_text(app)
        await pilot.press("a")
        assert "Every hand" in screen_text(app)
        await pilot.press("a", "end")
        assert screen.step_index == len(steps) - 1
        text = screen_text(app)
        assert "Every hand" in text and "Bot 2:" in text
        await pilot.press("q")


async def test_a_replay_offers_no_chat_it_cannot_have(tmp_path: Path) -> None:
    replay = load_replay(finished_replay(tmp_path))
    app = make_app(settings=UserSettings(name="Ann"), replay=replay)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("c", "h", "i")
        await pilot.pause(0.1)
        text = screen_text(app)
    assert "press c" not in text, "c does nothing in a replay"
    assert "chat" not in text.lower()


def test_netcards_replay_refuses_a_file_that_is_not_a_replay(tmp_path: Path) -> None:
    import subprocess
    import sys

    bad = tmp_path / "x.replay.json"
    bad.write_text("[1, 2]")
    done = subprocess.run(
        [sys.executable, "-c", "from ui.cli import main; main()", "replay", str(bad)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "is not a replay file" in done.stderr and done.stderr.count("\n") == 1


async def test_the_rules_closed_at_a_replay_s_last_move_bring_back_the_replay(
    tmp_path: Path,
) -> None:
    """Back from a screen on top at the end of a replay: the replay, as it was (a game screen
    goes to its results then, and a replay has none to show)."""
    replay = load_replay(finished_replay(tmp_path))
    app = make_app(settings=UserSettings(name="Ann"), replay=replay)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("end", "question_mark")
        await pilot.pause(0.3)
        assert app.screen is not screen, "the rules are open"
        await pilot.press("escape")
        await pilot.pause(0.3)
        assert app.is_running and app.screen is screen
        assert "] Next day" in screen_text(app).splitlines()[-1]
        assert screen.step_index == len(replay.steps()) - 1
        assert "Every hand" in screen_text(app)


async def test_every_hand_of_a_velonimo_replay_tells_the_colours(tmp_path: Path) -> None:
    """A Velonimo card is its value and its colour: the hands of a replay say both ('5R')."""
    replay = load_replay(finished_replay(tmp_path, "velonimo"))
    app = make_app(settings=UserSettings(name="Ann"), replay=replay, ascii_mode=True)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause(0.2)
        text = screen_text(app)
        assert "] Next round" in text.splitlines()[-1], "the game's own word for its parts"
        hands = text[text.index("Every hand") :]
        assert re.search(r": (\S+ )*\d(R|O|Y|G|Bl|P|Br)\b", hands), hands


async def test_every_hand_of_an_auf_achse_replay_shows_the_runs_too(tmp_path: Path) -> None:
    """An Auf Achse run is built face down: a replay's look at every hand shows it, in the
    order it was laid."""
    replay = load_replay(finished_replay(tmp_path, "auf-achse"))
    steps = replay.steps()
    middle = next(i for i, s in enumerate(steps) if any(s.hands.get(f"run:{p}") for p in (1, 2)))
    app = make_app(settings=UserSettings(name="Ann"), replay=replay, ascii_mode=True)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press(*["n"] * middle, "a")
        await pilot.pause(0.2)
        text = screen_text(app)
        assert re.search(r"'s run: \d", text), text
