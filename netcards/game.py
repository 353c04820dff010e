"""The one interface every game implements.

The split follows OpenSpiel's and boardgame.io's: setup from a config and a seed, who must act
(a set, because some games ask several seats at once), legal actions, apply (events with public
and private parts), the view of one seat, the spectators' view and the outcome. A state is a
mutable object owned by its game; `apply` validates completely before it changes anything, so a
refused action leaves the state exactly as it was.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from netcards.action import Action, ActionCodec
from netcards.errors import BadConfig, GameOver, NotYourTurn
from netcards.event import Event
from netcards.options import OptionSpec, resolve_options
from netcards.shape import GameShapes
from netcards.view import WholeView

S = TypeVar("S")


@dataclass(frozen=True)
class TableConfig:
    """What every participant knows before the deal: the game, the player count, the options."""

    game: str
    players: int
    options: Mapping[str, Any] = field(default_factory=dict)

    def to_data(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "options": dict(self.options)}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> TableConfig:
        return cls(str(data["game"]), int(data["players"]), dict(data["options"]))


@dataclass(frozen=True)
class Outcome:
    """The end of a game. `scores` are in the game's own unit; `places` are 1-based, shared on ties."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    places: tuple[int, ...]
    lower_is_better: bool
    detail: dict[str, Any] = field(default_factory=dict)

    def leaders(self) -> tuple[int, ...]:
        """Of the standings of a game stopped before its end: the seats ahead, and none when
        every seat is level (a table closed before the first round was scored would otherwise
        name everyone its winner)."""
        return () if len(self.winners) == len(self.scores) else self.winners

    def to_data(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "places": list(self.places),
            "lower_is_better": self.lower_is_better,
            "detail": self.detail,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(
            tuple(data["scores"]),
            tuple(data["winners"]),
            tuple(data["places"]),
            bool(data["lower_is_better"]),
            dict(data["detail"]),
        )


def places_from_keys(keys: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Competition ranking (1, 2, 2, 4) from per-seat sort keys, smaller key = better."""
    return tuple(1 + sum(1 for other in keys if other < k) for k in keys)


class Game(ABC, Generic[S]):
    """A game's rules. One instance serves any number of states; it holds no per-game data."""

    id: ClassVar[str]
    name: ClassVar[str]
    rules_version: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    score_name: ClassVar[str] = "score"
    codec: ClassVar[ActionCodec]
    shapes: ClassVar[GameShapes]
    """Every map the game sends or takes, declared in the notation of its docs/games page."""

    # -- configuration -------------------------------------------------------------------------

    def make_config(self, players: int, options: Mapping[str, Any] | None = None) -> TableConfig:
        """Validate a player count and options; every problem is one BadConfig with its reason."""
        if not isinstance(players, int) or isinstance(players, bool):
            raise BadConfig("the number of players must be a whole number")
        if not self.min_players <= players <= self.max_players:
            raise BadConfig(
                f"{self.name} is for {self.min_players} to {self.max_players} players, not {players}"
            )
        resolved = resolve_options(self.id, self.option_specs, options or {}, players)
        self.check_options(resolved, players)
        return TableConfig(self.id, players, resolved)

    def check_options(self, options: dict[str, Any], players: int) -> None:
        """Cross-field checks and deck parsing; raise BadOption. Default: nothing more."""

    # -- the rules ----------------------------------------------------------------------------

    @abstractmethod
    def setup(self, config: TableConfig, seed: bytes) -> S:
        """Deal. All chance from here on comes from the generator seeded by `seed`."""

    @abstractmethod
    def to_act(self, state: S) -> frozenset[int]:
        """The seats asked to act now; empty once the game is over."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """Every action `seat` may take now (empty when it is not asked to act)."""

    @abstractmethod
    def legal_actions_in_view(self, view: Mapping[str, Any]) -> list[Action]:
        """The same list as `legal_actions`, worked out from the seat's view alone.

        Clients (a player's UI, a headless bot) have only their view; computing their choices
        from it, rather than receiving a list from the host, keeps updates small and proves that
        each view holds everything its seat needs to decide.
        """

    def apply(self, state: S, seat: int, action: Action) -> list[Event]:
        """Validate, then change the state. On any error the state is untouched."""
        if self.outcome(state) is not None:
            raise GameOver("the game is over")
        if seat not in self.to_act(state):
            raise NotYourTurn(f"seat {seat + 1} is not asked to act now")
        return self._apply(state, seat, action)

    @abstractmethod
    def _apply(self, state: S, seat: int, action: Action) -> list[Event]:
        """Game-specific validation and effect; `seat` is known to be asked to act."""

    def sample_state(
        self,
        config: TableConfig,
        view: Mapping[str, Any],
        history: Sequence[Mapping[str, Any]],
        rng: random.Random,
    ) -> S:
        """A whole state that `seat` (the view's) cannot tell from the real one: its view of the
        sample equals `view`, and every card it cannot see is dealt at random among the hidden
        places, except those `history` (the events as this seat saw them) tells it where they
        are. Search bots play their imagined games from such samples; a game without a sampler
        has no search bot."""
        raise NotImplementedError(f"{self.name} has no sampler of hidden information")

    @property
    def can_sample(self) -> bool:
        return type(self).sample_state is not Game.sample_state

    @abstractmethod
    def view(self, state: S, seat: int) -> dict[str, Any]:
        """Exactly what `seat` may know now, as plain data."""

    @abstractmethod
    def public_view(self, state: S) -> dict[str, Any]:
        """What a spectator may know now."""

    def lazy_view(self, state: S, seat: int) -> Mapping[str, Any]:
        """`view(state, seat)` as a mapping whose fields are worked out when first read, for bots
        played in-process (simulations, playouts): good only until the state changes. Games
        that write their views as a field table (`netcards/view.py`) read only the fields a bot
        asks for; the default builds the whole view on the first read."""
        return WholeView(lambda: self.view(state, seat))

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """None while the game runs."""

    def progress(self, state: S) -> int:
        """How many scored parts (rounds, stages) are complete. A search that cannot afford to
        play every imagined game to its end stops when this grows and judges by `standings`.
        Games that are one scored part (the default) are always played to their end."""
        return 0

    def standings(self, state: S) -> Outcome:
        """Who would win if the game stopped now, by the scores so far."""
        outcome = self.outcome(state)
        if outcome is None:
            raise NotImplementedError(f"{self.name} has no standings before its end")
        return outcome

    # -- data ------------------------------------------------------------------------------------

    @abstractmethod
    def cards(self, config: TableConfig) -> list[dict[str, Any]]:
        """The public card catalogue: one map per card id (id, kind, value, ...)."""

    @abstractmethod
    def encode_state(self, state: S) -> dict[str, Any]:
        """The whole state as plain data (the RNG included): msgpack-able, deterministic."""

    @abstractmethod
    def decode_state(self, data: Mapping[str, Any]) -> S:
        """Inverse of encode_state."""

    @abstractmethod
    def copy_state(self, state: S) -> S:
        """A deep, independent copy (bots search on copies)."""

    @abstractmethod
    def locations(self, state: S) -> dict[str, list[int]]:
        """Every card id, each in exactly one named place (hands, piles, runs, set aside...)."""

    @abstractmethod
    def deal_record(self, state: S) -> dict[str, Any]:
        """The omniscient log's deal: every hand and every hidden pile in order, at setup."""

    def house_deck(self) -> str | None:
        """The text of the deck file the game uses by default, if it takes a deck option."""
        return None

    def encode_action(self, action: Action) -> dict[str, Any]:
        return self.codec.encode(action)

    def decode_action(self, data: object) -> Action:
        return self.codec.decode(data)
