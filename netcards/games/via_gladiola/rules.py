"""Via Gladiola's rules: both sheets (French and Dutch) plus the decisions in docs/rules.

Walk, rest or (day 4 only) lay a Gladiola; the cadence decides how many cards a walk draws;
a Finish ends the day; an empty draw pile is refilled from the oldest finished day; after day 4
the fewest blisters in hand wins. See docs/rules/via-gladiola.md for every decision.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from netcards.action import Action
from netcards.errors import IllegalAction
from netcards.event import Event
from netcards.game import Outcome, TableConfig, places_from_keys
from netcards.games.via_gladiola import sampling, views
from netcards.games.via_gladiola.actions import (
    CODEC,
    PlayGladiola,
    Rest,
    Walk,
)
from netcards.games.via_gladiola.cards import (
    DAYS,
    DRAW_PILE_IDS,
    FIRST_FINISH,
    FIRST_GLADIOLA,
    FIRST_START,
    deck_for,
    house_deck_text,
    is_gladiola,
    label,
    parse_deck,
    start_card,
)
from netcards.games.via_gladiola.moves import MAX_STEP, legal_moves
from netcards.games.via_gladiola.shapes import SHAPES
from netcards.games.via_gladiola.state import VGState
from netcards.options import OptionSpec
from netcards.rng import Rng
from netcards.turns import OneSeatAtATime

HAND_SIZE = 8


def cadence_draws(difference: int) -> int:
    """Cards a walk of `difference` km (1 to MAX_STEP) above the top card draws: 0, 1 or 2."""
    return (difference + 4) // 5 - 1


_CADENCE = tuple(cadence_draws(d) if d > 0 else 0 for d in range(MAX_STEP + 1))
"""`cadence_draws` by difference: looked up at every walk, not worked out."""


def deal(draw: list[int], players: int) -> list[list[int]]:
    """Deal HAND_SIZE cards one at a time to each player in turn, from the top of `draw` (its
    end), which loses them. A sealed game deals slots the same way (via_gladiola.sealed)."""
    dealt = players * HAND_SIZE
    hands = [draw[-1 - s : -1 - dealt : -players] for s in range(players)]
    del draw[-dealt:]
    return hands


class ViaGladiola(OneSeatAtATime[VGState]):
    id = "via-gladiola"
    name = "Via Gladiola"
    rules_version = "via-gladiola/1"
    min_players = 2
    max_players = 5
    codec = CODEC
    shapes = SHAPES
    score_name = "blisters"
    option_specs = (
        OptionSpec(
            "variant_last_card",
            "bool",
            False,
            "Variant: the game ends when a player plays their last card.",
        ),
        OptionSpec("first_player", "seat", None, "The seat that starts day 1 (default: random)."),
        OptionSpec("deck", "deck", None, "A deck file's text (default: the house deck)."),
    )

    def check_options(self, options: dict[str, Any], players: int) -> None:
        if options["deck"] is not None:
            parse_deck(options["deck"])

    # -- setup ---------------------------------------------------------------------------------

    def setup(self, config: TableConfig, seed: bytes) -> VGState:
        opts = config.options
        rng = Rng(seed)
        deck = deck_for(opts.get("deck"))
        draw = list(DRAW_PILE_IDS)
        rng.shuffle(draw)
        players = config.players
        hands = deal(draw, players)
        first = opts.get("first_player")
        if first is None:
            first = rng.below(config.players)
        return VGState(
            players=players,
            variant_last_card=bool(opts.get("variant_last_card", False)),
            deck_text=opts.get("deck"),
            deck=deck,
            rng=rng,
            hands=hands,
            draw=draw,
            day=1,
            walk=[start_card(1)],
            finished=[],
            gladiolas=[],
            current=first,
            first_player=first,
        )

    # -- whose turn, what is legal ---------------------------------------------------------------

    def legal_actions(self, state: VGState, seat: int) -> list[Action]:
        if state.over or seat != state.current:
            return []
        return legal_moves(state.hands[seat], state.walk[-1], state.day)

    def legal_actions_in_view(self, view: Mapping[str, Any]) -> list[Action]:
        seat = view["seat"]
        if view["over"] or seat is None or view["current"] != seat:
            return []
        return legal_moves(view["hand"], view["walk_pile"][-1], view["day"])

    # -- applying ----------------------------------------------------------------------------------

    def _apply(self, state: VGState, seat: int, action: Action) -> list[Event]:
        kind = type(action)
        if kind is Walk:
            events = self._walk(state, seat, action.card)  # type: ignore[attr-defined]
        elif kind is Rest:
            events = self._rest(state, seat)
        elif kind is PlayGladiola:
            events = self._gladiola(state, seat, action.card)  # type: ignore[attr-defined]
        else:
            raise IllegalAction(f"'{action.KIND}' is not a Via Gladiola action")
        state.turns += 1
        return events

    def _walk(self, state: VGState, seat: int, card: int) -> list[Event]:
        hand = state.hands[seat]
        if card not in hand:
            raise IllegalAction("that card is not in your hand")
        deck = state.deck
        if card >= FIRST_GLADIOLA:
            if is_gladiola(card):
                raise IllegalAction("a Gladiola cannot be walked: lay it aside on day 4")
            raise IllegalAction("a Start card cannot be played")
        top = deck.value[state.walk[-1]]
        difference = deck.value[card] - top
        if not 0 < difference <= MAX_STEP:
            if difference < 1:
                raise IllegalAction(f"{label(card, deck)} is not higher than the top card {top}")
            raise IllegalAction(
                f"{label(card, deck)} is {difference} above the top card {top}: "
                f"more than +{MAX_STEP} is too fast"
            )
        draws = _CADENCE[difference]
        hand.remove(card)
        state.walk.append(card)
        state.idle_rests = 0
        events = [Event("walk", {"seat": seat, "card": card, "cadence_draws": draws})]
        if state.variant_last_card and self._ends_on_last_card(state, seat, events):
            return events
        if draws:
            self._draw(state, seat, draws, events)
        if card >= FIRST_FINISH:
            self._end_day(state, "finish", seat, events)
        else:
            state.current = (seat + 1) % state.players
        return events

    def _rest(self, state: VGState, seat: int) -> list[Event]:
        if state.draw:  # the usual case, in short
            card = state.draw.pop()
            state.hands[seat].append(card)
            state.idle_rests = 0
            state.current = (seat + 1) % state.players
            return [Event("rest", {"seat": seat}), _draw_event(seat, [card])]
        events = [Event("rest", {"seat": seat})]
        drawn = self._draw(state, seat, 1, events)
        if drawn:
            state.idle_rests = 0
        else:
            state.idle_rests += 1
            if state.idle_rests >= state.players:
                events.append(
                    Event("stalemate", {"day": state.day, "rests": state.idle_rests, "seat": seat})
                )
                self._end_day(state, "stalemate", seat, events)
                return events
        state.current = (seat + 1) % state.players
        return events

    def _gladiola(self, state: VGState, seat: int, card: int) -> list[Event]:
        hand = state.hands[seat]
        if card not in hand:
            raise IllegalAction("that card is not in your hand")
        if not is_gladiola(card):
            raise IllegalAction("only a Gladiola can be laid beside the walk pile")
        if state.day != DAYS:
            raise IllegalAction(f"Gladiolas can only be played on day {DAYS}, not day {state.day}")
        hand.remove(card)
        state.gladiolas.append(card)
        state.idle_rests = 0
        events = [Event("gladiola", {"seat": seat, "card": card})]
        if not self._ends_on_last_card(state, seat, events):
            state.current = (seat + 1) % state.players
        return events

    # -- drawing and reshuffling -------------------------------------------------------------------

    def _draw(self, state: VGState, seat: int, count: int, events: list[Event]) -> int:
        """Draw up to `count` cards, reshuffling finished days as needed; returns how many."""
        hand = state.hands[seat]
        draw = state.draw
        if 0 < count <= len(draw):  # the usual case: the pile has enough
            cards = draw[-count:][::-1]  # top card first
            del draw[-count:]
            hand += cards
            events.append(_draw_event(seat, cards))
            return count
        total = 0
        batch: list[int] = []
        for _ in range(count):
            if not state.draw:
                if batch:
                    events.append(_draw_event(seat, batch))
                    batch = []
                if not self._reshuffle(state, events):
                    break
            card = state.draw.pop()
            batch.append(card)
            hand.append(card)
            total += 1
        if batch or (count and not total):
            events.append(_draw_event(seat, batch))
        return total

    def _reshuffle(self, state: VGState, events: list[Event]) -> bool:
        """Shuffle the oldest finished day (not its Start card) into a new draw pile."""
        for index, pile in enumerate(state.finished):
            if pile is None:
                continue
            state.finished[index] = None
            cards = [c for c in pile if c < FIRST_START]
            if not cards:
                continue
            events.append(
                Event(
                    "reshuffle",
                    {"day": index + 1, "size": len(cards)},
                    secret=self._new_draw_pile(state, cards),
                )
            )
            return True
        return False

    def _new_draw_pile(self, state: VGState, cards: list[int]) -> dict[str, Any]:
        """Shuffle `cards` into the draw pile; returns what the reshuffle event keeps secret.
        A sealed game cannot shuffle here (nobody may know the order): it seals them instead."""
        state.rng.shuffle(cards)
        state.draw = cards
        return {"draw_pile_top_last": list(cards)}

    # -- days and the end ----------------------------------------------------------------------------

    def _end_day(self, state: VGState, reason: str, seat: int, events: list[Event]) -> None:
        day = state.day
        state.finished.append(state.walk)
        state.day_ends.append({"day": day, "reason": reason, "seat": seat})
        events.append(Event("day_end", {"day": day, "reason": reason, "seat": seat}))
        state.idle_rests = 0
        if day == DAYS:
            self._end_game(state, "day_4_over", events)
            return
        state.day = day + 1
        state.walk = [start_card(state.day)]
        state.current = (seat + 1) % state.players
        events.append(Event("day_start", {"day": state.day, "seat": state.current}))

    def _ends_on_last_card(self, state: VGState, seat: int, events: list[Event]) -> bool:
        """The variant: the card just played was the hand's last, so the game ends at once,
        before the cadence draws it would cause and before a Finish ends the day (both sheets:
        "immediately")."""
        if not state.variant_last_card or state.hands[seat]:
            return False
        self._end_game(state, "last_card", events)
        return True

    def _end_game(self, state: VGState, reason: str, events: list[Event]) -> None:
        state.over = True
        state.end_reason = reason
        scores, _, winners = _ranking(state)
        events.append(
            Event(
                "game_end",
                {
                    "reason": reason,
                    "scores": scores,
                    "winners": winners,
                    "hands": [sorted(h) for h in state.hands],
                },
            )
        )

    def outcome(self, state: VGState) -> Outcome | None:
        return self.standings(state) if state.over else None

    def standings(self, state: VGState) -> Outcome:
        """The blisters in each hand now: the final score once the game is over."""
        blisters = state.deck.blisters
        scores, keys, winners = _ranking(state)
        hands = [sorted(h) for h in state.hands]
        return Outcome(
            scores=tuple(scores),
            winners=tuple(winners),
            places=places_from_keys(keys),
            lower_is_better=True,
            detail={
                "reason": state.end_reason,
                "hands": hands,
                "hand_sizes": [len(h) for h in hands],
                "blisters": [[blisters[c] for c in h] for h in hands],
            },
        )

    # -- views -----------------------------------------------------------------------------------------

    def public_view(self, state: VGState) -> dict[str, Any]:
        return views.PUBLIC.build(state, None)

    def view(self, state: VGState, seat: int) -> dict[str, Any]:
        return views.SEAT.build(state, seat)

    def lazy_view(self, state: VGState, seat: int) -> Mapping[str, Any]:
        return views.SEAT.lazy(state, seat)

    # -- data ------------------------------------------------------------------------------------------

    def cards(self, config: TableConfig) -> list[dict[str, Any]]:
        return [c.to_data() for c in deck_for(config.options.get("deck")).cards]

    def house_deck(self) -> str:
        return house_deck_text()

    def encode_state(self, state: VGState) -> dict[str, Any]:
        return state.to_data()

    def decode_state(self, data: Mapping[str, Any]) -> VGState:
        return VGState.from_data(dict(data))

    def copy_state(self, state: VGState) -> VGState:
        return state.copy()

    def sample_state(
        self,
        config: TableConfig,
        view: Mapping[str, Any],
        history: Sequence[Mapping[str, Any]],
        rng: random.Random,
    ) -> VGState:
        return sampling.sample_state(config, view, history, rng)

    def locations(self, state: VGState) -> dict[str, list[int]]:
        places = {f"hand:{s}": list(h) for s, h in enumerate(state.hands)}
        places["draw"] = list(state.draw)
        if len(state.finished) < state.day:  # the current day's pile, unless it just finished
            places["walk"] = list(state.walk)
        places["gladiolas"] = list(state.gladiolas)
        aside = [start_card(d) for d in range(state.day + 1, DAYS + 1)]
        for index, pile in enumerate(state.finished):
            if pile is None:
                aside.append(start_card(index + 1))
            else:
                places[f"day:{index + 1}"] = list(pile)
        places["start_cards_aside"] = aside
        return places

    def deal_record(self, state: VGState) -> dict[str, Any]:
        return {
            "hands": [list(h) for h in state.hands],
            "draw_pile_top_last": list(state.draw),
            "first_player": state.first_player,
            "walk_pile": list(state.walk),
        }


def _ranking(state: VGState) -> tuple[list[int], list[tuple[int, int]], list[int]]:
    """Blisters in each hand, each seat's sort key (blisters, then cards), and the winners."""
    blisters = state.deck.blisters
    hands = state.hands
    scores = [sum(map(blisters.__getitem__, hand)) for hand in hands]
    keys = [(score, len(hand)) for score, hand in zip(scores, hands, strict=True)]
    best = min(keys)
    return scores, keys, [s for s, key in enumerate(keys) if key == best]


def _draw_event(seat: int, cards: list[int]) -> Event:
    """`cards` becomes the event's own: callers hand over a list they no longer change."""
    return Event("draw", {"seat": seat, "count": len(cards)}, {seat: {"cards": cards}})
