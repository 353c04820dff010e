"""End to end in real terminals: a host and two players, each `netcards` in its own tmux window.

Keys go in with `send-keys` and screens come out with `capture-pane`, as a person would see them.
The three take their seats, become ready, play Via Gladiola to the end of the first day, and each
screen shows only its own hand (checked against the host's journal, replayed).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from netcards.fairdeal import combine
from netcards.games.via_gladiola.cards import deck_for, kind_of
from netcards.registry import get_game
from protocol.journal_file import read_journal

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

NETCARDS = f"{sys.executable} -c 'from ui.cli import main; main()'"
CARD = re.compile(r"[│|] *([0-9]{1,2}|FIN|GLA)[│|]")


class Tmux:
    def __init__(self, folder: Path) -> None:
        self.socket = str(folder / "tmux.sock")

    def run(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-S", self.socket, *args], capture_output=True, text=True, check=True
        )
        return done.stdout

    def window(self, name: str, home: Path, command: str) -> None:
        env = (
            f"NETCARDS_CONFIG_DIR={home} NETCARDS_DATA_DIR={home} "
            "NETCARDS_DISCOVERY_TARGET=127.0.0.1 TERM=xterm-256color LANG=C.UTF-8"
        )
        shell = f"env {env} {command}; sleep 30"
        if name == "host":
            self.run("new-session", "-d", "-s", "nc", "-n", name, "-x", "80", "-y", "24", shell)
        else:
            self.run("new-window", "-t", "nc", "-n", name, shell)

    def keys(self, name: str, *keys: str) -> None:
        self.run("send-keys", "-t", f"nc:{name}", *keys)

    def screen(self, name: str) -> str:
        return self.run("capture-pane", "-p", "-t", f"nc:{name}")

    def wait_for(self, name: str, text: str, seconds: float = 30) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            screen = self.screen(name)
            if text in screen:
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never showed in {name}:\n{self.screen(name)}")


def hand_labels(screen: str) -> list[str]:
    lines = screen.splitlines()
    start = next(i for i, line in enumerate(lines) if "Waiting for" in line or "Your turn" in line)
    return [m.group(1) for line in lines[start:] for m in CARD.finditer(line)]


def test_host_and_two_players_in_tmux_play_the_first_day(tmp_path: Path) -> None:
    tmux = Tmux(tmp_path)
    homes = {name: tmp_path / name for name in ("host", "bea", "cy")}
    for name, home in homes.items():
        home.mkdir()
        (home / "settings.json").write_text(json.dumps({"name": name.capitalize()}))
    tmux.window(
        "host",
        homes["host"],
        f"{NETCARDS} host --game via-gladiola --players 3 --port 0 --discovery-port 0",
    )
    try:
        lobby = tmux.wait_for("host", "ADDRESS:")
        port = re.search(r"ADDRESS:(\d+)", lobby)
        assert port is not None
        for name in ("bea", "cy"):
            tmux.window(name, homes[name], f"{NETCARDS} join 127.0.0.1:{port.group(1)}")
            tmux.wait_for(name, "First visit to")
            tmux.keys(name, "y")
            tmux.wait_for(name, "Host fingerprint")
        for name in ("host", "bea", "cy"):
            tmux.keys(name, "r")
        for name in ("host", "bea", "cy"):
            tmux.wait_for(name, "Day 1 of 4")
        # Each turn: try the cards from the lowest up (enter walks the first legal one), else rest.
        turn = ["Home", "Enter"] + ["Right", "Enter"] * 11 + ["r"]
        deadline = time.monotonic() + 120
        while "Day 2 of 4" not in tmux.screen("host"):
            assert time.monotonic() < deadline, tmux.screen("host")
            for name in ("host", "bea", "cy"):
                if "Your turn" in tmux.screen(name):
                    tmux.keys(name, *turn)
                    time.sleep(0.4)
        time.sleep(1.0)
        screens = {name: tmux.wait_for(name, "Day 2 of 4") for name in ("host", "bea", "cy")}
    finally:
        subprocess.run(["tmux", "-S", tmux.socket, "kill-server"], check=False)

    journal = next((homes["host"] / "journals").glob("*.journal"))
    records = read_journal(journal)
    start = next(r for r in records if r["type"] == "start")
    game = get_game("via-gladiola")
    config = game.make_config(3, start["config"]["options"])
    parts = {
        s["seat"]: bytes.fromhex(s["contribution"]) for s in start["seats"] if s["contribution"]
    }
    state = game.setup(config, combine(bytes.fromhex(start["host_part"]), parts))
    for record in records:
        if record["type"] == "action":
            game.apply(state, record["seat"], game.decode_action(record["action"]))
    assert state.day == 2, "the journal agrees: the first day is over"
    deck = deck_for(None)

    def label(card: int) -> str:
        kind = kind_of(card)
        return str(deck.value[card]) if kind == "distance" else {"finish": "FIN"}.get(kind, "GLA")

    seats = {s["name"].lower(): s["seat"] for s in start["seats"]}
    for name, screen in screens.items():
        own = sorted(label(c) for c in state.hands[seats[name]])
        assert sorted(hand_labels(screen)) == own, f"{name} sees exactly their own hand"
        others = {label(c) for s, h in enumerate(state.hands) if s != seats[name] for c in h}
        distance_of_others = {x for x in others if x.isdigit()} - set(own)
        assert not distance_of_others & set(hand_labels(screen)), f"{name} sees another hand"
    assert os.path.exists(journal)
