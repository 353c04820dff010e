"""Via Gladiola's hidden information: the other hands and the draw pile, nothing else.

No card ever passes from one hidden place to another where a seat could follow it (draws are
private, reshuffled days go face down into the draw pile), so every unseen card is equally
likely to be in any other hand or in the draw pile: the seat's view is all it knows.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from netcards.game import TableConfig
from netcards.games.via_gladiola.cards import CARD_COUNT, DAYS, deck_for, start_card
from netcards.games.via_gladiola.state import VGState
from netcards.rng import Rng
from netcards.sampling import fill_places


def sample_state(
    config: TableConfig,
    view: Mapping[str, Any],
    history: Sequence[Mapping[str, Any]],
    rng: random.Random,
) -> VGState:
    seat: int = view["seat"]
    day: int = view["day"]
    finished_count = len(view["finished_days"]) + len(view["reshuffled_days"])
    finished: list[list[int] | None] = [None] * finished_count
    for pile in view["finished_days"]:
        finished[pile["day"] - 1] = list(pile["cards"])
    seen = set(view["hand"]) | set(view["walk_pile"]) | set(view["gladiolas"])
    for pile in view["finished_days"]:
        seen.update(pile["cards"])
    seen.update(start_card(d) for d in range(day + 1, DAYS + 1))
    seen.update(start_card(d) for d in view["reshuffled_days"])
    sizes = {f"hand:{s}": n for s, n in enumerate(view["hand_sizes"]) if s != seat}
    sizes["draw"] = view["draw_pile"]
    places = fill_places(set(range(CARD_COUNT)) - seen, sizes, {}, rng)
    hands = [places.get(f"hand:{s}", []) for s in range(view["players"])]
    hands[seat] = list(view["hand"])
    return VGState(
        players=view["players"],
        variant_last_card=view["variant_last_card"],
        deck_text=config.options.get("deck"),
        deck=deck_for(config.options.get("deck")),
        rng=Rng(rng.randbytes(32)),
        hands=hands,
        draw=places["draw"],
        day=day,
        walk=list(view["walk_pile"]),
        finished=finished,
        gladiolas=list(view["gladiolas"]),
        current=view["current"],
        first_player=view["first_player"],
        idle_rests=view["idle_rests"],
        over=view["over"],
        end_reason=view["end_reason"],
    )
