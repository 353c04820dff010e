"""A sealed game's replay, for `netcards replay` as any other game's (`netcards/replay.py`).

A sealed game is dealt from no seed anyone holds: its cards were shuffled by the seats, so it
cannot be played again from a seed and the moves. Once its audit has run, though, every program
that played it knows every card (each round's cards, from every seat's secrets) and holds
everything else the audit replayed: the public seed, the moves, the values of the public random
draws and the openings of the simultaneous choices. That is what the replay keeps, and its steps
are the game played again by the title's sealed engine knowing every card (`rerun.py`), as the
audit did: at each step the seat's own view and the events of its log as its program showed
them, and every hand.

So a replay is made only of a game whose audit found every round and move sound (`deal
verified`); a game stopped before every seat published its secrets (its host closed the table),
or whose audit named a cheat, has none.

The file is JSON like a classic replay's, with `format` 2, `sealed` true, the public seed as
`seed`, `cards` (every [slot, card] pair), `draws` (hex) and `openings` ([seat, {step, slots,
nonce}]). A sealed move may carry bytes (an Auf Achse commitment): every bytes value in
`actions` and `openings` is written as `{"bytes": HEX}`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from netcards.errors import GameError
from netcards.event import Event
from netcards.game import Outcome
from netcards.registry import get_game
from netcards.replay import BOUNDARIES, DAMAGED_BY, BadReplay, Replay, Step, damaged
from netcards.sealed_cards import HiddenCardNeeded, Knowledge, seat_event
from netcards.sealed_choices import Opening
from netcards.sealed_game import SealedGame, sealed_engine
from protocol.sealed_play.choices import Opened
from protocol.sealed_play.rerun import Rerun

SEALED_REPLAY_FORMAT = 2


@dataclass
class SealedReplay(Replay):
    """`seed` is the game's public seed; `cards` every slot's card."""

    cards: dict[int, int] = field(default_factory=dict)
    draws: list[bytes] = field(default_factory=list)
    openings: list[Opened] = field(default_factory=list)

    @property
    def engine(self) -> SealedGame:
        return sealed_engine(self.game.id)

    def to_data(self) -> dict[str, Any]:
        return {
            **super().to_data(),
            "format": SEALED_REPLAY_FORMAT,
            "sealed": True,
            "actions": [[seat, _plain(data)] for seat, data in self.actions],
            "cards": [[slot, card] for slot, card in sorted(self.cards.items())],
            "draws": [value.hex() for value in self.draws],
            "openings": [[seat, _plain(dict(body))] for seat, body in self.openings],
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> SealedReplay:
        if data.get("format") != SEALED_REPLAY_FORMAT or data.get("sealed") is not True:
            raise BadReplay(f"unsupported replay format {data.get('format')!r}")
        try:
            classic = Replay.from_data({**data, "format": 1, "actions": []})
            if classic.seat is None:
                raise BadReplay("a sealed game's replay is a seat's")
            sealed_engine(classic.game.id)
            return cls(
                classic.game,
                classic.config,
                classic.seat,
                classic.names,
                classic.seed,
                [(int(s), dict(_bytes(a))) for s, a in data["actions"]],
                cards={int(slot): int(card) for slot, card in data["cards"]},
                draws=[bytes.fromhex(v) for v in data["draws"]],
                openings=[(int(s), dict(_bytes(b))) for s, b in data["openings"]],
            )
        except BadReplay:
            raise
        except DAMAGED_BY as exc:
            raise damaged(exc) from None

    def steps(self) -> Sequence[Step]:
        """Every moment of the game, played again by the sealed engine knowing every card."""
        if self._steps:
            return self._steps
        truth = Knowledge(self.cards)
        try:
            for seat, body in self.openings:
                if seat == self.seat:  # its own choices, as its program knew them then
                    opening = Opening(body["step"], seat, tuple(body["slots"]), body["nonce"])
                    truth.openings[(opening.step, seat)] = opening
            rerun = Rerun(self.engine, self.config, self.seed, truth, self.draws, self.openings)
            wrong = rerun.settle()
            steps = [self._sealed_step(rerun, truth, 0, None, 0)]
            for index, (actor, data) in enumerate(self.actions, 1):
                if wrong is not None:
                    break
                seen = len(rerun.events)
                wrong = rerun.move(index, actor, data)
                steps.append(self._sealed_step(rerun, truth, index, actor, seen))
        except (GameError, HiddenCardNeeded, KeyError, TypeError, ValueError) as exc:
            raise BadReplay(f"the game cannot be replayed: {exc}") from None
        if isinstance(wrong, str):
            raise BadReplay(f"the game cannot be replayed: it stops before {wrong}")
        if wrong is not None:
            raise BadReplay(f"the game cannot be replayed: {wrong}")
        self._steps, self._outcome = steps, self.engine.outcome(rerun.state)
        return steps

    def outcome(self) -> Outcome | None:
        self.steps()
        return self._outcome

    def _sealed_step(
        self, rerun: Rerun, truth: Knowledge, index: int, actor: int | None, seen: int
    ) -> Step:
        engine, state, seat = self.engine, rerun.state, self.seat
        assert seat is not None
        events: list[Event] = rerun.events[seen:]
        whole = engine.unsealed(state, truth)
        hands = {
            name: sorted(cards) if name.startswith("hand:") else list(cards)
            for name, cards in self.game.locations(whole).items()
            if name.startswith(("hand:", "run:"))
        }
        ready = state.ledger.ready() and engine.outcome(state) is None
        return Step(
            index,
            actor,
            tuple(seat_event(e, seat, truth) for e in events),
            engine.view(state, seat, truth),
            hands,
            tuple(sorted(engine.to_act(state))) if ready else (),
            any(e.kind in BOUNDARIES for e in events),
        )


def sealed_replay(
    game_id: str,
    config: Any,
    seat: int,
    names: Sequence[str],
    public_seed: bytes,
    truth: Knowledge,
    actions: Sequence[tuple[int, Mapping[str, Any]]],
    draws: Sequence[bytes],
    openings: Sequence[Opened],
) -> SealedReplay:
    """The replay of a sealed game whose audit found it sound, as its seat `seat` played it."""
    return SealedReplay(
        get_game(game_id),
        config,
        seat,
        list(names),
        public_seed,
        [(s, dict(a)) for s, a in actions],
        cards=dict(truth.cards),
        draws=list(draws),
        openings=[(s, dict(b)) for s, b in openings],
    )


def _plain(value: Any) -> Any:
    """`value` for JSON: bytes as `{"bytes": HEX}`."""
    if isinstance(value, bytes):
        return {"bytes": value.hex()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _bytes(value: Any) -> Any:
    """`_plain` undone."""
    if isinstance(value, Mapping):
        if set(value) == {"bytes"} and isinstance(value["bytes"], str):
            return bytes.fromhex(value["bytes"])
        return {str(k): _bytes(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_bytes(v) for v in value]
    return value
