"""Every title's sealed state copies and reads back its own fields as well as the classic ones.

A table applies a move to a copy of the state and keeps the copy only if the move is legal, so a
copy that shared a list or a ledger with the original would let a refused move change the game.
A state read back from its data must be the state written, its deck included: the sealed deck's
tables are what name the slot when a classic rule reads a hidden card.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields, is_dataclass
from typing import Any

import pytest

from netcards.game import TableConfig
from netcards.sealed_cards import SLOT_BASE, HiddenCardNeeded
from netcards.sealed_game import sealed_engine

SEALED_FIELDS = {
    "via-gladiola": {"ledger"},
    "velonimo": {"ledger", "opened"},
    "auf-achse": {"ledger", "choices", "stage_end"},
}


def _mutables(x: object, found: dict[int, object]) -> None:
    """Every list, dict, set and unfrozen dataclass reachable from `x`, by id."""
    items: Iterable[Any]
    if isinstance(x, dict):
        found[id(x)] = x
        items = [*x.keys(), *x.values()]
    elif isinstance(x, (list, set)):
        found[id(x)] = x
        items = x
    elif isinstance(x, (tuple, frozenset)):
        items = x
    elif is_dataclass(x) and not isinstance(x, type):
        if not type(x).__dataclass_params__.frozen:  # type: ignore[attr-defined]
            found[id(x)] = x
        items = [getattr(x, f.name) for f in fields(x)]
    else:
        return
    for item in items:
        _mutables(item, found)


def _sealed_state(game: str) -> Any:
    state = sealed_engine(game).setup(TableConfig(game, 3), b"\x07" * 32)
    assert state.ledger.rounds and state.ledger.to_open  # a deal to seal and hands to open
    return state


@pytest.mark.parametrize("game", sorted(SEALED_FIELDS))
def test_a_sealed_states_copy_shares_nothing_mutable_of_its_sealed_fields(game: str) -> None:
    state = _sealed_state(game)
    classic = {f.name for f in fields(type(state).__mro__[1])}
    added = [f.name for f in fields(state) if f.name not in classic]
    assert set(added) == SEALED_FIELDS[game]
    copy = state.copy()
    assert copy.to_data() == state.to_data()
    for name in added:
        original: dict[int, object] = {}
        copied: dict[int, object] = {}
        _mutables(getattr(state, name), original)
        _mutables(getattr(copy, name), copied)
        assert not original.keys() & copied.keys(), f"the copy shares part of its {name}"
    before = state.to_data()
    copy.ledger.to_open.clear()
    copy.ledger.seal([0])
    assert state.to_data() == before


@pytest.mark.parametrize("game", sorted(SEALED_FIELDS))
def test_a_sealed_state_read_back_from_its_data_keeps_its_fields_and_its_sealed_deck(
    game: str,
) -> None:
    state = _sealed_state(game)
    data = state.to_data()
    assert set(SEALED_FIELDS[game]) <= data.keys()
    again = type(state).from_data(data)
    assert again.to_data() == data
    if game != "velonimo":  # its rules read no deck table
        with pytest.raises(HiddenCardNeeded):
            again.deck.value[SLOT_BASE]
