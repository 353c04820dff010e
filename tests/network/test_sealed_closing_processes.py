"""`netcards host --headless --sealed` stopped with SIGTERM at several moments of every title:
while the deal is being sealed, in the middle of a round, while a later round is sealed (a
reshuffle, a new round's deal). It prints the results so far (none where the title scores cards
still sealed) and no traceback, exits with 1, and the player's program prints the same results
and `deal not checked`.

The moment is read from the player's own `--log` (every message its host sent it); the player is
then frozen (SIGSTOP), as a slow machine would be, so that the table is still there when the
host is stopped: a sealing round waits for every seat's steps, a move for its player."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.network.processes import Proc, bot, host, own_dirs, read_trace, wait_for
from tests.network.sealed_moments import GAMES

TRIES = 4


def sealed(trace: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [
        m["message"]
        for m in trace
        if m.get("type") == "sealed" and m["message"].get("type") == kind
    ]


MOMENTS: dict[str, Callable[[list[dict[str, Any]]], bool]] = {
    "sealing the deal": lambda t: any(m.get("type") == "start" for m in t),
    "mid-round": lambda t: len(sealed(t, "seal_acted")) >= 3,
    "sealing a later round": lambda t: any(m["round"] >= 1 for m in sealed(t, "seal_round")),
}


@pytest.mark.parametrize("moment", list(MOMENTS))
@pytest.mark.parametrize(("title", "players"), GAMES)
def test_a_headless_sealed_host_stopped_at_any_moment_prints_the_results_so_far(
    tmp_path: Path, title: str, players: int, moment: str
) -> None:
    for attempt in range(TRIES):
        if stopped_at(tmp_path / str(attempt), title, players, moment):
            return
    raise AssertionError(f"no game of {TRIES} came to {moment}")


def stopped_at(folder: Path, title: str, players: int, moment: str) -> bool:
    """One player's program (`netcards bot`) and the host's bots; False: the game ended first."""
    folder.mkdir()
    server, port, _ = host(
        folder, "--game", title, "--players", str(players), "--bots", str(players - 1),
        "--bot-level", "random", "--sealed", "--port", "0", env=own_dirs(folder / "host"),
    )  # fmt: skip
    trace = folder / "bea.trace"
    bea: Proc | None = None
    try:
        bea = bot(
            folder, port, "Bea", "--level", "random", "--log", str(trace),
            env=own_dirs(folder / "bea"),
        )  # fmt: skip
        there = MOMENTS[moment]
        wait_for(lambda: there(read_trace(trace)) or bea.popen.poll() is not None, 60, moment)
        bea.popen.send_signal(signal.SIGSTOP)
        if not there(read_trace(trace)) or any(
            m.get("type") == "result" for m in read_trace(trace)
        ):
            return False  # the game ended first
        time.sleep(0.3)  # the host takes what the player sent before it froze
        server.popen.send_signal(signal.SIGTERM)
        # Thawed at once: the host gives its last words two seconds to leave, and a frozen
        # player's full socket (a sealing round's ciphertexts) would keep them out.
        time.sleep(0.2)
        bea.popen.send_signal(signal.SIGCONT)
        code = server.wait(30)
        bea.wait(30)
    finally:
        if bea is not None:
            bea.popen.send_signal(signal.SIGCONT)
            bea.kill()
        server.kill()
    out, err = server.stdout(), server.stderr()
    assert "Traceback" not in err and "Error" not in err, err
    assert code == 1, "stopped before the game's end"
    assert "stopped before the game's end" in err
    said = out[out.index("results so far") :]
    theirs = bea.stdout()
    assert "the host closed the table" in theirs
    assert "deal not checked" in theirs, theirs
    assert "Traceback" not in bea.stderr(), bea.stderr()
    if title == "via-gladiola":
        assert said.startswith("results so far: none: they need cards that are still sealed\n")
    else:
        assert said.startswith("results so far:\n  1. ")
    results, _, waited = said.partition("deal not checked: ")
    assert results in theirs, "the player's program scores the public record as the host does"
    if not waited:
        return True
    theirs_waited = theirs[theirs.index("deal not checked: ") :].removeprefix("deal not checked: ")
    # The same wait, or one Bea's message sent just before she froze (her step, her key) and
    # not yet taken by the host: she waits for the host (to relay it, to begin the round), the
    # host for her. Each names whom it waits for.
    waits_for_host = "the table closed while waiting for the host to "
    assert theirs_waited == waited or (
        theirs_waited.startswith(waits_for_host) and "Bea (seat 1)" in waited
    ), (said, theirs)
    return True
