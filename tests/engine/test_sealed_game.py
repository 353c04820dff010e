"""Which titles a table may be sealed for, and that a sealed table never deals the classic way."""

from __future__ import annotations

import pytest

from netcards.errors import BadConfig
from netcards.games.via_gladiola.sealed import SealedViaGladiola
from netcards.sealed_game import has_sealed_engine, sealed_engine
from netcards.table import SEALED_NOT_PLAYABLE, LobbyError, Table


def test_via_gladiola_has_a_sealed_engine_and_the_others_not_yet() -> None:
    assert isinstance(sealed_engine("via-gladiola"), SealedViaGladiola)
    assert has_sealed_engine("via-gladiola")
    for title in ("velonimo", "auf-achse"):
        assert not has_sealed_engine(title)
        with pytest.raises(BadConfig, match=f"'{title}' cannot be played sealed yet"):
            sealed_engine(title)


def test_a_sealed_table_only_for_a_title_with_a_sealed_engine() -> None:
    with pytest.raises(BadConfig):
        Table.create("velonimo", 3, {}, name="t", host_part=b"\0" * 32, sealed=True)
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=b"\0" * 32, sealed=True)
    with pytest.raises(BadConfig):
        table.reconfigure("velonimo", 3, {})
    assert table.game.id == "via-gladiola" and table.sealed
    table.reconfigure("via-gladiola", 3, {})  # the same title, other seats: still sealed
    assert table.sealed and table.config.players == 3


def test_a_sealed_table_with_everyone_ready_does_not_deal() -> None:
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=b"\0" * 32, sealed=True)
    table.add_bot("random", 0)
    table.add_bot("random", 1)
    assert table.start_problem() == SEALED_NOT_PLAYABLE
    with pytest.raises(LobbyError, match="sealed"):
        table.start()
    assert table.state is None and table.phase == "lobby"
    table.sealed = False
    assert table.start_problem() is None
