"""The rules a seat runs itself at a sealed table, from the game pages' sections "At a sealed
table" alone (and the rules they point to): the deal's positions, what each move asks for, when
a step is over, who acts next. Sealed Auf Achse (any number of seats) and the Velonimo duel.

A model keeps the public state as those pages describe it, hidden cards as slots, and the
ledger of what the game asks for between two moves (docs/sealed.md section 7, "Between two
moves"): rounds to seal, openings, shows, reveals, a draw, choice openings. `settle` ticks them
off from what the seat's own copy of the rounds shows done (`Tables`), in that order, again and
again, since one leads to the next."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from tests.outsider.sealing import SLOT_BASE, choice_commitment, steal_positions


class Tables(Protocol):
    """What a seat's copy of the rounds says (tests/outsider/sealed_seat.py)."""

    def sealed(self, number: int) -> bool: ...
    def opened_to(self, seat: int, slot: int) -> bool: ...
    def shown(self, slot: int) -> int | None: ...
    def own(self, slot: int) -> int: ...
    def draw_value(self, draw: int) -> bytes | None: ...


def is_slot(x: int) -> bool:
    return x >= SLOT_BASE


class Model:
    """The ledger every title keeps; `me` is this seat."""

    def __init__(self, players: int, me: int, cards: list[dict[str, Any]]) -> None:
        self.players, self.me, self.cards = players, me, cards
        self.rounds: list[tuple[int, list[int]]] = []
        """Every sealing round the game asked for: its first slot and its cards."""
        self.unsealed = 0
        self.to_open: list[tuple[int, int]] = []
        self.to_show: list[int] = []
        self.to_reveal: list[int] = []
        self.draws_asked = 0
        self.draws_done = 0
        self.known: dict[int, int] = {}
        """The card of every slot this seat knows: its own, and every one shown."""
        self.over = False

    # the ledger --------------------------------------------------------------------------

    def seal(self, cards: Sequence[int]) -> list[int]:
        first = self.rounds[-1][0] + len(self.rounds[-1][1]) if self.rounds else SLOT_BASE
        self.rounds.append((first, list(cards)))
        return list(range(first, first + len(cards)))

    def where(self, slot: int) -> tuple[int, int]:
        for number, (first, cards) in enumerate(self.rounds):
            if first <= slot < first + len(cards):
                return number, slot - first
        raise AssertionError(f"{slot} is no slot of this game")

    def slot(self, number: int, position: int) -> int:
        first, cards = self.rounds[number]
        assert 0 <= position < len(cards)
        return first + position

    def card(self, x: int) -> int:
        return self.known[x] if is_slot(x) else x

    def pending(self) -> bool:
        """A step the game asked for is still under way: nobody may act."""
        return bool(
            self.unsealed < len(self.rounds)
            or self.to_open
            or self.to_show
            or self.to_reveal
            or self.draws_done < self.draws_asked
            or self.choices_due()
        )

    def steps_ahead(self) -> bool:
        """Rounds, openings, shows or reveals still under way (the host's steps)."""
        return bool(
            self.unsealed < len(self.rounds) or self.to_open or self.to_show or self.to_reveal
        )

    def draw_due(self) -> int | None:
        """The draw every seat commits to now, on its own."""
        done = self.draws_done >= self.draws_asked
        return None if self.steps_ahead() or done else self.draws_done

    def settle(self, tables: Tables) -> None:
        while self._tick(tables):
            pass

    def _tick(self, tables: Tables) -> bool:
        while self.unsealed < len(self.rounds) and tables.sealed(self.unsealed):
            self.unsealed += 1
        if self.unsealed < len(self.rounds):
            return False
        done = [(s, x) for s, x in self.to_open if tables.opened_to(s, x)]
        for seat, x in done:
            if seat == self.me:
                self.known[x] = tables.own(x)
        self.to_open = [p for p in self.to_open if p not in done]
        if self.to_open:
            return False
        for what in ("to_show", "to_reveal"):
            slots = getattr(self, what)
            if slots:
                cards = {x: tables.shown(x) for x in slots}
                if None in cards.values():
                    return False
                self.known.update(cards)  # type: ignore[arg-type]
                setattr(self, what, [])
                self.on_shown(cards)  # type: ignore[arg-type]
                return True
        if self.draws_done < self.draws_asked:
            value = tables.draw_value(self.draws_done)
            if value is None:
                return False
            self.draws_done += 1
            self.on_drawn(value)
            return True
        return False

    # what a title fills in ------------------------------------------------------------------

    def on_shown(self, cards: dict[int, int]) -> None:
        raise NotImplementedError

    def on_drawn(self, value: bytes) -> None:
        raise NotImplementedError

    def choices_due(self) -> list[int]:
        return []

    def to_act(self) -> set[int]:
        raise NotImplementedError

    def apply(self, seat: int, action: dict[str, Any]) -> None:
        raise NotImplementedError

    def choose(self) -> dict[str, Any]:
        raise NotImplementedError

    def acting(self) -> set[int]:
        return set() if self.over or self.pending() else self.to_act()


