"""Which titles a table may be sealed for, and that a sealed table never deals the classic way."""

from __future__ import annotations

import pytest

from netcards.errors import BadConfig
from netcards.games.via_gladiola.sealed import SealedVGState, SealedViaGladiola
from netcards.sealed_cards import is_slot
from netcards.sealed_game import choices_of, has_sealed_engine, public_seed, sealed_engine
from netcards.table import Table


def test_every_title_has_a_sealed_engine() -> None:
    from netcards.games.auf_achse.sealed import SealedAufAchse
    from netcards.games.velonimo.sealed import SealedVelonimo
    from netcards.registry import all_games

    assert isinstance(sealed_engine("via-gladiola"), SealedViaGladiola)
    assert isinstance(sealed_engine("velonimo"), SealedVelonimo)
    assert isinstance(sealed_engine("auf-achse"), SealedAufAchse)
    assert all(has_sealed_engine(title) for title in all_games())
    # Only Auf Achse's seats choose at once and in secret: committed, then opened.
    assert choices_of(sealed_engine("auf-achse")) is not None
    assert choices_of(sealed_engine("via-gladiola")) is None
    for title in ("no-such-title",):
        assert not has_sealed_engine(title)
        with pytest.raises(BadConfig, match=f"'{title}' cannot be played sealed yet"):
            sealed_engine(title)


def test_a_sealed_table_only_for_a_title_with_a_sealed_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import netcards.sealed_game

    only = {"via-gladiola": SealedViaGladiola()}
    monkeypatch.setattr(netcards.sealed_game, "_engines", lambda: only)
    with pytest.raises(BadConfig):
        Table.create("auf-achse", 3, {}, name="t", host_part=b"\0" * 32, sealed=True)
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=b"\0" * 32, sealed=True)
    with pytest.raises(BadConfig):
        table.reconfigure("auf-achse", 3, {})
    assert table.game.id == "via-gladiola" and table.sealed
    table.reconfigure("via-gladiola", 3, {})  # the same title, other seats: still sealed
    assert table.sealed and table.config.players == 3


def test_a_sealed_table_starts_without_dealing_a_card() -> None:
    """The host's table holds slots in every hidden place: the cards are the sealing rounds'."""
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=b"\1" * 32, sealed=True)
    table.add_bot("random", 0)
    table.add_bot("random", 1)
    assert table.start_problem() is None
    table.start()
    assert isinstance(table.state, SealedVGState) and table.phase == "playing"
    assert all(is_slot(x) for hand in table.state.hands for x in hand)
    assert all(is_slot(x) for x in table.state.draw)
    assert table.seed == public_seed(table.commit, {})


def test_each_title_says_which_slots_a_move_plays_face_up() -> None:
    """The table waits for its owner's reveal step before these, and only these: a card going
    face down or to one other seat must never be asked to be shown to everyone."""
    from netcards.games.auf_achse.sealed import CommitChoice, SealedAufAchse, SealedOdometer
    from netcards.games.velonimo.sealed import SealedGiveBack, SealedPlay, SealedVelonimo
    from netcards.games.via_gladiola.actions import Rest
    from netcards.games.via_gladiola.sealed import SealedWalk
    from netcards.sealed_cards import SLOT_BASE

    slot = SLOT_BASE + 7
    assert SealedViaGladiola().shows(SealedWalk(slot, 12)) == {slot: 12}
    assert SealedViaGladiola().shows(Rest()) == {}
    velonimo = SealedVelonimo()
    assert velonimo.shows(SealedPlay((slot, 40), (3, 40), False)) == {slot: 3}
    assert velonimo.shows(SealedGiveBack(slot)) == {}
    auf_achse = SealedAufAchse()
    assert auf_achse.shows(SealedOdometer(slot)) == {}
    assert auf_achse.shows(CommitChoice(tuple(range(32)))) == {}
