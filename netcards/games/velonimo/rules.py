"""Velonimo's rules: the French sheet, 3-5 players and the duel, plus docs/rules/velonimo.md.

A round is a series of attacks. Leading is compulsory, then each seat in turn beats the
current play or passes; when everybody still holding cards has passed since the last play,
its player clears the table and leads (if that player has finished, they name who leads).
Leaders trigger an exchange, asked as separate decisions (the victim, then each card given
back, one at a time); in the duel a won attack asks where the reward goes. Scores, the jersey
and the next first player are settled between rounds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from netcards.action import Action
from netcards.errors import IllegalAction
from netcards.event import Event
from netcards.game import Outcome, TableConfig, places_from_keys
from netcards.games.velonimo import sampling, views
from netcards.games.velonimo.actions import (
    CODEC,
    ChooseLeader,
    ChooseVictim,
    GiveBack,
    GiveReward,
    Pass,
    Play,
)
from netcards.games.velonimo.cards import ALL_CARDS, card_name, catalogue, label
from netcards.games.velonimo.choices import choices, jersey_wearable
from netcards.games.velonimo.combos import JERSEY_BONUS, can_wear_jersey, play_facts
from netcards.games.velonimo.shapes import SHAPES
from netcards.games.velonimo.standings import (
    jersey_holder,
    next_first_player,
    ranking_keys,
    totals_of,
)
from netcards.games.velonimo.state import VelonimoState
from netcards.options import OptionSpec
from netcards.rng import Rng
from netcards.turns import OneSeatAtATime

HAND_SIZE = 11
DUEL_PLAYERS = 2
DEFAULT_DIFFICULTIES = (1, 2, 3, 4, 5)
DEFAULT_DUEL_TARGET = 8

_PHASE_OF: dict[type[Action], str] = {
    Play: "play",
    Pass: "play",
    ChooseVictim: "victim",
    GiveBack: "give_back",
    ChooseLeader: "next_leader",
    GiveReward: "reward",
}
_WRONG_PHASE = {
    "play": "play cards or pass",
    "victim": "choose the opponent your leaders take cards from",
    "give_back": "give cards back to the opponent your leaders took cards from",
    "next_leader": "choose who leads the next attack",
    "reward": "choose whose hand the reward goes to",
}


class Velonimo(OneSeatAtATime[VelonimoState]):
    id = "velonimo"
    name = "Velonimo"
    rules_version = "velonimo/2"
    min_players = 2
    max_players = 5
    codec = CODEC
    shapes = SHAPES
    state_type: type[VelonimoState] = VelonimoState
    """What `setup` builds: a sealed game's state also keeps its ledger (velonimo.sealed)."""
    option_specs = (
        OptionSpec(
            "first_player",
            "seat",
            None,
            "The seat that leads round 1 (the sheet: the youngest player; default: random).",
        ),
        OptionSpec(
            "difficulties",
            "int_list",
            list(DEFAULT_DIFFICULTIES),
            "The difficulty of each round, in order; the game has as many rounds as values.",
            minimum=1,
            maximum=10,
            max_items=20,
        ),
        OptionSpec(
            "duel_target",
            "int",
            DEFAULT_DUEL_TARGET,
            "Duel only: the game ends as soon as a player has this many points.",
            minimum=1,
            maximum=200,
        ),
    )

    # -- setup -------------------------------------------------------------------------------

    def setup(self, config: TableConfig, seed: bytes) -> VelonimoState:
        opts = config.options
        rng = Rng(seed)
        first = opts.get("first_player")
        if first is None:
            first = rng.below(config.players)
        state = self.state_type(
            players=config.players,
            duel=config.players == DUEL_PLAYERS,
            difficulties=[int(d) for d in opts.get("difficulties", DEFAULT_DIFFICULTIES)],
            duel_target=int(opts.get("duel_target", DEFAULT_DUEL_TARGET)),
            rng=rng,
            round=0,
            first_player=first,
            hands=[[] for _ in range(config.players)],
            aside=[],
            draw=[],
            reward=None,
            attack=[],
            discard=[],
            last_player=None,
            passes=0,
            current=first,
            phase="play",
            finished=[],
            round_points=[0] * config.players,
        )
        _deal(state, first, self._new_deck(state))
        return state

    # -- whose turn, what is legal ----------------------------------------------------------

    def legal_actions_in_view(self, view: Mapping[str, Any]) -> list[Action]:
        seat = view["seat"]
        if view["over"] or seat is None or view["current"] != seat:
            return []
        jersey = view["jersey"]
        return choices(
            view["phase"],
            seat,
            view["hand"],
            view["attack_value"],
            jersey_wearable(view["mode"] == "duel", jersey["holder"], jersey["used"], seat),
            lambda: [s for s, n in enumerate(view["hand_sizes"]) if n],
        )

    def legal_actions(self, state: VelonimoState, seat: int) -> list[Action]:
        if state.over or seat != state.current:
            return []
        return choices(
            state.phase,
            seat,
            state.hands[seat],
            state.attack[-1][3] if state.attack else None,
            jersey_wearable(state.duel, state.jersey, state.jersey_used, seat),
            state.active,
        )

    # -- applying ------------------------------------------------------------------------------

    def _apply(self, state: VelonimoState, seat: int, action: Action) -> list[Event]:
        wanted = _PHASE_OF.get(type(action))
        if wanted is None:
            raise IllegalAction(f"'{action.KIND}' is not a Velonimo action")
        if state.phase != wanted:
            raise IllegalAction(f"not now: {_WRONG_PHASE[state.phase]}")
        if type(action) is Play:
            events = self._play(state, seat, action)
        elif type(action) is Pass:
            events = self._pass(state, seat)
        elif isinstance(action, ChooseVictim):
            events = self._choose_victim(state, seat, action.seat)
        elif isinstance(action, GiveBack):
            events = self._give_back(state, seat, action.card)
        elif isinstance(action, ChooseLeader):
            events = self._choose_leader(state, seat, action.seat)
        else:
            assert isinstance(action, GiveReward)
            events = self._give_reward(state, seat, action.to_seat)
        state.turns += 1
        return events

    def _play(self, state: VelonimoState, seat: int, action: Play) -> list[Event]:
        cards = action.cards
        value, leaders, water_carriers = play_facts(cards)
        hand = state.hands[seat]
        for card in cards:
            if card not in hand:
                raise IllegalAction(f"{label(card)} is not in your hand")
        jersey = action.jersey
        if jersey:
            _check_jersey(state, seat, cards)
            value += JERSEY_BONUS
        attack = state.attack
        if attack and value <= attack[-1][3]:
            raise IllegalAction(f"a play worth {value} does not beat the current {attack[-1][3]}")
        # Valid: from here on the state changes.
        for card in cards:
            hand.remove(card)
        attack.append((seat, cards, jersey, value))
        if jersey:
            state.jersey_used = True
        state.last_player = seat
        state.passes = 0
        events = [
            Event(
                "play",
                {
                    "seat": seat,
                    "cards": list(cards),
                    "jersey": jersey,
                    "value": value,
                    "hand_size": len(hand),
                },
            )
        ]
        if not hand:
            _finish(state, seat, events)
            if state.holding() <= 1:
                self._end_round(state, events)
                return events
            state.current = state.next_active(seat)
            return events
        if state.duel:
            _water_carriers(state, seat, water_carriers, events)
        if leaders:
            victims = _victims(state, seat)
            state.current = seat
            if len(victims) == 1:
                self._steal(state, seat, victims[0], leaders, events)
            else:
                state.phase = "victim"
                state.steal_count = leaders
            return events
        state.current = state.next_active(seat)
        return events

    def _pass(self, state: VelonimoState, seat: int) -> list[Event]:
        if not state.attack:
            raise IllegalAction("you lead this attack: play a card or a combination")
        state.passes += 1
        events = [Event("pass", {"seat": seat})]
        winner = state.last_player
        assert winner is not None
        winner_in = bool(state.hands[winner])
        if state.passes < state.holding() - winner_in:
            state.current = state.next_active(seat)
            return events
        # Everybody else passed: the attack is over.
        for _, cards, _, _ in state.attack:
            state.discard.extend(cards)
        state.attack = []
        state.passes = 0
        state.last_player = None
        events.append(Event("attack_won", {"seat": winner, "finished": not winner_in}))
        state.current = winner
        if not winner_in:
            state.phase = "next_leader"
        elif state.duel and state.reward is not None:
            state.phase = "reward"
        return events

    def _choose_victim(self, state: VelonimoState, seat: int, victim: int) -> list[Event]:
        if victim not in _victims(state, seat):
            raise IllegalAction(f"seat {victim + 1} is not an opponent still holding cards")
        events: list[Event] = []
        self._steal(state, seat, victim, state.steal_count, events)
        return events

    def _give_back(self, state: VelonimoState, seat: int, card: int) -> list[Event]:
        hand = state.hands[seat]
        if card not in hand:
            raise IllegalAction(f"{card_name(card)} is not in your hand")
        victim = state.victim
        assert victim is not None
        hand.remove(card)
        state.hands[victim].append(card)
        state.to_give -= 1
        private = {"card": card}
        events = [
            Event(
                "leader_give",
                {"seat": seat, "victim": victim, "to_give": state.to_give},
                {seat: dict(private), victim: dict(private)},
            )
        ]
        if state.to_give:
            return events
        state.victim = None
        state.taken = []
        state.phase = "play"
        state.current = state.next_active(seat)
        return events

    def _choose_leader(self, state: VelonimoState, seat: int, leader: int) -> list[Event]:
        if leader not in state.active():
            raise IllegalAction(f"seat {leader + 1} is not still in the round")
        state.phase = "play"
        state.current = leader
        return [Event("next_leader", {"seat": seat, "leader": leader})]

    def _give_reward(self, state: VelonimoState, seat: int, to_seat: int) -> list[Event]:
        if to_seat not in (0, 1):
            raise IllegalAction("the reward goes to your hand or your opponent's")
        card = state.reward
        assert card is not None
        state.hands[to_seat].append(card)
        events = [Event("reward", {"seat": seat, "card": card, "to": to_seat})]
        _reveal_reward(state, events)
        state.phase = "play"
        state.current = seat
        return events

    # -- chance: the two places a sealed game replaces (velonimo.sealed) ------------------------

    def _new_deck(self, state: VelonimoState) -> list[int]:
        """All 55 cards in a new order, to deal from the end. A sealed game cannot shuffle here
        (nobody may know the order): it seals them and deals their slots instead."""
        deck = list(ALL_CARDS)
        state.rng.shuffle(deck)
        return deck

    def _steal(
        self, state: VelonimoState, seat: int, victim: int, leaders: int, events: list[Event]
    ) -> None:
        """Take min(leaders, hand size) cards at random from `victim`; the give-back comes next.
        A sealed game cannot draw here (the draw must come from nobody's seed): it waits."""
        count = min(leaders, len(state.hands[victim]))
        take(state, seat, victim, leaders, state.rng.sample(state.hands[victim], count), events)

    # -- rounds and the end ----------------------------------------------------------------------

    def _end_round(self, state: VelonimoState, events: list[Event]) -> None:
        last = state.active()
        scores = list(state.round_points)
        state.round_scores.append(scores)
        totals = totals_of(state.round_scores, state.players)
        state.jersey = jersey_holder(totals, scores, state.jersey)
        events.append(
            Event(
                "round_end",
                {
                    "round": state.round + 1,
                    "difficulty": state.difficulty,
                    "finish_order": [*state.finished, *last],
                    "scores": scores,
                    "totals": totals,
                    "jersey": state.jersey,
                },
                secret={"hands_left": [sorted(h) for h in state.hands]},
            )
        )
        last_round = state.round + 1 == len(state.difficulties)
        if state.duel and max(totals) >= state.duel_target:
            self._end_game(state, "duel_target", events)
        elif last_round:
            self._end_game(state, "rounds_done", events)
        else:
            state.round += 1
            first = next_first_player(totals, scores, state.first_player)
            _deal(state, first, self._new_deck(state))
            events.append(_deal_event(state))

    def _end_game(self, state: VelonimoState, reason: str, events: list[Event]) -> None:
        state.over = True
        state.phase = "over"
        state.end_reason = reason
        outcome = self.outcome(state)
        assert outcome is not None
        events.append(
            Event(
                "game_end",
                {
                    "reason": reason,
                    "scores": list(outcome.scores),
                    "winners": list(outcome.winners),
                    "jersey": state.jersey,
                    "round_scores": [list(r) for r in state.round_scores],
                },
            )
        )

    def outcome(self, state: VelonimoState) -> Outcome | None:
        return self.standings(state) if state.over else None

    def progress(self, state: VelonimoState) -> int:
        return len(state.round_scores)

    def standings(self, state: VelonimoState) -> Outcome:
        totals = totals_of(state.round_scores, state.players)
        last = state.round_scores[-1] if state.round_scores else [0] * state.players
        holder = state.jersey
        keys = ranking_keys(totals, last, holder)
        best = min(keys)
        return Outcome(
            scores=tuple(totals),
            winners=tuple(s for s in range(state.players) if keys[s] == best),
            places=places_from_keys(keys),
            lower_is_better=False,
            detail={
                "reason": state.end_reason,
                "mode": "duel" if state.duel else "standard",
                "difficulties": state.difficulties[: len(state.round_scores)],
                "round_scores": [list(r) for r in state.round_scores],
                "totals": totals,
                "jersey": holder,
            },
        )

    # -- views -------------------------------------------------------------------------------------

    def public_view(self, state: VelonimoState) -> dict[str, Any]:
        return views.PUBLIC.build(state, None)

    def view(self, state: VelonimoState, seat: int) -> dict[str, Any]:
        return views.SEAT.build(state, seat)

    def lazy_view(self, state: VelonimoState, seat: int) -> Mapping[str, Any]:
        return views.SEAT.lazy(state, seat)

    # -- data --------------------------------------------------------------------------------------

    def cards(self, config: TableConfig) -> list[dict[str, Any]]:
        return catalogue()

    def encode_state(self, state: VelonimoState) -> dict[str, Any]:
        return state.to_data()

    def decode_state(self, data: Mapping[str, Any]) -> VelonimoState:
        return VelonimoState.from_data(dict(data))

    def copy_state(self, state: VelonimoState) -> VelonimoState:
        return state.copy()

    def sample_state(
        self,
        config: TableConfig,
        view: Mapping[str, Any],
        history: Sequence[Mapping[str, Any]],
        rng: random.Random,
    ) -> VelonimoState:
        return sampling.sample_state(config, view, history, rng)

    def locations(self, state: VelonimoState) -> dict[str, list[int]]:
        places = {f"hand:{s}": list(h) for s, h in enumerate(state.hands)}
        places["attack"] = [c for _, cards, _, _ in state.attack for c in cards]
        places["discard"] = list(state.discard)
        places["set_aside"] = list(state.aside)
        places["draw"] = list(state.draw)
        places["reward"] = [] if state.reward is None else [state.reward]
        return places

    def deal_record(self, state: VelonimoState) -> dict[str, Any]:
        return {
            "round": state.round + 1,
            "hands": [list(h) for h in state.hands],
            "set_aside": list(state.aside),
            "draw_pile_top_last": list(state.draw),
            "reward": state.reward,
            "first_player": state.first_player,
        }


