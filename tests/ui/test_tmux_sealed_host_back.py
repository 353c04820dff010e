"""The app's host takes its own sealed seat back after a crash, in real terminals (tmux) with
real processes, as README.md says: host a sealed table from the app, two players' programs join
(`netcards bot`), play a few moves, kill the app (SIGKILL), `netcards host --resume JOURNAL
--headless` (the players come back by themselves), and `netcards join 127.0.0.1:PORT` on the
same machine with the same folders. The host's player is back in its seat, with its hand, and
the game goes on to its end and `deal verified` on every screen: its program kept the seat's
secrets (its seed, what the host told it, its deal notes) as a player who joined does."""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

import pytest

from tests.ui.tmux import NETCARDS, Tmux

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

JOIN_PORT = re.compile(r"netcards join\s+\S+?:(\d+)")
TURN = ["Home", "Enter"] + ["Right", "Enter"] * 11 + ["r"]
"""One Via Gladiola turn in one burst: the lowest card that may be walked, else rest."""


def play(tmux: Tmux, name: str, turns: int | None, until: str = "", seconds: float = 240) -> str:
    """`name` plays its turns (closing each day's summary with enter) until it played `turns`
    of them or `until` shows; its screen then."""
    played, deadline = 0, time.monotonic() + seconds
    while time.monotonic() < deadline:
        screen = tmux.screen(name)
        if (turns is not None and played >= turns) or (until and until in screen):
            return screen
        if "Your turn" in screen:
            tmux.keys(name, *TURN)
            played += 1
        elif "Press enter to go on" in " ".join(screen.split()):
            tmux.keys(name, "Enter")
        time.sleep(0.4)
    raise AssertionError(f"{name} got stuck:\n{tmux.screen(name)}")


def test_the_app_s_host_takes_its_sealed_seat_back_after_a_crash_and_resume(
    tmp_path: Path,
) -> None:
    tmux = Tmux(tmp_path)
    homes = {}
    for name in ("hana", "bea", "cy"):
        home = tmp_path / name
        home.mkdir()
        (home / "settings.json").write_text(json.dumps({"name": name.capitalize()}))
        homes[name] = home
    try:
        tmux.window(
            "host", homes["hana"],
            f"{NETCARDS} --ascii host --game via-gladiola --players 3 --sealed --port 0 "
            "--discovery-port 0",
        )  # fmt: skip
        lobby = " ".join(tmux.wait_for("host", "Players join with").split())
        found = JOIN_PORT.search(lobby)
        assert found is not None, lobby
        port = int(found.group(1))
        for name in ("bea", "cy"):
            tmux.window(
                name, homes[name],
                f"{NETCARDS} bot 127.0.0.1:{port} --name {name.capitalize()} --level random "
                "--delay 0.2",
                size=(120, 20),
            )  # fmt: skip
        tmux.wait_for("host", "Cy")
        tmux.keys("host", "r")
        tmux.wait_for("host", "Day 1 of 4")
        play(tmux, "host", 3)
        (journal,) = (homes["hana"] / "journals").glob("*.journal")
        tmux.kill("host")
        tmux.window(
            "resumed", homes["hana"],
            f"{NETCARDS} host --resume {journal} --headless --discovery-port 0",
            size=(120, 30),
        )  # fmt: skip
        tmux.wait_for("resumed", f"listening 0.0.0.0:{port}")
        tmux.wait_for("resumed", "is back in seat 2")
        tmux.wait_for("resumed", "is back in seat 3")
        tmux.window("back", homes["hana"], f"{NETCARDS} --ascii join 127.0.0.1:{port}")
        back = tmux.wait_for("back", "Hana (you)", 30)
        assert "cannot take back" not in back
        end = play(tmux, "back", None, until="deal verified")
        bea = tmux.wait_for("bea", "deal verified", 30)
        cy = tmux.wait_for("cy", "deal verified", 30)
        resumed = tmux.wait_for("resumed", "result {", 30)
    finally:
        tmux.close()
    assert "Day 1 of 4" in back or "Day 2 of 4" in back, "back at the game, not the menu"
    assert "Game over" in end and "Hana (you)" in end
    assert "deal NOT verified" not in bea + cy + end
    assert re.search(r"'Hana' \(127\.0\.0\.1:\d+\) is back in seat 1", resumed), resumed
