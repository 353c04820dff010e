"""Auf Achse's rules: the sheet plus the decisions in docs/rules/auf-achse.md.

Five stages; each round everybody adds a card to their run at the same time, then feeds the
odometer in turn; the odometer cards are revealed by the rules themselves, pausing only when a
Free road asks everybody for more run cards. At the target the runs are scored by their final
unbroken part; after stage 5 the most km wins.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from netcards.action import Action
from netcards.errors import GameOver, IllegalAction, NotYourTurn
from netcards.event import Event
from netcards.game import Game, Outcome, TableConfig, places_from_keys
from netcards.games.auf_achse import flow, sampling, views
from netcards.games.auf_achse.actions import (
    ADD,
    CODEC,
    FREE_ONE,
    ODOMETER,
    AddToRun,
    FreeRoad,
    PlayOdometer,
)
from netcards.games.auf_achse.cards import deck_for, house_deck_text, parse_deck
from netcards.games.auf_achse.shapes import SHAPES
from netcards.games.auf_achse.state import FREE_ROAD, OVER, RUN, AAState
from netcards.games.auf_achse.state import ODOMETER as ODOMETER_PHASE
from netcards.games.auf_achse.views import waiting
from netcards.options import OptionSpec
from netcards.rng import Rng

_SEATS = tuple(frozenset({i}) for i in range(8))
_NOBODY: frozenset[int] = frozenset()

_WRONG_STEP = {
    RUN: "now every player adds one card to their run ('run')",
    ODOMETER_PHASE: "now the odometer pile gets its cards, one per player in turn ('odometer')",
    FREE_ROAD: "now every player adds the Free road's cards to their run ('free_road')",
}


class AufAchse(Game[AAState]):
    id = "auf-achse"
    name = "Auf Achse"
    rules_version = "auf-achse/1"
    min_players = 2
    max_players = 5
    score_name = "km"
    codec = CODEC
    shapes = SHAPES
    flow: flow.Flow = flow.CLASSIC
    """The steps between choices; the sealed mode brings its own (auf_achse.sealed)."""
    option_specs = (
        OptionSpec("first_player", "seat", None, "The seat that starts stage 1 (default: random)."),
        OptionSpec("deck", "deck", None, "A deck file's text (default: the house deck)."),
    )

    def check_options(self, options: dict[str, Any], players: int) -> None:
        if options["deck"] is not None:
            parse_deck(options["deck"])

    def house_deck(self) -> str:
        return house_deck_text()

    # -- setup ---------------------------------------------------------------------------------

    def setup(self, config: TableConfig, seed: bytes) -> AAState:
        opts = config.options
        rng = Rng(seed)
        first = opts.get("first_player")
        if first is None:
            first = rng.below(config.players)
        state = AAState(
            players=config.players,
            deck_text=opts.get("deck"),
            deck=deck_for(opts.get("deck")),
            rng=rng,
            first_player=first,
            hands=[],
            draw=[],
        )
        self.flow.deal(state, [])
        self.flow.start_round(state, [])
        return state

    # -- whose turn, what is legal ---------------------------------------------------------------

    def to_act(self, state: AAState) -> frozenset[int]:
        if state.phase == ODOMETER_PHASE:
            return _SEATS[state.current] if state.current >= 0 else _NOBODY
        if state.phase == OVER:
            return _NOBODY
        return frozenset(waiting(state))

    def legal_actions(self, state: AAState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return _legal(state.phase, state.hands[seat], state.need[seat])

    def legal_actions_in_view(self, view: Mapping[str, Any]) -> list[Action]:
        seat = view["seat"]
        if seat is None or seat not in view["waiting"]:
            return []
        return _legal(view["phase"], view["hand"], view["need"][seat])

    # -- applying ----------------------------------------------------------------------------------

    def apply(self, state: AAState, seat: int, action: Action) -> list[Event]:
        """As the base class, with a precise reason for a seat that has already chosen."""
        if state.over:
            raise GameOver("the game is over")
        if seat not in self.to_act(state):
            if (
                state.phase in (RUN, FREE_ROAD)
                and isinstance(seat, int)
                and 0 <= seat < state.players
                and state.pending[seat]
            ):
                others = waiting(state)
                raise NotYourTurn(
                    f"seat {seat + 1} has already chosen; waiting for "
                    f"seat(s) {', '.join(str(s + 1) for s in others)}"
                )
            raise NotYourTurn(f"seat {seat + 1} is not asked to act now")
        return self._apply(state, seat, action)

    def _apply(self, state: AAState, seat: int, action: Action) -> list[Event]:
        kind = type(action)
        if kind is AddToRun and state.phase == RUN:
            assert isinstance(action, AddToRun)
            return self._choose(state, seat, [action.card], "run_chosen")
        if kind is PlayOdometer and state.phase == ODOMETER_PHASE:
            assert isinstance(action, PlayOdometer)
            return self._odometer(state, seat, action.card)
        if kind is FreeRoad and state.phase == FREE_ROAD:
            assert isinstance(action, FreeRoad)
            return self._choose(state, seat, list(action.cards), "free_road_chosen")
        if kind not in (AddToRun, PlayOdometer, FreeRoad):
            raise IllegalAction(f"'{action.KIND}' is not an Auf Achse action")
        raise IllegalAction(f"'{action.KIND}' is not possible now: {_WRONG_STEP[state.phase]}")

    def _check_cards(self, state: AAState, seat: int, cards: list[int]) -> None:
        need = state.need[seat]
        if len(cards) != need:
            raise IllegalAction(
                f"give exactly {need} card{'s' if need != 1 else ''}, not {len(cards)}"
            )
        if len(set(cards)) != len(cards):
            raise IllegalAction("the same card cannot be given twice")
        hand = state.hands[seat]
        for card in cards:
            if card not in hand:
                raise IllegalAction(f"card {card} is not in your hand")

    def _choose(self, state: AAState, seat: int, cards: list[int], kind: str) -> list[Event]:
        """Keep a simultaneous choice hidden until every asked seat has chosen, then resolve."""
        self._take(state, seat, cards)
        events = [
            Event(
                kind,
                {"seat": seat, "count": len(cards), "waiting": waiting(state)},
                {seat: {"cards": list(cards)}},
            )
        ]
        if not waiting(state):
            self._resolve(state, events)
        return events

    def _take(self, state: AAState, seat: int, cards: list[int]) -> None:
        """Check a seat's choice and set it aside until every asked seat has chosen."""
        self._check_cards(state, seat, cards)
        hand = state.hands[seat]
        for card in cards:
            hand.remove(card)
        state.pending[seat] = cards

    def _resolve(self, state: AAState, events: list[Event]) -> None:
        """Every asked seat has chosen: the choices join the runs and the round goes on."""
        if state.phase == RUN:
            self.flow.resolve_choices(state, "runs_added", events)
            self.flow.start_odometer(state, events)
        else:
            self.flow.finish_free_road(state, events)

    def _odometer(self, state: AAState, seat: int, card: int) -> list[Event]:
        if card not in state.hands[seat]:
            raise IllegalAction(f"card {card} is not in your hand")
        state.hands[seat].remove(card)
        state.odometer_down[seat].append(card)
        state.reveal_order.append(seat)
        events = [Event("odometer_card", {"seat": seat}, {seat: {"card": card}})]
        offset = (seat - state.first_player) % state.players + 1
        self.flow.next_odometer_seat(state, offset, events)
        return events

    # -- the end -------------------------------------------------------------------------------------

    def outcome(self, state: AAState) -> Outcome | None:
        return self.standings(state) if state.over else None

    def progress(self, state: AAState) -> int:
        return len(state.history)

    def standings(self, state: AAState) -> Outcome:
        totals = flow.totals_of(state)
        best = max(totals)
        return Outcome(
            scores=tuple(totals),
            winners=tuple(s for s, t in enumerate(totals) if t == best),
            places=places_from_keys([(-t,) for t in totals]),
            lower_is_better=False,
            detail={
                "stage_scores": [list(h["scores"]) for h in state.history],
                "stages": [
                    {
                        "stage": h["stage"],
                        "total": h["total"],
                        "runs": [
                            {"seat": r["seat"], "cards": list(r["cards"]), "score": r["score"]}
                            for r in h["runs"]
                        ],
                    }
                    for h in state.history
                ],
            },
        )

    # -- views -----------------------------------------------------------------------------------------

    def public_view(self, state: AAState) -> dict[str, Any]:
        return views.PUBLIC.build(state, None)

    def view(self, state: AAState, seat: int) -> dict[str, Any]:
        return views.SEAT.build(state, seat)

    def lazy_view(self, state: AAState, seat: int) -> Mapping[str, Any]:
        return views.SEAT.lazy(state, seat)

    # -- data ------------------------------------------------------------------------------------------

    def cards(self, config: TableConfig) -> list[dict[str, Any]]:
        return [c.to_data() for c in deck_for(config.options.get("deck")).cards]

    def encode_state(self, state: AAState) -> dict[str, Any]:
        return state.to_data()

    def decode_state(self, data: Mapping[str, Any]) -> AAState:
        return AAState.from_data(dict(data))

    def copy_state(self, state: AAState) -> AAState:
        return state.copy()

    def sample_state(
        self,
        config: TableConfig,
        view: Mapping[str, Any],
        history: Sequence[Mapping[str, Any]],
        rng: random.Random,
    ) -> AAState:
        return sampling.sample_state(config, view, history, rng)

    def locations(self, state: AAState) -> dict[str, list[int]]:
        places: dict[str, list[int]] = {}
        for s in range(state.players):
            places[f"hand:{s}"] = list(state.hands[s])
            places[f"run:{s}"] = list(state.runs[s])
            places[f"pending:{s}"] = list(state.pending[s])
            places[f"odometer_face_down:{s}"] = list(state.odometer_down[s])
        places["odometer_km"] = list(state.odometer_km)
        places["resolving"] = list(state.resolving)
        places["discard"] = list(state.discard)
        places["draw"] = list(state.draw)
        return places

    def deal_record(self, state: AAState) -> dict[str, Any]:
        return {
            "stage": state.stage,
            "hands": [list(h) for h in state.hands],
            "draw_pile_top_last": list(state.draw),
            "first_player": state.first_player,
        }


def _legal(phase: str, hand: list[int], need: int) -> list[Action]:
    """Every choice a seat with `hand` has in `phase` (shared by the state and the view paths)."""
    cards = sorted(hand)
    if phase == RUN:
        return [ADD[c] for c in cards]
    if phase == ODOMETER_PHASE:
        return [ODOMETER[c] for c in cards]
    if need == 1:
        return [FREE_ONE[c] for c in cards]
    return [FreeRoad((a, b)) for a in cards for b in cards if a != b]
