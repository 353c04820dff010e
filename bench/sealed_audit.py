"""The end-of-game audit of whole sealed games, as a player's program runs it.

A sealed game of each title is played in one process (the host's engine, its relay and bots,
and one player's seat, every message through the sealed encoder and the strict decoder, as on
the wire), then the player's program audits it as it does at a table: every round replayed
from every seat's published secrets, every move replayed knowing every card. Printed: the
game's rounds and moves and the audit's seconds (CPU, best of `--repeats`), for the house decks
at 5 seats (Auf Achse's has 109 cards a deal, five deals and the reshuffles of its discards).

    python -m bench.sealed_audit [--repeats 3] [--players 5]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections import deque
from typing import Any

from netcards.action import Action
from netcards.registry import get_game
from netcards.sealed_game import sealed_engine
from protocol.sealed.messages import SealMessage, decode, encode
from protocol.sealed.round_driver import Outgoing
from protocol.sealed.seed_stream import SeedStream
from protocol.sealed_play.host import SealedHost
from protocol.sealed_play.seat import SealedSeat
from protocol.wire import pack, unpack

PLAYER = 1


def wire(msg: SealMessage) -> SealMessage:
    return decode(unpack(pack(encode(msg))))


def play(title: str, players: int, seed: int) -> tuple[SealedSeat, float]:
    """A whole game, the player at `PLAYER` choosing at random; the player's audit's CPU
    seconds."""
    rng = random.Random(seed)
    game = get_game(title)
    config = game.make_config(players, {})
    engine = sealed_engine(title)
    public_seed = os.urandom(32)

    def bot(seat: int, view: dict[str, Any], legal: list[Action]) -> Action:
        return rng.choice(legal)

    bots = {s: bot for s in range(players) if s != PLAYER}
    host = SealedHost(engine, config, public_seed, b"bench", os.urandom(16), bots, os.urandom)
    seat = SealedSeat(engine, config, public_seed, PLAYER, SeedStream(os.urandom(32)))
    audit = seat._audit
    spent = [0.0]

    def timed_audit() -> None:
        started = time.process_time()
        audit()
        spent[0] += time.process_time() - started

    seat._audit = timed_audit  # type: ignore[method-assign]

    def run(queue: deque[Outgoing]) -> None:
        while queue:
            to, msg = queue.popleft()
            for reply in seat.receive(wire(msg)):
                queue.extend(host.receive(to, wire(reply)))

    run(deque(host.receive(PLAYER, wire(seat.hello()))))
    run(deque(host.start()))
    while seat.verdict is None:
        legal = seat.legal_actions()
        if not legal:
            raise RuntimeError("the player cannot move and the game waits for nothing")
        queue: deque[Outgoing] = deque()
        for msg in seat.act(rng.choice(legal)):
            queue.extend(host.receive(PLAYER, wire(msg)))
        run(queue)
    if seat.verdict != "deal verified":
        raise RuntimeError(seat.verdict)
    return seat, spent[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args()
    print(f"The end-of-game audit of a whole sealed game, {args.players} seats, CPU seconds:")
    for title in ("via-gladiola", "velonimo", "auf-achse"):
        runs = [play(title, args.players, seed) for seed in range(args.repeats)]
        best = min(runs, key=lambda run: run[1])
        seat, seconds = best
        rounds = len(seat.driver.rounds)
        cards = sum(r.round.size for r in seat.driver.rounds.values())
        print(
            f"  {title:<13} {rounds:>3} rounds, {cards:>4} cards sealed, "
            f"{len(seat.actions):>4} moves: audit {seconds * 1000:7.1f} ms "
            f"(best of {args.repeats}; worst {max(s for _, s in runs) * 1000:.1f} ms)"
        )


if __name__ == "__main__":
    main()