# -- helpers that change the state (called only once an action is known to be valid) -------------


def _deal(state: VelonimoState, first: int, deck: list[int]) -> None:
    """Deal `deck` (all 55 cards, top last; it loses them) and start a round led by `first`."""
    # One card at a time to each player in turn from the top (the end of the list).
    players = state.players
    dealt = players * HAND_SIZE
    state.hands = [deck[-1 - s : -1 - dealt : -players] for s in range(players)]
    del deck[-dealt:]
    if state.duel:
        state.aside = []
        state.reward = deck.pop()
        state.draw = deck
    else:
        state.aside = deck
        state.reward = None
        state.draw = []
    state.first_player = first
    state.current = first
    state.phase = "play"
    state.attack = []
    state.discard = []
    state.last_player = None
    state.passes = 0
    state.finished = []
    state.round_points = [0] * state.players
    state.jersey_used = False
    state.steal_count = 0
    state.victim = None
    state.taken = []
    state.to_give = 0


def _deal_event(state: VelonimoState) -> Event:
    return Event(
        "round_start",
        {
            "round": state.round + 1,
            "difficulty": state.difficulty,
            "first_player": state.first_player,
            "hand_sizes": [len(h) for h in state.hands],
            "jersey": state.jersey,
            "reward": state.reward,
            "draw_pile": len(state.draw),
        },
        {s: {"hand": sorted(h)} for s, h in enumerate(state.hands)},
        {"set_aside": list(state.aside), "draw_pile_top_last": list(state.draw)},
    )


