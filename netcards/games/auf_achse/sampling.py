"""Auf Achse's hidden information: other hands, runs, pending choices and face-down odometer
cards, and the draw pile.

Every card that leaves a hidden place does so face up (odometer reveals, Level crossing, the
discards), and the discards go back face down into the draw pile when it runs out, so a seat's
view is all it knows: the unseen cards are equally likely to be in any hidden place that has
room for them. Only their order in another seat's run is not left to chance: players build
rising runs, so a sample lays the cards it drew for a run out that way (a uniformly shuffled run
would score next to nothing and make every opponent look harmless). The seat's own run, choice
and odometer card are its own and stay as they are.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from netcards.game import TableConfig
from netcards.games.auf_achse.cards import CARD_COUNT, KM, deck_for
from netcards.games.auf_achse.state import ODOMETER, AAState, copy_stage
from netcards.rng import Rng
from netcards.sampling import fill_places


def sample_state(
    config: TableConfig,
    view: Mapping[str, Any],
    history: Sequence[Mapping[str, Any]],
    rng: random.Random,
) -> AAState:
    seat: int = view["seat"]
    players: int = view["players"]
    face_down: list[int] = view["odometer_face_down"]
    resolving = [] if view["resolving"] is None else [view["resolving"]]
    seen = set(view["hand"]) | set(view["run"]) | set(view["pending"]) | set(view["discard"])
    seen.update(view["odometer_km"])
    seen.update(resolving)
    if view["odometer_card"] is not None:
        seen.add(view["odometer_card"])
    sizes: dict[str, int] = {"draw": view["draw_pile"]}
    for s in range(players):
        if s != seat:
            sizes[f"hand:{s}"] = view["hand_sizes"][s]
            sizes[f"run:{s}"] = view["run_lengths"][s]
            sizes[f"pending:{s}"] = view["pending_counts"][s]
            sizes[f"down:{s}"] = 1 if s in face_down else 0
    places = fill_places(set(range(CARD_COUNT)) - seen, sizes, {}, rng)
    deck = deck_for(config.options.get("deck"))
    for s in range(players):
        if s != seat:  # players build rising runs: the likeliest order of the cards drawn
            places[f"run:{s}"].sort(key=lambda c: (deck.kind[c] == KM, deck.value[c]))

    def per_seat(kind: str, mine: list[int]) -> list[list[int]]:
        return [list(mine) if s == seat else places[f"{kind}:{s}"] for s in range(players)]

    mine_down = [] if view["odometer_card"] is None else [view["odometer_card"]]
    return AAState(
        players=players,
        deck_text=config.options.get("deck"),
        deck=deck,
        rng=Rng(rng.randbytes(32)),
        first_player=view["first_player"],
        hands=per_seat("hand", view["hand"]),
        draw=places["draw"],
        stage=view["stage"],
        round=view["round"],
        phase=view["phase"],
        runs=per_seat("run", view["run"]),
        pending=per_seat("pending", view["pending"]),
        need=list(view["need"]),
        current=view["current"]
        if view["phase"] == ODOMETER and view["current"] is not None
        else -1,
        odometer_down=per_seat("down", mine_down),
        reveal_order=list(face_down),
        odometer_km=list(view["odometer_km"]),
        total=view["total"],
        resolving=resolving,
        discard=list(view["discard"]),
        history=[copy_stage(h) for h in view["stage_results"]],
        over=view["over"],
    )
