"""Watching a finished game again: stepping forward and back, jumping by day, every hand."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from netcards.replay import from_finished_game
from tests.ui.bursts import burst
from tests.ui.pilots import finished_table, screen_text
from ui import i18n
from ui.app import make_app
from ui.i18n import _
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


def four_player_auf_achse(tmp: Path) -> Path:
    table = finished_table("auf-achse", 4, ("heuristic", "random"))
    names = [s.name for s in table.seats]
    return save_replay(
        from_finished_game(table.game, table.config, 0, names, table.seed, table.actions)
    )


async def test_next_stage_in_an_auf_achse_replay_goes_to_the_next_stage_not_round(
    tmp_path: Path,
) -> None:
    """A stage has several rounds: ] says "Next stage", so it passes them all, and [ goes back
    to the stage before the one shown, from its middle too."""
    replay = load_replay(four_player_auf_achse(tmp_path))
    steps = replay.steps()
    stages = max(s.view["stage"] for s in steps)
    assert stages > 2 and any(s.view["round"] > 1 for s in steps), "rounds inside stages"
    app = make_app(settings=UserSettings(name="Ann"), replay=replay)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert "] Next stage" in screen_text(app).splitlines()[-1]
        for stage in range(2, stages + 1):
            await pilot.press("right_square_bracket")
            view = screen.client.view
            assert (view["stage"], view["round"]) == (stage, 1), (stage, view["round"])
        await pilot.press("right_square_bracket")
        assert screen.step_index == len(steps) - 1, "past the last stage: the end"
        await pilot.press("home", "right_square_bracket", "right_square_bracket")
        await pilot.press("left_square_bracket")
        assert (screen.client.view["stage"], screen.client.view["round"]) == (2, 1)
        later = next(i for i, s in enumerate(steps) if s.view["stage"] > 1 and s.view["round"] > 1)
        # Into that stage's middle: to its start with ], then a move at a time (n).
        await pilot.press("home", "right_square_bracket")
        assert screen.step_index <= later
        await pilot.press(*["n"] * (later - screen.step_index))
        assert screen.step_index == later
        stage = screen.client.view["stage"]
        await pilot.press("left_square_bracket")
        view = screen.client.view
        assert (view["stage"], view["round"]) == (stage - 1, 1), "the stage before, not round 1"
        await pilot.press("left_square_bracket")
        assert screen.step_index == 0 or screen.client.view["stage"] == stage - 2


async def test_the_command_palette_offers_the_replay_s_jumps_by_their_names(
    tmp_path: Path,
) -> None:
    """Every key of a screen is a command: typing "stage" finds ] and [ of an Auf Achse replay."""
    replay = load_replay(four_player_auf_achse(tmp_path))
    app = make_app(settings=UserSettings(name="Ann"), replay=replay)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Next stage" in titles and "Previous stage" in titles, titles
        await burst(pilot, "ctrl+p")
        await pilot.pause(0.3)
        await burst(pilot, "stage")
        await pilot.pause(0.5)
        text = screen_text(app)
        assert "Next stage" in text and "Previous stage" in text, text
        await burst(pilot, "enter")
        await pilot.pause(0.3)
        assert app.screen.client.view["stage"] == 2, "the command does what the key does"


async def test_every_hand_of_four_auf_achse_players_scrolls_at_80x24(tmp_path: Path) -> None:
    """Four hands and four runs are more lines than an 80x24 window has under the table: they
    scroll with the arrows, which the key bar names, and the table stays in view."""
    replay = load_replay(four_player_auf_achse(tmp_path))
    steps = replay.steps()
    middle = next(i for i, s in enumerate(steps) if s.view["stage"] == 3)
    app = make_app(settings=UserSettings(name="Ann"), replay=replay)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press(*["n"] * middle)
        bar = screen_text(app).splitlines()[-1]
        assert "Scroll" not in bar, "nothing to scroll while only your hand is shown"
        await pilot.press("a")
        await pilot.pause(0.2)
        text = screen_text(app)
        assert "Every hand" in text and "Bot 4's run" not in text, "the last lines are below"
        assert "↓ Scroll hands" in text.splitlines()[-1]
        await burst(pilot, *["down"] * 12)  # as fast as a terminal sends them: none lost
        await pilot.pause(0.2)
        text = screen_text(app)
        assert "Bot 4:" in text and "Bot 4's run:" in text, text
        assert "Stage 3 of 5" in text, "the table above stays"
        await burst(pilot, *["up"] * 12)
        await pilot.pause(0.2)
        assert "Every hand" in screen_text(app)


@pytest.mark.parametrize("language", ["fr", "nl"])
async def test_the_scroll_key_of_every_hand_fits_the_key_bar_in_every_language(
    tmp_path: Path, language: str
) -> None:
    """The key bar of a replay is full at 80 columns: the scroll key's word must not be cut."""
    replay = load_replay(four_player_auf_achse(tmp_path))
    i18n.use(language)
    try:
        app = make_app(settings=UserSettings(name="Ann", language=language), replay=replay)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("right_square_bracket", "right_square_bracket", "a")
            await pilot.pause(0.2)
            bar = screen_text(app).splitlines()[-1]
            assert bar.endswith("↓ " + _("Scroll hands")), bar
            assert _("Next stage") in bar
    finally:
        i18n.use("en")


async def test_a_replay_names_the_stand_in_s_moves_as_the_live_log_did(tmp_path: Path) -> None:
    """The player's program knew which of its seat's moves a bot made (a stand-in, the turn
    clock's): the replay file keeps it, and its log says "Your stand-in", as the table's did.
    A replay file from before says nothing of it and still loads (all moves the player's)."""
    table = finished_table("via-gladiola", 3, ("heuristic", "random"))
    names = [s.name for s in table.seats]
    ours = [i for i, (seat, _data) in enumerate(table.actions, 1) if seat == 0]
    by_bot = ours[1]
    path = save_replay(
        from_finished_game(
            table.game, table.config, 0, names, table.seed, table.actions, stand_in=[by_bot, 1_000]
        )
    )
    data = json.loads(path.read_text())
    assert data["stand_in"] == [by_bot]
    replay = load_replay(path)
    assert replay.stand_in == {by_bot}
    app = make_app(settings=UserSettings(name="Ann"), replay=replay)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        screen = app.screen

        def log() -> str:
            return " ".join("".join(g.text for g in row) for row in screen.query_one("#log").lines)

        screen.go(by_bot - 1)
        await pilot.pause()
        assert "Your stand-in" not in log() and "You " in log()
        screen.go(by_bot)
        await pilot.pause()
        assert "Your stand-in" in log(), log()
        await pilot.press("q")
    del data["stand_in"]
    path.write_text(json.dumps(data))
    assert load_replay(path).stand_in == frozenset()
