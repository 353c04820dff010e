"""A sealed game played again from its start, knowing every card: the audit's replay, and what a
saved replay of a sealed game is shown from (`protocol/sealed_play/replay.py`).

The engine is told every step it asks for between two moves, in its order (seals, openings,
shows, reveals, the simultaneous choices' openings as relayed, the public random draws as they
were made), with every slot's card known (`truth`), then the next move; the events each of them
gives are kept (`events`), as a seat's own engine kept them while it played. The first thing
that does not hold is a `Finding` naming its author, as the audit reports it. A game stopped
by a `broken` step stops where the alarm found it: a step the engine asks for that was not done
then (a round not sealed, a draw not made) is said in words (`Waiting`), and what follows it is
the audit's to judge.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any

from netcards.errors import GameError
from netcards.event import Event
from netcards.game import TableConfig
from netcards.sealed_cards import Knowledge
from netcards.sealed_game import SealedGame, public_chances
from protocol.sealed.errors import Finding
from protocol.sealed_play import choices

Waiting = str
"""The step the rerun stops at, not done when the game stopped ("round 2 was sealed")."""


class Rerun:
    def __init__(
        self,
        engine: SealedGame,
        config: TableConfig,
        public_seed: bytes,
        truth: Knowledge,
        draws: Sequence[bytes] = (),
        openings: Sequence[choices.Opened] = (),
        sealed: Collection[int] | None = None,
    ) -> None:
        """`draws`: the values of the public random draws, in order; `openings`: the choice
        openings as the host relayed them, in order; `sealed`: the rounds whose every step was
        made (every round the engine asks for, if None)."""
        self.engine, self.truth = engine, truth
        self._sealed = sealed
        self.state = engine.setup(config, public_seed)
        self.events: list[Event] = []
        self._draws: Iterator[bytes] = iter(draws)
        self._openings = list(openings)

    def settle(self) -> Finding | Waiting | None:
        """Every step the engine asks for before the next move, until none is left: a reveal
        or an opening can lead to more (Auf Achse: the next odometer card, a new stage)."""
        engine, state, truth = self.engine, self.state, self.truth
        while True:
            progressed = False
            for request in engine.seal_requests(state):
                if self._sealed is not None and request.index not in self._sealed:
                    return f"round {request.index} was sealed"
                engine.sealed(state, request.index)
                progressed = True
            by_seat: dict[int, list[int]] = {}
            for seat, slot in engine.to_open(state):
                by_seat.setdefault(seat, []).append(slot)
            for seat, slots in by_seat.items():
                engine.opened(state, seat, slots)
                progressed = True
            chances = public_chances(engine)
            if chances is not None:
                for slot in chances.to_show(state):
                    self.events += chances.show(state, slot, truth.resolve(slot), truth)
                    progressed = True
            for seat, slots in sorted(engine.to_reveal(state).items()):
                try:
                    shown = {s: truth.resolve(s) for s in slots}
                    self.events += engine.reveal_hand(state, seat, shown, truth)
                except GameError as exc:
                    return Finding(seat, "false_claim", str(exc))
                progressed = True
            left = len(self._openings)
            wrong = choices.replay(engine, state, truth, self._openings, self.events)
            if wrong is not None:
                return Finding(wrong[0], "wrong_opening", wrong[1])
            if chances is not None and chances.draw_requests(state):
                value = next(self._draws, None)
                if value is None:
                    return "its draw was made"
                # The steal recomputed from the draw's value.
                self.events += chances.drawn(state, value, truth)
                progressed = True
            if not progressed and len(self._openings) == left:
                return None

    def move(self, number: int, seat: int, data: Mapping[str, Any]) -> Finding | Waiting | None:
        """Move `number` (from 1), then the steps it calls for."""
        try:
            action = self.engine.codec.decode(dict(data))
            self.events += self.engine.apply(self.state, seat, action, self.truth)
        except GameError as exc:
            return Finding(seat, "false_claim", f"move {number}: {exc}")
        return self.settle()
