"""What it costs every program to know whom a sealed table waits for.

A player's program works it out after every sealed message it takes
(`protocol/sealed_play/awaited.py`, from `TableClient._sealed_refresh`), so that its status
line and `netcards bot` say it and no move is offered meanwhile. Here whole sealed games are
played in one process, every seat a player's (`SealedSeat`, the host's `SealedHost` relaying),
with the messages through the strict encoder and decoder as in the tests' harness; after every
message a seat takes, its `awaited()` is asked as the client asks it. Printed per title: the
messages taken, the time of one answer (median and mean, microseconds), and the share of the
whole game's CPU time those answers took, both measured in the same run.

    python -m bench.awaited [--seats 5] [--games 1]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from netcards.games.auf_achse import GAME as AUF_ACHSE
from netcards.games.velonimo.rules import Velonimo
from netcards.games.velonimo.sealed import SealedVelonimo
from protocol.sealed.messages import SealMessage
from protocol.sealed_play.seat import SealedSeat
from tests.protocol import test_sealed_game_choices as auf_achse
from tests.protocol import test_sealed_game_wire as harness


def table(title: str, seats: int, seed: int) -> harness.Table:
    humans = list(range(seats))
    if title == "velonimo":
        config = Velonimo().make_config(seats, {"difficulties": [1, 2]})
        return harness.Table(seats, humans, seed, engine=SealedVelonimo(), config=config)
    if title == "auf-achse":
        config = AUF_ACHSE.make_config(seats, {"deck": auf_achse.FAST})
        return harness.Table(seats, humans, seed, engine=auf_achse.ENGINE, config=config)
    return harness.Table(seats, humans, seed)


def measure(title: str, seats: int, games: int) -> tuple[list[float], float]:
    """Each `awaited()` answer's seconds, and the games' CPU seconds in all."""
    answers: list[float] = []
    real = SealedSeat.receive

    def receive(seat: SealedSeat, msg: SealMessage) -> list[SealMessage]:
        out = real(seat, msg)
        started = time.process_time()
        seat.awaited()
        answers.append(time.process_time() - started)
        return out

    SealedSeat.receive = receive  # type: ignore[method-assign,assignment]
    try:
        started = time.process_time()
        for game in range(games):
            t = table(title, seats, seed=game + 1)
            t.start()
            t.play()
        return answers, time.process_time() - started
    finally:
        SealedSeat.receive = real  # type: ignore[method-assign]


def main(argv: Any = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=5)
    parser.add_argument("--games", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"{args.seats} seats, {args.games} game(s) a title, every seat a player's program")
    print(f"{'title':<14} {'messages':>9} {'median us':>10} {'mean us':>8} {'share':>7}")
    for title in ("via-gladiola", "velonimo", "auf-achse"):
        answers, total = measure(title, args.seats, args.games)
        median = statistics.median(answers) * 1e6
        mean = statistics.fmean(answers) * 1e6
        share = sum(answers) / total * 100
        print(f"{title:<14} {len(answers):>9} {median:>10.0f} {mean:>8.0f} {share:>6.1f}%")


if __name__ == "__main__":
    main()
