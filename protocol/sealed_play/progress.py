"""What every program of a sealed table does between two moves, from the rounds it has seen.

The engine (`netcards.sealed_game.SealedGame`) lists what the protocol must do before the next
move: rounds to seal, slots to open to their owners (or to pass to them privately), slots to show
to everyone, at the end hands to reveal, public random draws to make. Every program
(the host, each seat, the audit) runs its own engine instance and tells it, in the engine's
order, what its own copy of the rounds shows is done: a round sealed, every other seat's scalars
of a slot in, every seat's scalars of a revealed slot in. Since all of them see the same relayed
steps, their public states stay the same without the host ever saying "done".

A slot of engine round i at position p is slot `first + p` of that round; engine round i is
sealing round i of the drivers.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from netcards.action import Action
from netcards.event import Event
from netcards.sealed_cards import Knowledge
from netcards.sealed_game import SealedGame, draw_requests, public_chances, to_show
from protocol.sealed.deck import SealedRound
from protocol.sealed.errors import Caught
from protocol.sealed.messages import SealMessage, SealOpen, SealReveal, SealRound
from protocol.sealed.passing import Moves

HOST = -1
"""How a finding names the host (the relay), which is no seat number."""

OwnCard = Callable[[int, int, int], int | None]
"""(seat, round, position) -> the card, when this program may know it (its own seat's, or a
bot's at the host), else None."""


def where(state: Any, slot: int) -> tuple[int, int]:
    """The sealing round and position of `slot`."""
    sealed = state.ledger.round_of(slot)
    return sealed.index, slot - sealed.first


def _slot(state: Any, number: int, p: int) -> int | None:
    """The slot at position `p` of engine round `number` (None: no such round)."""
    rounds = state.ledger.rounds
    return rounds[number].first + p if 0 <= number < len(rounds) else None


def face_up(engine: SealedGame, state: Any, action: Action) -> dict[int, list[int]]:
    """The positions, by sealing round, of the cards `action` plays face up (`shows`): its
    seat's `reveal` steps of them go before the move."""
    grouped: dict[int, list[int]] = defaultdict(list)
    for slot in engine.shows(action):
        number, p = where(state, slot)
        grouped[number].append(p)
    return dict(sorted(grouped.items()))


class KeptRound(Protocol):
    """A round as a driver keeps it (`SeatRound`, `RelayRound`): what a mirror follows."""

    round: SealedRound
    revealed: dict[int, int]
    moves: Moves


Passed = Mapping[int, Mapping[int, set[int]]]
"""round -> position -> every seat it was passed to privately (`protocol.sealed.transfer`)."""


@dataclass
class GameMirror:
    """One program's engine instance: the public state and what this program knows."""

    engine: SealedGame
    state: Any
    knowledge: Knowledge = field(default_factory=Knowledge)
    events: list[Event] = field(default_factory=list)
    draws_done: int = 0
    """How many public random draws this instance was told of (`drawn`)."""

    def catch_up(
        self,
        rounds: Mapping[int, SealedRound],
        revealed: Mapping[int, Mapping[int, int]],
        own_card: OwnCard,
        passed: Passed | None = None,
        draws: Sequence[bytes] = (),
    ) -> None:
        """Tell the engine every step the rounds show done, in its order (seals, openings,
        shows, reveals, draws), and again, since a draw lists new openings, until one is not."""
        while self._pass(rounds, revealed, own_card, passed or {}, draws):
            pass

    def follow(
        self, kept: Mapping[int, KeptRound], own_card: OwnCard, draws: Sequence[bytes]
    ) -> int:
        """`catch_up` with a driver's rounds and draws; how many draws its driver is to take
        (those made, and the one due)."""
        self.catch_up(
            {n: r.round for n, r in kept.items()},
            {n: r.revealed for n, r in kept.items()},
            own_card,
            {n: r.moves.passed for n, r in kept.items()},
            draws,
        )
        return self.draws_done + (self.draw_due is not None)

    def check_asked(self, msg: SealMessage) -> None:
        """The host asks for a round, an opening or a reveal: only what this program's own
        engine asks for now is done. The relay's own checks hold the steps to the rounds'
        rules, but not to the game's: without this, a modified host could open a player's card
        (or the next card of a pile) to its own bot, whose key it holds, or have a player show
        its hand to everyone, and every step would check out. `Caught` names the host."""
        engine, state = self.engine, self.state
        if isinstance(msg, SealRound):
            # Every seat of the game seals every round, in seat order: a round left to the host's
            # bots and some seats would open the others' cards with scalars the host all holds.
            seats = tuple(range(state.players))
            wanted = [(r.index, r.cards, seats) for r in engine.seal_requests(state)[:1]]
            if [(msg.round, tuple(msg.cards), tuple(msg.seats))] != wanted:
                raise Caught(HOST, "unrequested", f"round {msg.round} is no round the game seals")
        elif isinstance(msg, SealOpen):
            asked = set(engine.to_open(state))
            if not all((msg.to, _slot(state, msg.round, p)) in asked for p in msg.positions):
                raise Caught(
                    HOST,
                    "unrequested",
                    f"positions {list(msg.positions)} of round {msg.round} opened to seat "
                    f"{msg.to}, which the game does not deal them to",
                )
        elif isinstance(msg, SealReveal):
            shown = set(to_show(engine, state))
            shown.update(s for slots in engine.to_reveal(state).values() for s in slots)
            if not all(_slot(state, msg.round, p) in shown for p in msg.positions):
                raise Caught(
                    HOST,
                    "unrequested",
                    f"positions {list(msg.positions)} of round {msg.round} asked to be shown, "
                    "which the game does not show",
                )

    @property
    def draw_due(self) -> int | None:
        """The number of the draw the engine waits for now, if it waits for one."""
        if self.engine.seal_requests(self.state) or self.engine.to_open(self.state):
            return None
        if to_show(self.engine, self.state):
            return None
        return self.draws_done if draw_requests(self.engine, self.state) else None

    def _pass(
        self,
        rounds: Mapping[int, SealedRound],
        revealed: Mapping[int, Mapping[int, int]],
        own_card: OwnCard,
        passed: Passed,
        draws: Sequence[bytes],
    ) -> bool:
        engine, state = self.engine, self.state
        for request in engine.seal_requests(state):
            r = rounds.get(request.index)
            if r is None or r.phase != "sealed":
                return False
            engine.sealed(state, request.index)
        done: dict[int, list[int]] = defaultdict(list)
        for seat, slot in engine.to_open(state):
            number, p = where(state, slot)
            r = rounds.get(number)
            if r is None:
                continue
            moved = seat in passed.get(number, {}).get(p, ())
            if moved or all(p in r.scalars.get(x, {}) for x in r.seats if x != seat):
                card = own_card(seat, number, p)
                if card is not None:
                    engine.learn(state, self.knowledge, slot, card)
                done[seat].append(slot)
        for seat, slots in done.items():
            engine.opened(state, seat, slots)
        if engine.to_open(state):
            return False
        chances = public_chances(engine)
        if chances is not None:
            for slot in chances.to_show(state):
                number, p = where(state, slot)
                shown = revealed.get(number, {}).get(p)
                if shown is None:
                    return False
                self.events += chances.show(state, slot, shown, self.knowledge)
        for seat, slots in sorted(engine.to_reveal(state).items()):
            cards = {}
            for slot in slots:
                number, p = where(state, slot)
                card = revealed.get(number, {}).get(p)
                if card is None:
                    return False
                cards[slot] = card
            self.events += engine.reveal_hand(state, seat, cards, self.knowledge)
        if chances is not None and chances.draw_requests(state):
            if len(draws) <= self.draws_done:
                return False
            self.events += chances.drawn(state, draws[self.draws_done], self.knowledge)
            self.draws_done += 1
            return True
        return False
