"""What a title's sealed engine offers a sealed table (docs/sealed.md, section 8).

A sealed table drives every title's sealed engine the same way: after each action it asks the
engine what the protocol must do before the next one (rounds to seal, slots to open to their
owners, at the end hands to reveal), does it, tells the engine, and only then takes the next
action. `SealedGame` is that interface, written once so that the table code depends on it and
not on one title; Via Gladiola's (`netcards/games/via_gladiola/sealed.py`) is the first to
implement it. `sealed_engine` is the one place that says which titles have one, so that a table
asked to be sealed for a title without one is refused before anyone sits down.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping
from typing import Any, Protocol, cast, runtime_checkable

from netcards.action import Action, ActionCodec
from netcards.errors import BadConfig
from netcards.event import Event
from netcards.game import Outcome, TableConfig
from netcards.sealed_cards import Knowledge, SealRound
from netcards.sealed_choices import Opening


class SealedGame(Protocol):
    """A title's rules over a public state whose hidden cards are slots.

    Every call that may resolve a slot takes the calling instance's `Knowledge`: the host's
    knows what was revealed (and its own bots' hands), a seat's also its own hand, the audit's
    every slot. The state is the same in every instance."""

    @property
    def codec(self) -> ActionCodec: ...

    def setup(self, config: TableConfig, public_seed: bytes) -> Any: ...

    # what the protocol must do between actions
    def seal_requests(self, state: Any) -> list[SealRound]: ...
    def sealed(self, state: Any, index: int) -> None: ...
    def to_open(self, state: Any) -> list[tuple[int, int]]: ...
    def learn(self, state: Any, knowledge: Knowledge, slot: int, card: int) -> None: ...
    def opened(self, state: Any, seat: int, slots: list[int]) -> None: ...
    def to_reveal(self, state: Any) -> dict[int, list[int]]: ...
    def reveal_hand(
        self, state: Any, seat: int, cards: Mapping[int, int], knowledge: Knowledge
    ) -> list[Event]: ...

    # whose turn, what is legal, applying
    def to_act(self, state: Any) -> frozenset[int]: ...
    def legal_actions(self, state: Any, seat: int, knowledge: Knowledge) -> list[Action]: ...
    def seal_action(
        self, state: Any, seat: int, action: Action, knowledge: Knowledge
    ) -> Action: ...
    def shows(self, action: Action) -> dict[int, int]:
        """The slots a sealed action plays face up, each with the card it claims: its seat's
        `reveal` step must show them to everyone before the move is taken. A card that goes
        face down (Auf Achse's odometer) or privately (Velonimo's give-back) is not listed."""
        ...

    def apply(self, state: Any, seat: int, action: Action, knowledge: Knowledge) -> list[Event]: ...

    # the end, the views, the audit
    def outcome(self, state: Any) -> Outcome | None: ...
    def standings(self, state: Any) -> Outcome:
        """The results so far of a game stopped halfway, from public cards only; a
        `HiddenCardNeeded` where they need a hidden one (Via Gladiola's hands)."""
        ...

    def public_view(self, state: Any) -> dict[str, Any]: ...
    def view(self, state: Any, seat: int, knowledge: Knowledge) -> dict[str, Any]: ...
    def unsealed(self, state: Any, knowledge: Knowledge) -> Any: ...


@runtime_checkable
class PublicChances(Protocol):
    """What a title whose rules turn hidden cards face up or draw at random between actions
    offers beside `SealedGame` (Velonimo: the duel's reward, a turtle's steal). The protocol
    does, in this order until the ledger is ready: seals, openings, shows, draws (a draw may list
    new openings). A title without them needs neither (`to_show` and `draw_requests` below)."""

    def to_show(self, state: Any) -> list[int]: ...
    def show(self, state: Any, slot: int, card: int, knowledge: Knowledge) -> list[Event]: ...
    def draw_requests(self, state: Any) -> int: ...
    def drawn(self, state: Any, value: bytes, knowledge: Knowledge) -> list[Event]: ...


@functools.cache
def _offers(kind: type, interface: type) -> bool:
    """Whether an engine class offers a runtime-checkable interface. Asked once per class: an
    `isinstance` against a protocol walks its every member (tens of microseconds), and every
    program of a table asks several times between any two moves."""
    return issubclass(kind, interface)


def public_chances(engine: SealedGame) -> PublicChances | None:
    """The title's shows and draws, or None for a title that has none."""
    return cast(PublicChances, engine) if _offers(type(engine), PublicChances) else None


def to_show(engine: SealedGame, state: Any) -> list[int]:
    """Slots to open to everyone before the next action (none for a title without shows)."""
    chances = public_chances(engine)
    return chances.to_show(state) if chances is not None else []


def draw_requests(engine: SealedGame, state: Any) -> int:
    """Public random draws still to make before the next action (none for most titles)."""
    chances = public_chances(engine)
    return chances.draw_requests(state) if chances is not None else 0


@runtime_checkable
class SimultaneousChoices(Protocol):
    """What a title whose seats choose at once and in secret (Auf Achse's run cards and Free
    roads) offers beside `SealedGame` (netcards/sealed_choices.py): such a choice is sent as a
    commitment, made with a nonce from the seat's own randomness, and once every asked seat has
    committed each opens it. A table asks `choices_of` whether a title has them."""

    def seal_action(
        self,
        state: Any,
        seat: int,
        action: Action,
        knowledge: Knowledge,
        nonce: bytes | None = None,
    ) -> Action: ...
    def choice_step(self, state: Any) -> int | None: ...
    def choice_openings(self, state: Any) -> list[int]: ...
    def opening(self, state: Any, seat: int, knowledge: Knowledge) -> Opening: ...
    def reveal_choice(
        self, state: Any, seat: int, slots: tuple[int, ...], nonce: bytes, knowledge: Knowledge
    ) -> list[Event]: ...


def choices_of(engine: SealedGame) -> SimultaneousChoices | None:
    """The title's simultaneous choices, or None for a title that has none (Via Gladiola)."""
    return cast(SimultaneousChoices, engine) if _offers(type(engine), SimultaneousChoices) else None


SEED_LABEL = b"netcards sealed public seed v4"


def public_seed(commitment: bytes, parts: Mapping[int, bytes]) -> bytes:
    """The seed of a sealed game's public chances (Via Gladiola's first player): what every
    seat can compute at the start, from the host's commitment and the published seed parts.
    It chooses no card: the cards are the sealing rounds'."""
    material = SEED_LABEL + commitment
    for seat, part in sorted(parts.items()):
        material += seat.to_bytes(1, "big") + part
    return hashlib.sha256(material).digest()


def _engines() -> dict[str, SealedGame]:
    from netcards.games.auf_achse.sealed import SealedAufAchse
    from netcards.games.velonimo.sealed import SealedVelonimo
    from netcards.games.via_gladiola.sealed import SealedViaGladiola

    return {
        "via-gladiola": SealedViaGladiola(),
        "velonimo": SealedVelonimo(),
        "auf-achse": SealedAufAchse(),
    }


def has_sealed_engine(game_id: str) -> bool:
    return game_id in _engines()


def sealed_engine(game_id: str) -> SealedGame:
    """The title's sealed engine; BadConfig, in one line, for a title that has none yet."""
    engine = _engines().get(game_id)
    if engine is None:
        have = ", ".join(sorted(_engines()))
        raise BadConfig(f"'{game_id}' cannot be played sealed yet (sealed tables: {have})")
    return engine