# -- the Velonimo duel (docs/games/velonimo.md) -------------------------------------------------


def next_first_player(totals: list[int], last: list[int], previous: int) -> int:
    """The rules: the lowest total, then the fewest points last round, then the first such
    seat after the previous round's first player."""
    low = min(totals)
    tied = [s for s, t in enumerate(totals) if t == low]
    fewest = min(last[s] for s in tied)
    tied = [s for s in tied if last[s] == fewest]
    players = len(totals)
    return next(s for s in ((previous + k) % players for k in range(1, players + 1)) if s in tied)


class VelonimoDuel(Model):
    def __init__(self, me: int, cards: list[dict[str, Any]], options: dict[str, Any], first: int):
        super().__init__(2, me, cards)
        self.difficulties = list(options.get("difficulties", [1, 2, 3, 4, 5]))
        self.target = int(options.get("duel_target", 8))
        self.round = 0
        self.totals = [0, 0]
        self.round_scores: list[list[int]] = []
        self.claims: list[tuple[int, int]] = []
        """(slot, card) of every card a move named, for the audit."""
        self.steals = 0
        self._deal(first)

    def _deal(self, first: int) -> None:
        deck = self.seal(range(55))
        self.hands = [deck[-1 - s : -1 - 22 : -2] for s in (0, 1)]
        del deck[-22:]
        self.reward: int | None = deck.pop()
        self.draw = deck
        self.first = self.current = first
        self.phase = "play"
        self.attack = False
        self.last_player: int | None = None
        self.points = [0, 0]
        self.opened: list[set[int]] = [set(), set()]
        self.victim, self.count, self.to_give = 0, 0, 0
        self._after()

    def _after(self) -> None:
        """Every slot that entered a hand opened to its owner unless it was before this round;
        a reward still a slot shown to everyone."""
        for seat, hand in enumerate(self.hands):
            for x in hand:
                if is_slot(x) and x not in self.opened[seat]:
                    self.to_open.append((seat, x))
                    self.opened[seat].add(x)
        if self.reward is not None and is_slot(self.reward) and self.reward not in self.to_show:
            self.to_show.append(self.reward)

    def on_shown(self, cards: dict[int, int]) -> None:
        assert self.reward in cards
        self.reward = cards[self.reward]

    def on_drawn(self, value: bytes) -> None:
        hand = self.hands[self.victim]
        taken = [hand[i] for i in steal_positions(value, len(hand), self.count)]
        for x in taken:
            hand.remove(x)
        self.hands[self.current].extend(taken)
        self.to_give, self.phase = len(taken), "give_back"
        self.steals += 1
        self._after()

    def to_act(self) -> set[int]:
        return {self.current}

    def apply(self, seat: int, action: dict[str, Any]) -> None:
        assert seat == self.current and not self.over and not self.pending(), "out of turn"
        kind, hand, other = action["kind"], self.hands[seat], 1 - seat
        if kind == "play":
            assert self.phase == "play"
            for x, card in zip(action["slots"], action["cards"], strict=True):
                hand.remove(x)
                if is_slot(x):
                    self.claims.append((x, card))
                    self.known[x] = card
                else:
                    assert x == card, "a card shown already stands for itself"
            self.attack, self.last_player = True, seat
            cards = [self.cards[c] for c in action["cards"]]
            if not hand:
                self.points[seat] += self.difficulties[self.round]
                return self._end_round()
            dromedaries = sum(c["kind"] == "runner" and c["value"] == 2 for c in cards)
            hand.extend(self.draw.pop() for _ in range(min(dromedaries, len(self.draw))))
            turtles = sum(c["kind"] == "runner" and c["value"] == 1 for c in cards)
            if turtles:
                self.victim, self.count = other, min(turtles, len(self.hands[other]))
                self.phase = "steal"
                self.draws_asked += 1
            else:
                self.current = other
        elif kind == "pass":
            assert self.phase == "play" and self.attack
            assert self.last_player is not None
            self.attack, self.current = False, self.last_player
            self.phase = "reward" if self.reward is not None else "play"
        elif kind == "give_back":
            assert self.phase == "give_back"
            hand.remove(action["slot"])
            self.hands[self.victim].append(action["slot"])
            self.to_give -= 1
            if not self.to_give:
                self.phase, self.current = "play", other
        elif kind == "reward":
            assert self.phase == "reward" and self.reward is not None and not is_slot(self.reward)
            self.hands[action["to_seat"]].append(self.reward)
            self.reward = self.draw.pop() if self.draw else None
            self.phase = "play"
        else:
            raise AssertionError(f"no {kind} in the duel")
        self._after()

    def _end_round(self) -> None:
        self.round_scores.append(list(self.points))
        self.totals = [t + p for t, p in zip(self.totals, self.points, strict=True)]
        if max(self.totals) >= self.target or self.round + 1 == len(self.difficulties):
            self.over = True
            return
        self.round += 1
        self._deal(next_first_player(self.totals, self.points, self.first))

    def choose(self) -> dict[str, Any]:
        """Lead with a turtle if there is one, else a dromedary, else the first card; never
        follow; give back the first card; keep the reward."""
        hand = self.hands[self.me]
        if self.phase == "give_back":
            return {"kind": "give_back", "slot": hand[0]}
        if self.phase == "reward":
            return {"kind": "reward", "to_seat": self.me}
        if self.attack:
            return {"kind": "pass"}

        def value(x: int) -> int:
            card = self.cards[self.card(x)]
            return {1: 0, 2: 1}.get(card["value"], 2) if card["kind"] == "runner" else 3

        x = min(hand, key=value)
        return {"kind": "play", "slots": [x], "cards": [self.card(x)], "jersey": False}


