"""The app as people use it, in real terminals (tmux) with real processes: keys typed in bursts,
at 80x24, 60x20 and 160x48, with --ascii, TERM=xterm, NO_COLOR and the C locale.

A host and a player find each other, chat, play, and the host leaves: the player is told at once,
with the results so far. A host that is killed instead leaves the player waiting to reconnect.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from tests.network.processes import free_udp_base
from tests.ui.tmux import NETCARDS, Tmux

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

JOIN_PORT = re.compile(r"netcards join\s+\S+?:(\d+)")
TURN = ["Home", "Enter"] + ["Right", "Enter"] * 11 + ["r"]
"""One Via Gladiola turn in one burst: the lowest card that may be walked, else rest."""


def homes(folder: Path, *names: str) -> dict[str, Path]:
    found = {}
    for name in names:
        home = folder / name
        home.mkdir()
        (home / "settings.json").write_text(json.dumps({"name": name.capitalize()}))
        found[name] = home
    return found


def open_table(tmux: Tmux, home: Path, options: str, **window: Any) -> int:
    """The host's app, from `netcards [options]`, once its lobby shows; returns its port."""
    tmux.window("host", home, f"{NETCARDS} {options}", **window)
    lobby = " ".join(tmux.wait_for("host", "Players join with").split())
    port = JOIN_PORT.search(lobby)
    assert port is not None, lobby
    return int(port.group(1))


def play(tmux: Tmux, names: tuple[str, ...], turns: int) -> None:
    """Each player whose turn it is plays it, until `turns` turns were played."""
    played, deadline = 0, time.monotonic() + 60
    while played < turns:
        assert time.monotonic() < deadline, "the game got stuck"
        for name in names:
            if "Your turn" in tmux.screen(name):
                tmux.keys(name, *TURN)
                played += 1
                time.sleep(0.5)


def ascii_only(screen: str) -> bool:
    return all(ord(ch) < 128 for ch in screen)


def test_a_host_who_leaves_tells_the_player_at_once_with_the_results_so_far(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NETCARDS_DISCOVERY_PORT", str(free_udp_base()))
    tmux = Tmux(tmp_path)
    home = homes(tmp_path, "host", "bea")
    xterm = {"TERM": "xterm"}
    try:
        open_table(
            tmux, home["host"], "host --game via-gladiola --players 2 --port 0 --name Kitchen",
            env=xterm,
        )  # fmt: skip
        tmux.window("bea", home["bea"], NETCARDS, env=xterm)
        tmux.wait_for("bea", "Find tables on the LAN")
        tmux.keys("bea", "f")
        tmux.wait_for("bea", "Kitchen")
        tmux.keys("bea", "Enter")  # the list says "enter joins": it does
        tmux.wait_for("bea", "First visit to")
        tmux.keys("bea", "y")
        tmux.wait_for("bea", "Host fingerprint")
        # Enter sends and keeps the chat open for the next line; escape goes back to the table.
        tmux.keys("bea", "c", "hello from Bea", "Enter", "Escape", "r")
        tmux.wait_for("host", "Bea: hello from Bea")
        tmux.keys("host", "c", "welcome", "Enter", "Escape", "r")
        for name in ("host", "bea"):
            tmux.wait_for(name, "Day 1 of 4")
        tmux.wait_for("bea", "welcome")
        play(tmux, ("host", "bea"), 3)
        tmux.keys("host", "Escape")
        tmux.wait_for("host", "Close the table?")
        tmux.keys("host", "y")
        left = time.monotonic()
        screen = tmux.wait_for("bea", "The host closed the table. Results so far:", 10)
        told_after = time.monotonic() - left
        tmux.wait_for("bea", "deal verified")
        host_results = tmux.wait_for("host", "You closed the table. Results so far:")
        tmux.wait_for("host", "deal verified")
        tmux.keys("host", "m")
        host_screen = tmux.wait_for("host", "Host a table")
    finally:
        tmux.close()
    assert told_after < 5, "the player is told at once"
    assert "Bea (you)" in screen and "Host" in screen
    assert "Host (you)" in host_results and "Bea" in host_results, "the host sees them too"
    for shown in (screen, host_results, host_screen):
        assert "Connection lost" not in shown and "not sent" not in shown


def test_a_killed_host_leaves_the_player_reconnecting_and_its_resume_takes_all_back_60_by_20(
    tmp_path: Path,
) -> None:
    """Killed, the host's app says nothing: its player waits. `host --resume JOURNAL
    --headless` alone (no --port) opens the table where it was, the player is back by
    themselves, and the host's own player takes their seat back with `join`."""
    tmux = Tmux(tmp_path)
    home = homes(tmp_path, "host", "bea")
    plain = {"NO_COLOR": "1"}
    try:
        port = open_table(
            tmux, home["host"],
            "--ascii host --game via-gladiola --players 2 --port 0 --discovery-port 0",
            size=(60, 20), env=plain,
        )  # fmt: skip
        tmux.window("bea", home["bea"], f"{NETCARDS} --ascii", size=(60, 20), env=plain)
        tmux.wait_for("bea", "Join by address")
        tmux.keys("bea", "j", f"127.0.0.1:{port}", "Enter")  # one burst
        tmux.wait_for("bea", "First visit to")
        tmux.keys("bea", "y")
        tmux.wait_for("bea", "Host fingerprint")
        tmux.keys("bea", "r")
        tmux.keys("host", "r")
        # Joining works at 60x20, and so does the table (its compact layout: the log behind l).
        tmux.wait_for("bea", "Day 1 of 4")
        tmux.wait_for("bea", "l Log")
        tmux.kill("host")
        screen = tmux.wait_for("bea", "Reconnecting", 15)
        (journal,) = (home["host"] / "journals").glob("*.journal")
        # Named from the date and time on, as the headless host's are: `ls` puts the newest last.
        assert re.fullmatch(r"\d{8}-\d{6}-via-gladiola-\d+-[0-9a-f]{4}\.journal", journal.name)
        tmux.window(
            "resumed",
            home["host"],
            f"{NETCARDS} host --resume {journal} --headless --discovery-port 0",
        )
        tmux.wait_for("resumed", f"listening 0.0.0.0:{port}")
        tmux.wait_for("resumed", "is back in seat 2")
        tmux.window("back", home["host"], f"{NETCARDS} --ascii join 127.0.0.1:{port}")
        back = tmux.wait_for("back", "Host (you)", 20)
    finally:
        tmux.close()
    assert "closed the table" not in screen, "a crash is not a host leaving"
    assert ascii_only(screen), screen
    assert "Day 1 of 4" in back, "the host's player is back at the game, in their seat"


def test_the_c_locale_draws_in_ascii_and_the_rules_read_at_160_by_48(tmp_path: Path) -> None:
    tmux = Tmux(tmp_path)
    home = homes(tmp_path, "ann")
    try:
        tmux.window(
            "ann", home["ann"], NETCARDS, size=(160, 48), env={"LANG": "C", "TERM": "xterm"}
        )
        menu = tmux.wait_for("ann", "Practise against bots")
        tmux.keys("ann", "r", "End", "Enter")  # the rules, of the last game: Via Gladiola
        rules = tmux.wait_for("ann", "The cards")
    finally:
        tmux.close()
    assert ascii_only(menu), menu
    assert ascii_only(rules), rules
    assert "Via Gladiola" in rules and "blisters" in rules