def _finish(state: VelonimoState, seat: int, events: list[Event]) -> None:
    """`seat` just played its last card: it scores for every opponent still holding cards."""
    still_in = state.holding()
    points = state.difficulty * still_in
    state.round_points[seat] += points
    state.finished.append(seat)
    events.append(
        Event(
            "finish",
            {
                "seat": seat,
                "place": len(state.finished),
                "points": points,
                "opponents_left": still_in,
            },
        )
    )


def _water_carriers(state: VelonimoState, seat: int, count: int, events: list[Event]) -> None:
    """Duel: one card from the top of the draw pile per dromedary played (none once it is empty)."""
    if not count:
        return
    drawn = [state.draw.pop() for _ in range(min(count, len(state.draw)))]
    state.hands[seat].extend(drawn)
    events.append(
        Event(
            "water_draw",
            {"seat": seat, "dromedaries": count, "count": len(drawn), "draw_pile": len(state.draw)},
            {seat: {"cards": drawn}},
        )
    )


def take(
    state: VelonimoState,
    seat: int,
    victim: int,
    leaders: int,
    taken: list[int],
    events: list[Event],
) -> None:
    """`seat`'s leaders take `taken` (drawn at random) from `victim`; the give-back comes next."""
    count = len(taken)
    for card in taken:
        state.hands[victim].remove(card)
        state.hands[seat].append(card)
    private = {"cards": sorted(taken)}
    events.append(
        Event(
            "leader_take",
            {"seat": seat, "victim": victim, "leaders": leaders, "count": count},
            {seat: dict(private), victim: dict(private)},
        )
    )
    state.steal_count = 0
    state.victim = victim
    state.taken = taken
    state.to_give = count
    state.phase = "give_back"
    state.current = seat


def _reveal_reward(state: VelonimoState, events: list[Event]) -> None:
    state.reward = state.draw.pop() if state.draw else None
    events.append(Event("reward_revealed", {"card": state.reward, "draw_pile": len(state.draw)}))


# -- checks (no changes) ------------------------------------------------------------------------


def _victims(state: VelonimoState, seat: int) -> list[int]:
    return [s for s in state.active() if s != seat]


def _check_jersey(state: VelonimoState, seat: int, cards: tuple[int, ...]) -> None:
    if state.duel:
        raise IllegalAction("in the duel the jersey gives no bonus")
    if state.jersey != seat:
        raise IllegalAction("you do not hold the jersey")
    if state.jersey_used:
        raise IllegalAction("the jersey was already used this round")
    if not can_wear_jersey(cards):
        raise IllegalAction("the jersey cannot be added to a lone hare")
