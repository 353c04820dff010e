"""What happens between choices: resolving runs, revealing the odometer, refills, stage ends.

Once the last seat of a step has acted, the rules run on by themselves until a seat has to
choose again (a new run card, an odometer card, the cards of a Free road) or the game is over.
Each function appends the events it causes; all chance comes from the state's generator.

The steps are methods of `Flow` so that the sealed mode (auf_achse.sealed) can replace the few
that would need the whole deal: the shuffles (which seal instead), a refill (which also lists
the drawn cards to open to the drawer), turning an odometer card (which waits for its owner to
reveal it) and scoring a stage (which waits for the runs to be revealed). The module-level
names are the classic game's flow.
"""

from __future__ import annotations

from netcards.event import Event
from netcards.games.auf_achse.cards import (
    CARD_COUNT,
    FREE_ROAD_CARDS,
    KM,
    LEVEL_CROSSING,
    LOST_FREIGHT,
    LOST_FREIGHT_KM,
    REST,
)
from netcards.games.auf_achse.scoring import score_run
from netcards.games.auf_achse.state import FREE_ROAD, ODOMETER, OVER, RUN, AAState

HAND_SIZE = 10
STAGES = 5
ROUND_LIMIT = 20  # decided: a stage that cannot reach its target still ends
TARGETS = {2: 150, 3: 200, 4: 250, 5: 300}


def target(players: int) -> int:
    return TARGETS[players]


def seats_from(first: int, players: int) -> list[int]:
    """Every seat once, clockwise from `first`."""
    return [(first + i) % players for i in range(players)]


