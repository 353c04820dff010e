"""A bare Via Gladiola random-playout loop in plain Python: the yardstick for the engine's speed.

The same rules as `netcards/games/via_gladiola` (8 cards each, walk up by 1 to 15 with the
cadence draws, rest, Gladiolas on day 4, a Finish ends the day, the oldest finished day is
reshuffled into an empty draw pile, the stalemate guard, fewest blisters wins), written the way
a one-off script would: no events, no views, no validation, no seeded generator, the random
module for every choice. What the engine does beyond this (events with private parts, views,
refused actions that change nothing, a keyed generator) is what its ratio to this loop costs.
"""

from __future__ import annotations

import random

from netcards.games.via_gladiola.cards import (
    DAYS,
    FIRST_FINISH,
    FIRST_GLADIOLA,
    FIRST_START,
    VALUES,
    house_deck,
)

HAND = 8


def play(players: int, rng: random.Random) -> list[int]:
    """One random game; returns every seat's blisters."""
    value = VALUES
    draw = list(range(FIRST_START))
    rng.shuffle(draw)
    hands = [draw[-HAND * (s + 1) : len(draw) - HAND * s] for s in range(players)]
    del draw[-HAND * players :]
    finished: list[list[int]] = []
    day = 1
    top = 0
    walk: list[int] = []
    seat = rng.randrange(players)
    idle = 0
    while True:
        hand = hands[seat]
        moves = [c for c in hand if c < FIRST_GLADIOLA and 0 < value[c] - top <= 15]
        glads = [c for c in hand if FIRST_GLADIOLA <= c < FIRST_START] if day == DAYS else []
        pick = rng.randrange(len(moves) + len(glads) + 1)
        if pick < len(moves):
            card = moves[pick]
            hand.remove(card)
            walk.append(card)
            draws = (value[card] - top + 4) // 5 - 1
            top = value[card]
            idle = 0
            for _ in range(draws):
                while not draw and finished:
                    draw = finished.pop(0)
                    rng.shuffle(draw)
                if not draw:
                    break
                hand.append(draw.pop())
            if card >= FIRST_FINISH:
                if day == DAYS:
                    break
                finished.append(walk)
                walk, top, day = [], 0, day + 1
        elif pick < len(moves) + len(glads):
            hand.remove(glads[pick - len(moves)])
            idle = 0
        else:
            while not draw and finished:
                draw = finished.pop(0)
                rng.shuffle(draw)
            if draw:
                hand.append(draw.pop())
                idle = 0
            else:
                idle += 1
                if idle >= players:
                    if day == DAYS:
                        break
                    finished.append(walk)
                    walk, top, day, idle = [], 0, day + 1, 0
        seat = (seat + 1) % players
    blisters = house_deck().blisters
    return [sum(blisters[c] for c in hand) for hand in hands]
