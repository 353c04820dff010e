"""A finished game, step by step, as one seat saw it, and (the game being over) as it really was.

A replay holds what a player has once the game ends: the table config, their seat, the seed
(from the end-of-game audit) and every action. From these the engine rebuilds every moment; the
seat's own view is what they could see then, and the omniscient side (every hand) is allowed
because the audit revealed it all when the game ended.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from netcards.errors import GameError
from netcards.game import Game, Outcome, TableConfig
from netcards.registry import get_game

REPLAY_FORMAT = 1
BOUNDARIES = frozenset({"day_start", "round_start", "stage_start"})
"""Events that open a new day, round or stage: where a replay can jump to."""


class BadReplay(GameError):
    """A replay file that cannot be read back."""


DAMAGED_BY = (KeyError, TypeError, ValueError, AttributeError)
"""What reading a replay file's data raises where a field is missing or of the wrong kind."""


def damaged(exc: Exception) -> BadReplay:
    """The error a replay file that `exc` showed damaged is refused with (classic or sealed)."""
    return BadReplay(f"the replay file is damaged ({exc.__class__.__name__}: {exc})")


@dataclass(frozen=True)
class Step:
    """The moment after action `index` (0: the deal): what happened and what each side saw."""

    index: int
    actor: int | None
    events: tuple[dict[str, Any], ...]
    view: dict[str, Any]
    hands: dict[str, list[int]]
    to_act: tuple[int, ...]
    boundary: bool


@dataclass
class Replay:
    game: Game[Any]
    config: TableConfig
    seat: int | None
    names: list[str]
    seed: bytes
    actions: list[tuple[int, dict[str, Any]]]
    stand_in: frozenset[int] = frozenset()
    """The numbers (from 1) of the seat's actions a bot made for its player (a stand-in while
    they were away, or the turn clock's): only the player's program knew, so it says so."""
    _steps: list[Step] = field(default_factory=list)
    _outcome: Outcome | None = None

    def to_data(self) -> dict[str, Any]:
        return {
            "format": REPLAY_FORMAT,
            "game": self.game.id,
            "rules_version": self.game.rules_version,
            "config": self.config.to_data(),
            "seat": self.seat,
            "names": list(self.names),
            "seed": self.seed.hex(),
            "actions": [[seat, data] for seat, data in self.actions],
            "stand_in": sorted(self.stand_in),
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Replay:
        try:
            if data.get("format") != REPLAY_FORMAT:
                raise BadReplay(f"unsupported replay format {data.get('format')!r}")
            game = get_game(str(data["game"]))
            if data["rules_version"] != game.rules_version:
                raise BadReplay(
                    f"the replay was recorded with rules {data['rules_version']}; "
                    f"this netcards has {game.rules_version}"
                )
            raw = data["config"]
            config = game.make_config(int(raw["players"]), dict(raw["options"]))
            seat = data["seat"]
            if seat is not None and not (isinstance(seat, int) and 0 <= seat < config.players):
                raise BadReplay("the replay's seat is not at the table")
            actions = [(int(s), dict(a)) for s, a in data["actions"]]
            # Older replays do not say which moves a bot made: all were the player's.
            stand_in = frozenset(int(i) for i in data.get("stand_in", ()))
            if seat is None or any(not 0 < i <= len(actions) for i in stand_in):
                stand_in = frozenset()
            return cls(game, config, seat, [str(n) for n in data["names"]],
                       bytes.fromhex(data["seed"]), actions, stand_in)  # fmt: skip
        except DAMAGED_BY as exc:
            raise damaged(exc) from None

    def steps(self) -> Sequence[Step]:
        """Every moment of the game, rebuilt once with the engine (a bad action is an error)."""
        if self._steps:
            return self._steps
        game = self.game
        state = game.setup(self.config, self.seed)
        steps = [self._step(state, 0, None, [])]
        for index, (actor, data) in enumerate(self.actions, 1):
            try:
                events = game.apply(state, actor, game.decode_action(data))
            except GameError as exc:
                raise BadReplay(f"action {index} cannot be replayed: {exc}") from None
            steps.append(self._step(state, index, actor, events))
        self._steps, self._outcome = steps, game.outcome(state)
        return steps

    def outcome(self) -> Outcome | None:
        """The results at the last step (None: a game stopped before its end)."""
        self.steps()
        return self._outcome

    def _step(self, state: Any, index: int, actor: int | None, events: list[Any]) -> Step:
        game, seat = self.game, self.seat
        view = game.public_view(state) if seat is None else game.view(state, seat)
        # Every seat's hidden cards: its hand (in card order) and, where a game has one, the
        # run it builds face down (in the order it was laid).
        hands = {
            name: sorted(cards) if name.startswith("hand:") else list(cards)
            for name, cards in game.locations(state).items()
            if name.startswith(("hand:", "run:"))
        }
        return Step(
            index,
            actor,
            tuple(e.for_seat(seat) for e in events),
            view,
            hands,
            tuple(sorted(game.to_act(state))),
            any(e.kind in BOUNDARIES for e in events),
        )


def from_finished_game(
    game: Game[Any],
    config: TableConfig,
    seat: int | None,
    names: Sequence[str],
    seed: bytes,
    actions: Sequence[tuple[int, Mapping[str, Any]]],
    stand_in: Iterable[int] = (),
) -> Replay:
    """`stand_in`: the numbers of the seat's actions a bot made for its player."""
    moves = [(s, dict(a)) for s, a in actions]
    bots = frozenset(i for i in stand_in if 0 < i <= len(moves) and moves[i - 1][0] == seat)
    return Replay(game, config, seat, list(names), seed, moves, bots)