class Flow:
    """The classic game's steps between choices; the sealed mode overrides the hooks."""

    # -- the hooks ------------------------------------------------------------------------------

    def shuffled(self, state: AAState, cards: list[int]) -> list[int]:
        """`cards` as a pile in a new secret order (top last): the deal's and a reshuffle's.
        A sealed game cannot shuffle here (nobody may know the order): it seals them instead."""
        state.rng.shuffle(cards)
        return cards

    def can_turn(self, state: AAState) -> bool:
        """Whether the next odometer card can be turned over now. Always, in the classic game; a
        sealed game waits for its owner to reveal it (and a Level crossing for the runs' ends)."""
        return True

    # -- dealing -------------------------------------------------------------------------------------

    def deal(self, state: AAState, events: list[Event]) -> None:
        """Gather every card, shuffle, deal 10 to each seat (one at a time, from seat 0)."""
        pile = self.shuffled(state, list(range(CARD_COUNT)))
        hands: list[list[int]] = [[] for _ in range(state.players)]
        for _ in range(HAND_SIZE):
            for hand in hands:
                if pile:
                    hand.append(pile.pop())
        n = state.players
        state.hands = hands
        state.draw = pile
        state.runs = [[] for _ in range(n)]
        state.pending = [[] for _ in range(n)]
        state.need = [0] * n
        state.odometer_down = [[] for _ in range(n)]
        state.reveal_order = []
        state.odometer_km = []
        state.resolving = []
        state.discard = []
        state.total = 0
        state.current = -1
        state.round = 0
        events.append(
            Event(
                "stage_start",
                {
                    "stage": state.stage,
                    "first_player": state.first_player,
                    "target": target(n),
                    "hand_sizes": [len(h) for h in hands],
                    "draw_pile": len(pile),
                },
                {s: {"hand": sorted(h)} for s, h in enumerate(hands)},
                {"hands": [list(h) for h in hands], "draw_pile_top_last": list(pile)},
            )
        )

    # -- the steps of a round ------------------------------------------------------------------------

    def start_round(self, state: AAState, events: list[Event]) -> None:
        """Step 1: everyone with a card chooses one for their run, at the same time."""
        need = [1 if hand else 0 for hand in state.hands]
        if not any(need):
            self.end_stage(state, "no_cards", events)
            return
        state.round += 1
        state.phase = RUN
        state.need = need
        state.current = -1
        events.append(
            Event(
                "round_start",
                {"stage": state.stage, "round": state.round, "first_player": state.first_player},
            )
        )

    def resolve_choices(self, state: AAState, kind: str, events: list[Event]) -> None:
        """Every seat's pending cards go to the right end of its run, in seat order."""
        added = [list(p) for p in state.pending]
        for seat, cards in enumerate(added):
            state.runs[seat].extend(cards)
            state.pending[seat] = []
        state.need = [0] * state.players
        events.append(
            Event(
                kind,
                {
                    "counts": [len(c) for c in added],
                    "run_lengths": [len(r) for r in state.runs],
                },
                {s: {"cards": list(c)} for s, c in enumerate(added) if c},
                {"cards_by_seat": added},
            )
        )

    def start_odometer(self, state: AAState, events: list[Event]) -> None:
        """Step 2: from the first player clockwise, each seat with a card plays one face down."""
        state.phase = ODOMETER
        state.reveal_order = []
        self.next_odometer_seat(state, 0, events)

    def next_odometer_seat(self, state: AAState, offset: int, events: list[Event]) -> None:
        """Ask the first seat with a card, `offset` or more seats after the first player; else reveal."""
        n = state.players
        for i in range(offset, n):
            seat = (state.first_player + i) % n
            if state.hands[seat]:
                state.current = seat
                return
        state.current = -1
        self.reveal(state, events)

    def reveal(self, state: AAState, events: list[Event]) -> None:
        """Step 3: turn the odometer cards over in play order; pause at a Free road."""
        deck = state.deck
        kinds = deck.kind
        while state.reveal_order:
            if not self.can_turn(state):
                return
            seat = state.reveal_order.pop(0)
            card = state.odometer_down[seat].pop()
            kind = kinds[card]
            public = {"seat": seat, "card": card, "label": deck.label(card)}
            if kind == KM:
                state.odometer_km.append(card)
                state.total += deck.value[card]
                events.append(Event("reveal", {**public, "effect": "km", "total": state.total}))
            elif kind == REST:
                state.discard.append(card)
                events.append(Event("reveal", {**public, "effect": "rest", "total": state.total}))
            elif kind == LOST_FREIGHT:
                before = state.total
                state.total = max(0, before - LOST_FREIGHT_KM)
                state.discard.append(card)
                events.append(
                    Event(
                        "reveal",
                        {
                            **public,
                            "effect": "lost_freight",
                            "km_lost": before - state.total,
                            "total": state.total,
                        },
                    )
                )
            elif kind == LEVEL_CROSSING:
                removed: list[int | None] = []
                for run in state.runs:
                    removed.append(run.pop() if run else None)
                state.discard.extend(c for c in removed if c is not None)
                state.discard.append(card)
                events.append(
                    Event(
                        "reveal",
                        {
                            **public,
                            "effect": "level_crossing",
                            "removed": removed,
                            "run_lengths": [len(r) for r in state.runs],
                            "total": state.total,
                        },
                    )
                )
            else:
                count = FREE_ROAD_CARDS[kind]
                need = [min(count, len(hand)) for hand in state.hands]
                events.append(
                    Event(
                        "reveal",
                        {**public, "effect": "free_road", "cards": count, "need": need},
                    )
                )
                if any(need):
                    state.resolving = [card]
                    state.need = need
                    state.phase = FREE_ROAD
                    return
                state.discard.append(card)
        self.end_round(state, events)

    def finish_free_road(self, state: AAState, events: list[Event]) -> None:
        """All seats have chosen: the cards join the runs, the action card is discarded, go on."""
        self.resolve_choices(state, "free_road_added", events)
        state.discard.extend(state.resolving)
        state.resolving = []
        state.phase = ODOMETER
        self.reveal(state, events)

    def end_round(self, state: AAState, events: list[Event]) -> None:
        """Step 4: the stage ends at the target; otherwise refill to 10 and pass the first-player card.

        Lost freight cards come back through the discards, so players who keep feeding them to the
        odometer (or hold nothing else) could hold the total down forever: the round limit ends such
        a stage. Stages normally end in a handful of rounds, far below the limit.
        """
        if state.total >= target(state.players):
            self.end_stage(state, "target", events)
            return
        if state.round >= ROUND_LIMIT:
            self.end_stage(state, "round_limit", events)
            return
        for seat in seats_from(state.first_player, state.players):
            self.refill(state, seat, events)
        state.first_player = (state.first_player + 1) % state.players
        events.append(Event("first_player", {"seat": state.first_player}))
        self.start_round(state, events)

    # -- drawing -------------------------------------------------------------------------------------

    def refill(self, state: AAState, seat: int, events: list[Event]) -> None:
        """Draw up to 10 cards, shuffling the discards into a new draw pile when it runs out."""
        hand = state.hands[seat]
        drawn: list[int] = []
        while len(hand) < HAND_SIZE:
            if not state.draw:
                if drawn:
                    events.append(_draw_event(seat, drawn))
                    drawn = []
                if not state.discard:
                    break
                self.reshuffle(state, events)
            card = state.draw.pop()
            hand.append(card)
            drawn.append(card)
        if drawn:
            events.append(_draw_event(seat, drawn))

    def reshuffle(self, state: AAState, events: list[Event]) -> None:
        pile = self.shuffled(state, state.discard)
        state.discard = []
        state.draw = pile
        events.append(
            Event("reshuffle", {"size": len(pile)}, secret={"draw_pile_top_last": list(pile)})
        )

    # -- stages and the end ------------------------------------------------------------------------

    def end_stage(self, state: AAState, reason: str, events: list[Event]) -> None:
        """Reveal and score the runs from the first player on; then the next stage or the end."""
        deck = state.deck
        runs = []
        scores = [0] * state.players
        for seat in seats_from(state.first_player, state.players):
            result = score_run(state.runs[seat], deck.kind, deck.value)
            scores[seat] = result.score
            runs.append({"seat": seat, "cards": list(state.runs[seat]), **result.to_data()})
        record = {
            "stage": state.stage,
            "reason": reason,
            "rounds": state.round,
            "total": state.total,
            "target": target(state.players),
            "first_player": state.first_player,
            "scores": scores,
            "runs": runs,
        }
        state.history.append(record)
        totals = totals_of(state)
        events.append(Event("stage_end", {**record, "totals": totals}))
        if state.stage == STAGES:
            state.over = True
            state.phase = OVER
            state.need = [0] * state.players
            state.current = -1
            best = max(totals)
            events.append(
                Event(
                    "game_end",
                    {
                        "scores": totals,
                        "winners": [s for s, t in enumerate(totals) if t == best],
                        "stage_scores": [list(h["scores"]) for h in state.history],
                    },
                )
            )
            return
        state.stage += 1
        state.first_player = (state.first_player + 1) % state.players
        self.deal(state, events)
        self.start_round(state, events)


def _draw_event(seat: int, cards: list[int]) -> Event:
    return Event("refill", {"seat": seat, "count": len(cards)}, {seat: {"cards": list(cards)}})


CLASSIC = Flow()
deal = CLASSIC.deal
start_round = CLASSIC.start_round
resolve_choices = CLASSIC.resolve_choices
start_odometer = CLASSIC.start_odometer
next_odometer_seat = CLASSIC.next_odometer_seat
reveal = CLASSIC.reveal
finish_free_road = CLASSIC.finish_free_road
end_round = CLASSIC.end_round
refill = CLASSIC.refill
reshuffle = CLASSIC.reshuffle
end_stage = CLASSIC.end_stage


def totals_of(state: AAState) -> list[int]:
    return [sum(h["scores"][s] for h in state.history) for s in range(state.players)]
