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
import time
from pathlib import Path

import pytest

from netcards.fairdeal import combine
from netcards.games.via_gladiola.cards import deck_for, kind_of
from netcards.registry import get_game
from protocol.journal_file import read_journal
from tests.ui.tmux import NETCARDS, Tmux

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

CARD = re.compile(r"[│|┆:] *([0-9]{1,2}|FIN|GLA)[│|┆:]")
JOIN_PORT = re.compile(r"netcards join\s+\S+?:(\d+)")


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
        lobby = tmux.wait_for("host", "Players join with")
        port = JOIN_PORT.search(lobby)
        assert port is not None, lobby
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
        while not any("Day 1 is over" in tmux.screen(name) for name in ("host", "bea", "cy")):
            assert time.monotonic() < deadline, tmux.screen("host")
            for name in ("host", "bea", "cy"):
                if "Your turn" in tmux.screen(name):
                    tmux.keys(name, *turn)
                    time.sleep(0.4)
        # Each goes on to the second day with one enter, as soon as its summary takes keys,
        # rather than waiting out its countdown; one that closed already is left alone.
        for name in ("host", "bea", "cy"):
            while "go on now" not in (screen := tmux.screen(name)) and "Day 2 of 4" not in screen:
                assert time.monotonic() < deadline, screen
                time.sleep(0.2)
            if "Day 2 of 4" not in screen:
                tmux.keys(name, "Enter")
        time.sleep(1.0)
        screens = {name: tmux.wait_for(name, "Day 2 of 4") for name in ("host", "bea", "cy")}
    finally:
        tmux.close()

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
