"""Via Gladiola's hidden information: the other hands and the draw pile, nothing else.

No card ever passes from one hidden place to another where a seat could follow it (draws are
private, reshuffled days go face down into the draw pile), so every unseen card is equally
likely to be in any other hand or in the draw pile: the seat's view is all it knows.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from netcards.action import Action
from netcards.game import PastDecision, TableConfig
from netcards.games.via_gladiola.actions import GLADIOLA, REST, WALK
from netcards.games.via_gladiola.cards import CARD_COUNT, DAYS, VALUES, deck_for, start_card
from netcards.games.via_gladiola.moves import legal_moves
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


def past_decisions(
    state: VGState,
    view: Mapping[str, Any],
    history: Sequence[Mapping[str, Any]],
    rng: random.Random,
) -> list[PastDecision]:
    """Each other seat's last decision of the current day, as it looked to that seat if
    `state` is the real game: its hand then is its hand in `state` less the cards that move
    drew (which ones, at random: draws are random cards) plus the card it played; the walk
    pile and the Gladiolas then are today's less what was laid since. What the seat saw of the
    draw pile and the finished days is taken as it is now (it differs only after a reshuffle)."""
    seat: int = view["seat"]
    today = _since_last(history, "day_start")
    moves = [i for i, event in enumerate(today) if event["kind"] in _MOVES]
    latest: dict[int, int] = {}
    for at, index in enumerate(moves):
        mover = today[index]["seat"]
        if mover != seat:
            latest[mover] = at
    walk_now: list[int] = view["walk_pile"]
    laid_now: list[int] = view["gladiolas"]
    decisions: list[PastDecision] = []
    for mover, at in sorted(latest.items()):
        index = moves[at]
        move = today[index]
        since = [today[i] for i in moves[at:]]
        walked = sum(1 for event in since if event["kind"] == "walk")
        laid = sum(1 for event in since if event["kind"] == "gladiola")
        until = moves[at + 1] if at + 1 < len(moves) else len(today)
        drew = sum(
            event["count"]
            for event in today[index + 1 : until]
            if event["kind"] == "draw" and event["seat"] == mover
        )
        hand = state.hands[mover]
        if drew > len(hand):
            continue
        drawn = set(rng.sample(hand, drew))
        hand_then = [c for c in hand if c not in drawn]
        action: Action
        if move["kind"] == "walk":
            hand_then.append(move["card"])
            action = WALK[move["card"]]
        elif move["kind"] == "gladiola":
            hand_then.append(move["card"])
            action = GLADIOLA[move["card"]]
        else:
            action = REST
        walk_then = walk_now[: len(walk_now) - walked]
        drawn_since = sum(event["count"] for event in today[index:] if event["kind"] == "draw")
        then = dict(view)
        then.update(
            seat=mover,
            current=mover,
            hand=sorted(hand_then),
            walk_pile=walk_then,
            top_value=VALUES[walk_then[-1]],
            gladiolas=laid_now[: len(laid_now) - laid],
            draw_pile=view["draw_pile"] + drawn_since,
        )
        decisions.append((mover, then, legal_moves(hand_then, walk_then[-1], view["day"]), action))
    return decisions


_MOVES = ("walk", "rest", "gladiola")


def _since_last(history: Sequence[Mapping[str, Any]], kind: str) -> Sequence[Mapping[str, Any]]:
    for index in range(len(history) - 1, -1, -1):
        if history[index]["kind"] == kind:
            return history[index + 1 :]
    return history
