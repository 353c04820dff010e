"""Velonimo's hidden information: the other hands, the cards set aside and the duel's draw pile.

Unlike a pure deal, a seat may follow some cards: those a leader took from it (now in the
leader's hand), those it gave back as a leader (now in the victim's hand), and the duel's reward
card (in the hand of the seat it was given to). Those cards are pinned to their holder until
they are played, or until an exchange the seat did not see may have moved them (its holder
stole or was stolen from): then they go back among the unknown cards. A new round forgets all.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from netcards.game import TableConfig
from netcards.games.velonimo.cards import ALL_CARDS
from netcards.games.velonimo.state import Phase, TablePlay, VelonimoState
from netcards.rng import Rng
from netcards.sampling import fill_places


def known_holders(seat: int, history: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    """Cards of this round that `seat` knows to be in another seat's hand: card -> holder."""
    known: dict[int, int] = {}
    for event in history:
        kind = event["kind"]
        if kind == "round_start":
            known.clear()
        elif kind == "play":
            for card in event["cards"]:
                known.pop(card, None)
        elif kind in ("leader_take", "leader_give"):
            thief, victim = event["seat"], event["victim"]
            if seat not in (thief, victim):
                known = {c: h for c, h in known.items() if h not in (thief, victim)}
            elif kind == "leader_take" and seat == victim:
                known.update((c, thief) for c in event["cards"])
            elif kind == "leader_give" and seat == thief:
                known[event["card"]] = victim
            else:  # the card came into this seat's own hand
                for card in event.get("cards", [event.get("card")]):
                    known.pop(card, None)
        elif kind == "reward":
            if event["to"] == seat:
                known.pop(event["card"], None)
            else:
                known[event["card"]] = event["to"]
    return known


def sample_state(
    config: TableConfig,
    view: Mapping[str, Any],
    history: Sequence[Mapping[str, Any]],
    rng: random.Random,
) -> VelonimoState:
    seat: int = view["seat"]
    players: int = view["players"]
    attack: list[TablePlay] = [
        (p["seat"], tuple(p["cards"]), p["jersey"], p["value"]) for p in view["attack"]
    ]
    seen = set(view["hand"]) | set(view["discard"])
    for play in attack:
        seen.update(play[1])
    if view["reward"] is not None:
        seen.add(view["reward"])
    sizes = {f"hand:{s}": n for s, n in enumerate(view["hand_sizes"]) if s != seat}
    sizes["aside"] = view["set_aside"]
    sizes["draw"] = view["draw_pile"]
    pins = {c: f"hand:{h}" for c, h in known_holders(seat, history).items() if h != seat}
    places = fill_places(set(ALL_CARDS) - seen, sizes, pins, rng)
    hands = [places.get(f"hand:{s}", []) for s in range(players)]
    hands[seat] = list(view["hand"])
    exchange = view["exchange"] or {}
    phase: Phase = view["phase"]
    taken: list[int] = []
    if phase == "give_back":
        taken = list(exchange.get("taken", hands[exchange["thief"]][: exchange["count"]]))
    jersey = view["jersey"]
    return VelonimoState(
        players=players,
        duel=view["mode"] == "duel",
        difficulties=list(view["difficulties"]),
        duel_target=view["duel_target"] or 0,
        rng=Rng(rng.randbytes(32)),
        round=view["round"] - 1,
        first_player=view["first_player"],
        hands=hands,
        aside=places["aside"],
        draw=places["draw"],
        reward=view["reward"],
        attack=attack,
        discard=list(view["discard"]),
        last_player=view["last_player"],
        passes=view["passes"],
        current=view["current"],
        phase=phase,
        finished=list(view["finished"]),
        round_points=list(view["round_points"]),
        round_scores=[list(r) for r in view["round_scores"]],
        jersey=jersey["holder"],
        jersey_used=jersey["used"],
        steal_count=exchange.get("count", 0) if phase == "victim" else 0,
        victim=exchange.get("victim"),
        taken=taken,
        to_give=exchange.get("to_give") or 0,
        over=view["over"],
        end_reason=view["end_reason"],
    )
