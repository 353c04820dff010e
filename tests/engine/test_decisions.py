"""A move answers the decision its seat saw: the table refuses one naming an older or a future
update, and never applies a late move to the seat's next decision."""

from __future__ import annotations

import pytest

from netcards.errors import FutureMove, NotYourTurn, StaleMove
from netcards.table import Table
from tests.engine.support import packed

REST = {"kind": "rest"}


def two_seats(game: str = "via-gladiola", players: int = 2) -> Table:
    options = {"first_player": 0} if game != "auf-achse" else {}
    table = Table.create(game, players, options, name="t", host_part=bytes(32))
    table.claim_seat("Ann", "tok-ann")
    table.set_ready(0, True)
    for _ in range(players - 1):
        table.add_bot("heuristic")
    table.start()
    return table


def test_a_late_move_after_a_bot_played_the_decision_is_refused_not_applied_to_the_next() -> None:
    table = two_seats()
    asked_at = len(table.actions)
    assert 0 in table.to_act()
    table.submit(0, table.bot_action(0))  # the turn clock's bot plays Ann's decision
    table.submit(1, table.bot_action(1))  # the other seat plays; Ann is asked again
    assert 0 in table.to_act()
    before = packed(table.game, table.state)
    with pytest.raises(StaleMove, match="update 0"):
        table.submit(0, REST, seen=asked_at)
    assert packed(table.game, table.state) == before and len(table.actions) == 2
    table.submit(0, REST, seen=2)  # the move against the state Ann saw is taken
    assert table.actions[-1] == (0, REST)


def test_a_move_naming_an_update_not_sent_yet_is_refused() -> None:
    table = two_seats()
    with pytest.raises(FutureMove, match="no update 5"):
        table.submit(0, REST, seen=5)
    assert table.actions == []


def test_a_stale_move_from_a_seat_not_asked_any_more_is_stale() -> None:
    table = two_seats()
    table.submit(0, REST, seen=0)
    with pytest.raises(StaleMove):
        table.submit(0, REST, seen=0)


def test_a_simultaneous_choice_stays_valid_while_the_others_choose() -> None:
    """In the run step everyone chooses at once: another seat's choice is a new update, but
    the decision asked of seat 0 is still the one it saw."""
    table = two_seats("auf-achse", 3)
    assert table.to_act() == frozenset({0, 1, 2})
    table.submit(1, table.bot_action(1))
    card = table.view(0)["hand"][0]
    table.submit(0, {"kind": "run", "card": card}, seen=0)
    assert table.actions[-1] == (0, {"kind": "run", "card": card})


def test_a_seat_asked_again_after_its_own_move_needs_the_new_update() -> None:
    """Velonimo asks the same seat several decisions in a row (victim, then each card back):
    each is a new decision, asked at the update that followed the seat's last move."""
    table = two_seats("via-gladiola")
    table.submit(0, REST, seen=0)
    table.submit(1, table.bot_action(1), seen=1)
    assert table.decision_asked_at(0) == 2
    assert table.decision_asked_at(1) is None


def test_the_journal_rebuilds_the_same_decisions() -> None:
    table = two_seats()
    records = [table.journal_start()]
    for _ in range(5):
        seat = min(table.to_act())
        table.submit(seat, table.bot_action(seat))
        records.append(table.journal_action())
    again = Table.from_journal(records)
    assert {s: again.decision_asked_at(s) for s in range(2)} == {
        s: table.decision_asked_at(s) for s in range(2)
    }


@pytest.mark.parametrize("game", ["via-gladiola", "velonimo", "auf-achse"])
def test_a_bot_is_never_asked_to_choose_for_a_seat_not_asked_to_act(game: str) -> None:
    """A bot chooses one of its legal moves: asked for a seat that has none now (not its turn,
    or the game is over), the table refuses instead of handing the bot an empty list."""
    table = two_seats(game)
    refused = 0
    while table.phase == "playing":
        for seat in range(2):
            if seat not in table.to_act():
                with pytest.raises(NotYourTurn):
                    table.bot_move(seat)
                refused += 1
        seat = min(table.to_act())
        table.submit(seat, table.bot_action(seat))
    for seat in range(2):
        with pytest.raises(NotYourTurn):
            table.bot_move(seat)
    assert refused > 0


def test_a_bot_move_may_be_asked_of_another_level() -> None:
    table = two_seats()
    assert table.bot_move(0, "random")() in [
        table.game.encode_action(a) for a in table.game.legal_actions(table.state, 0)
    ]