# -- Auf Achse (docs/games/auf-achse.md) ---------------------------------------------------------

TARGETS = {2: 150, 3: 200, 4: 250, 5: 300}


class AufAchse(Model):
    def __init__(self, players: int, me: int, cards: list[dict[str, Any]], first: int) -> None:
        super().__init__(players, me, cards)
        self.stage, self.first = 1, first
        self.steps = 0
        self.step: dict[str, Any] | None = None
        self.openings_checked = 0
        self.turned: dict[str, int] = {}
        """How many odometer cards of each kind were turned over."""
        self.my_openings: dict[int, tuple[list[int], bytes]] = {}
        self._deal()

    def _deal(self) -> None:
        pile = self.seal(range(len(self.cards)))
        self.hands: list[list[int]] = [[] for _ in range(self.players)]
        for _ in range(10):
            for hand in self.hands:
                if pile:
                    hand.append(pile.pop())
        for i in range(10):
            self.to_open += [(s, h[i]) for s, h in enumerate(self.hands) if i < len(h)]
        self.draw = pile
        self.runs: list[list[int]] = [[] for _ in range(self.players)]
        self.odometer: list[list[int]] = [[] for _ in range(self.players)]
        self.order: list[int] = []
        self.discard: list[int] = []
        self.total, self.round = 0, 0
        self.current: int | None = None
        self.resolving: int | None = None
        self.stage_over = False
        self._start_round()

    def _start_round(self) -> None:
        need = [1 if hand else 0 for hand in self.hands]
        if not any(need):
            return self._end_stage()
        self.round += 1
        self.phase = "run"
        self._ask(need)

    def _ask(self, need: list[int]) -> None:
        asked = {s: n for s, n in enumerate(need) if n}
        self.step = {"index": self.steps, "asked": asked, "commits": {}, "opened": {}}
        self.steps += 1

    def choices_due(self) -> list[int]:
        step = self.step
        if step is None or set(step["commits"]) != set(step["asked"]):
            return []
        return [s for s in sorted(step["asked"]) if s not in step["opened"]]

    def to_act(self) -> set[int]:
        if self.phase == "odometer":
            return set() if self.current is None else {self.current}
        step = self.step
        return set() if step is None else set(step["asked"]) - set(step["commits"])

    def apply(self, seat: int, action: dict[str, Any]) -> None:
        assert seat in self.acting(), f"seat {seat} acts out of turn"
        if action["kind"] == "commit":
            assert self.step is not None and len(action["commitment"]) == 32
            self.step["commits"][seat] = bytes(action["commitment"])
            return
        assert action["kind"] == "odometer" and self.phase == "odometer"
        self.hands[seat].remove(action["slot"])
        self.odometer[seat].append(action["slot"])
        self.order.append(seat)
        self._next_odometer((seat - self.first) % self.players + 1)

    def take_choice(self, seat: int, body: dict[str, Any]) -> None:
        """A `choice` step relayed: its commitment recomputed from the page's definition."""
        step = self.step
        assert step is not None and seat in self.choices_due() and body["step"] == step["index"]
        slots = list(body["slots"])
        again = choice_commitment(step["index"], seat, slots, body["nonce"])
        assert again == step["commits"][seat], f"seat {seat}'s opening is not its commitment"
        assert len(slots) == step["asked"][seat] == len(set(slots))
        for x in slots:
            self.hands[seat].remove(x)
        step["opened"][seat] = slots
        self.openings_checked += 1
        if len(step["opened"]) < len(step["asked"]):
            return
        for s in range(self.players):
            self.runs[s].extend(step["opened"].get(s, []))
        self.step = None
        if self.phase == "run":
            self.phase, self.order = "odometer", []
            self._next_odometer(0)
        else:
            assert self.resolving is not None
            self.discard.append(self.resolving)
            self.resolving, self.phase = None, "odometer"
            self._turn()

    def _next_odometer(self, offset: int) -> None:
        for i in range(offset, self.players):
            seat = (self.first + i) % self.players
            if self.hands[seat]:
                self.current = seat
                return
        self.current = None
        self._turn()

    def _turn(self) -> None:
        """Turn the odometer cards over in the order played, each revealed first."""
        while self.order:
            seat = self.order[0]
            card = self.odometer[seat][-1]
            if is_slot(card):
                self.to_reveal = [card]
                return
            kind = self.cards[card]["kind"]
            if kind == "level_crossing":
                lasts = [run[-1] for run in self.runs if run and is_slot(run[-1])]
                if lasts:
                    self.to_reveal = lasts
                    return
            self.order.pop(0)
            self.odometer[seat].pop()
            self.turned[kind] = self.turned.get(kind, 0) + 1
            if kind == "km":
                self.total += self.cards[card]["value"]
            elif kind in ("rest", "lost_freight"):
                self.total = max(0, self.total - 50) if kind == "lost_freight" else self.total
                self.discard.append(card)
            elif kind == "level_crossing":
                self.discard += [run.pop() for run in self.runs if run]
                self.discard.append(card)
            else:
                count = 2 if kind == "completely_free_road" else 1
                need = [min(count, len(hand)) for hand in self.hands]
                if any(need):
                    self.phase, self.resolving = "free_road", card
                    self._ask(need)
                    return
                self.discard.append(card)
        self._end_round()

    def on_shown(self, cards: dict[int, int]) -> None:
        for place in [*self.odometer, *self.runs]:
            for i, x in enumerate(place):
                place[i] = cards.get(x, x)
        if self.stage_over:
            self._next_stage()
        else:
            self._turn()

    def _end_round(self) -> None:
        if self.total >= TARGETS[self.players] or self.round >= 20:
            return self._end_stage()
        for seat in [(self.first + i) % self.players for i in range(self.players)]:
            hand, before = self.hands[seat], len(self.hands[seat])
            while len(hand) < 10:
                if not self.draw:
                    if not self.discard:
                        break
                    self.draw, self.discard = self.seal(self.discard), []
                hand.append(self.draw.pop())
            self.to_open += [(seat, x) for x in hand[before:]]
        self.first = (self.first + 1) % self.players
        self._start_round()

    def _end_stage(self) -> None:
        self.phase, self.step, self.current = "stage_end", None, None
        self.stage_over = True
        self.to_reveal = [x for run in self.runs for x in run if is_slot(x)]
        if not self.to_reveal:
            self._next_stage()

    def _next_stage(self) -> None:
        self.stage_over = False
        if self.stage == 5:
            self.over = True
            return
        self.stage += 1
        self.first = (self.first + 1) % self.players
        self._deal()

    def on_drawn(self, value: bytes) -> None:
        raise AssertionError("Auf Achse draws nothing at random")

    def choose(self) -> dict[str, Any]:
        hand = self.hands[self.me]
        if self.phase == "odometer":
            return {"kind": "odometer", "slot": hand[0]}
        assert self.step is not None
        return {"kind": "choose", "slots": hand[: self.step["asked"][self.me]]}
