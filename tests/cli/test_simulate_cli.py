"""`netcards simulate`, `rules` and `deck`, and the mistakes of any command line, from the
outside: real processes, real exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

NETCARDS = [sys.executable, "-c", "from ui.cli import main; main()"]


def netcards(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*NETCARDS, *args], check=False, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--game", "chess"], "unknown game 'chess'"),
        (["simulate", "--game", "via-gladiola", "--players", "7"], "for 2 to 5 players, not 7"),
        (["simulate", "--game", "via-gladiola", "--option", "speed=3"], "unknown option 'speed'"),
        (
            ["simulate", "--game", "via-gladiola", "--option", "variant_last_card=maybe"],
            "true or false",
        ),
        (["simulate", "--game", "via-gladiola", "--bots", "genius"], "unknown bot level 'genius'"),
        (["simulate", "--game", "velonimo", "--bots", "search:fast"], "bad search budget 'fast'"),
        (["bot", "127.0.0.1", "--level", "search:-1"], "bad search budget '-1'"),
        (
            ["host", "--headless", "--game", "velonimo", "--players", "3", "--stand-in", "x"],
            "unknown bot level 'x'",
        ),
        (["simulate", "--game", "via-gladiola", "--games", "0"], "--games must be at least 1"),
        (["simulate", "--game", "via-gladiola", "--players", "two"], "invalid int value"),
        (
            ["simulate", "--game", "via-gladiola", "--deck", "/no/such/deck.toml"],
            "cannot read deck file",
        ),
        (["rules", "chess"], "unknown game 'chess'"),
        (["host", "--headless", "--grace", "-3"], "'-3' is not a number of seconds"),
        (["host", "--headless", "--turn-clock", "nan"], "'nan' is not a number of seconds"),
        (["host", "--headless", "--port", "70000"], "a port is a number from 0 to 65535"),
        (["bot", "127.0.0.1", "--delay", "-1"], "'-1' is not a number of seconds"),
        (["discover", "--timeout", "0"], "must be more than 0 seconds"),
        (["discover", "--port", "0"], "a port is a number from 1 to 65535, not 0"),
        (  # an address of no interface here (binding to it sends nothing anywhere)
            ["host", "--headless", "--game", "via-gladiola", "--bind", "192.0.2.1", "--port", "0"],
            "cannot listen on 192.0.2.1 (--bind)",
        ),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_exit_status_2(args: list[str], message: str) -> None:
    result = netcards(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr


def test_malformed_deck_file_is_named(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text('game = "via-gladiola"\n[distance]\n1 = 9\n')
    result = netcards("simulate", "--game", "via-gladiola", "--deck", str(deck))
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "netcards: error: deck file: [distance] 1 must be between 0 and 5, not 9"
    )


def test_simulate_json_summary() -> None:
    result = netcards(
        "simulate", "--game", "via-gladiola", "--players", "3", "--games", "40",
        "--seed", "5", "--bots", "heuristic,random", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["games"] == 40 and summary["players"] == 3
    assert summary["bots"] == ["heuristic", "random", "heuristic"]
    assert sum(summary["wins_by_seat"]) == pytest.approx(40)
    assert set(summary["wins_by_bot"]) == {"heuristic", "random"}
    assert len(summary["mean_score_by_seat"]) == 3
    assert summary["games_per_second"] > 0


def test_simulate_is_deterministic_for_a_seed() -> None:
    args = ["simulate", "--game", "via-gladiola", "--games", "20", "--seed", "9", "--json"]
    first, second = json.loads(netcards(*args).stdout), json.loads(netcards(*args).stdout)
    for key in ("wins_by_seat", "mean_score_by_seat"):
        assert first[key] == second[key]


def test_simulate_with_a_deck_file_and_the_variant(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text(netcards("deck", "via-gladiola").stdout)
    result = netcards(
        "simulate", "--game", "via-gladiola", "--deck", str(deck),
        "--option", "variant_last_card=true", "--games", "5", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr


def test_rules_prints_our_rules_page() -> None:
    result = netcards("rules", "via-gladiola")
    assert result.returncode == 0
    assert result.stdout.startswith("# Via Gladiola")
    assert "Stalemate guard" in result.stdout


@pytest.mark.parametrize(
    ("lang", "game", "words"),
    [
        ("fr", "via-gladiola", "ampoules"),
        ("nl", "via-gladiola", "blaren"),
        ("fr", "velonimo", "Maillot"),
        ("nl", "auf-achse", "kilometerteller"),
    ],
)
def test_rules_in_french_and_dutch(lang: str, game: str, words: str) -> None:
    result = netcards("--lang", lang, "rules", game)
    assert result.returncode == 0
    assert words in result.stdout
    assert result.stdout != netcards("rules", game).stdout
