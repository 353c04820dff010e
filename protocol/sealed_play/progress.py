"""What every program of a sealed table does between two moves, from the rounds it has seen.

The engine (`netcards.sealed_game.SealedGame`) lists what the protocol must do before the next
move: rounds to seal, slots to open to their owners, at the end hands to reveal. Every program
(the host, each seat, the audit) runs its own engine instance and tells it, in the engine's
order, what its own copy of the rounds shows is done: a round sealed, every other seat's scalars
of a slot in, every seat's scalars of a revealed slot in. Since all of them see the same relayed
steps, their public states stay the same without the host ever saying "done".

A slot of engine round i at position p is slot `first + p` of that round; engine round i is
sealing round i of the drivers.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from netcards.event import Event
from netcards.sealed_cards import Knowledge
from netcards.sealed_game import SealedGame
from protocol.sealed.deck import SealedRound

HOST = -1
"""How a finding names the host (the relay), which is no seat number."""

OwnCard = Callable[[int, int, int], int | None]
"""(seat, round, position) -> the card, when this program may know it (its own seat's, or a
bot's at the host), else None."""


def where(state: Any, slot: int) -> tuple[int, int]:
    """The sealing round and position of `slot`."""
    sealed = state.ledger.round_of(slot)
    return sealed.index, slot - sealed.first


@dataclass
class GameMirror:
    """One program's engine instance: the public state and what this program knows."""

    engine: SealedGame
    state: Any
    knowledge: Knowledge = field(default_factory=Knowledge)
    events: list[Event] = field(default_factory=list)

    def catch_up(
        self,
        rounds: Mapping[int, SealedRound],
        revealed: Mapping[int, Mapping[int, int]],
        own_card: OwnCard,
    ) -> None:
        """Tell the engine every step the rounds show done, in its order, until one is not."""
        engine, state = self.engine, self.state
        for request in engine.seal_requests(state):
            r = rounds.get(request.index)
            if r is None or r.phase != "sealed":
                return
            engine.sealed(state, request.index)
        done: dict[int, list[int]] = defaultdict(list)
        for seat, slot in engine.to_open(state):
            number, p = where(state, slot)
            r = rounds.get(number)
            if r is not None and all(p in r.scalars.get(x, {}) for x in r.seats if x != seat):
                card = own_card(seat, number, p)
                if card is not None:
                    engine.learn(state, self.knowledge, slot, card)
                done[seat].append(slot)
        for seat, slots in done.items():
            engine.opened(state, seat, slots)
        if engine.to_open(state):
            return
        for seat, slots in sorted(engine.to_reveal(state).items()):
            cards = {}
            for slot in slots:
                number, p = where(state, slot)
                card = revealed.get(number, {}).get(p)
                if card is None:
                    return
                cards[slot] = card
            self.events += engine.reveal_hand(state, seat, cards, self.knowledge)
