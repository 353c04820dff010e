"""The table: lobby, play with bots and stand-ins, rejoin tokens, journal resume, the fair deal."""

from __future__ import annotations

import os
from typing import Any

import pytest

from netcards.errors import GameError, NotYourTurn
from netcards.fairdeal import combine, commitment, verify_game
from netcards.table import LobbyError, Table
from tests.engine.support import packed


def new_table(players: int = 3, game: str = "via-gladiola") -> Table:
    return Table.create(game, players, {}, name="Friday", host_part=bytes(range(32)))


def run_bots(
    table: Table, journal: list[dict[str, Any]] | None = None, limit: int = 10_000
) -> None:
    for _ in range(limit):
        seats = table.bot_seats_to_act()
        if not seats:
            return
        table.submit(seats[0], table.bot_action(seats[0]))
        if journal is not None:
            journal.append(table.journal_action())


def full_table(players: int = 3) -> Table:
    table = new_table(players)
    ann = table.claim_seat("Ann", "tok-ann")
    table.contribute(ann.index, b"a" * 32)
    table.set_ready(ann.index, True)
    for _ in range(players - 1):
        table.add_bot("heuristic")
    return table


def test_seats_fill_in_order_and_a_full_table_refuses() -> None:
    table = new_table(2)
    assert table.claim_seat("Ann", "t1").index == 0
    assert table.add_bot("random").index == 1
    with pytest.raises(LobbyError, match="full"):
        table.claim_seat("Bob", "t2")
    assert table.free_seats() == 0


def test_names_are_cleaned_and_bounded() -> None:
    table = new_table(2)
    assert table.claim_seat("  A\x1b[2Jnn\n ", "t").name == "A[2Jnn"
    with pytest.raises(LobbyError, match="visible"):
        table.claim_seat("\n\t", "u")
    assert len(table.add_bot("random", name="x" * 100).name) == 24


def test_a_name_already_at_the_table_gets_a_number() -> None:
    table = new_table(5)
    assert table.claim_seat("Bob", "t1").name == "Bob"
    assert table.claim_seat("bob", "t2").name == "bob (2)", "the same name in another case"
    assert table.add_bot("random", name="BOB").name == "BOB (3)"
    long = "y" * 30
    assert table.claim_seat(long, "t3").name == "y" * 24
    assert table.claim_seat(long, "t4").name == "y" * 20 + " (2)", "within the name limit"
    table.disconnect(0)  # Bob leaves the lobby: his name is free again
    assert table.claim_seat("Bob", "t5").name == "Bob"


def test_bots_named_after_their_seat_follow_it_when_the_table_changes() -> None:
    """The owner takes out the bot of seat 2 and changes the game: the others move up, and
    each is named after its new seat, which is the digit that chooses it in Velonimo. A bot
    given a name of its own keeps it."""
    table = Table.create("auf-achse", 4, {}, name="t", host_part=bytes(32))
    table.claim_seat("Zed", "tok")
    for seat in (1, 2):
        table.add_bot("heuristic", seat)
    table.add_bot("heuristic", 3, name="Robo")
    table.remove_bot(1)
    table.reconfigure("velonimo", 3, {})
    assert [(s.index, s.name) for s in table.seats] == [(0, "Zed"), (1, "Bot 2"), (2, "Robo")]


def test_bots_keep_the_last_seats_when_the_game_changes() -> None:
    """A table opened with one bot has it in the last seat, as the host form says. Another
    game with as many seats moves nobody and renames nobody; another count of seats keeps the
    bots in the last seats (named after their new seat), the players in the first."""
    table = Table.create("auf-achse", 3, {}, name="t", host_part=bytes(32))
    table.claim_seat("Zed", "tok")
    table.add_bot("heuristic", 2)
    table.reconfigure("velonimo", 3, {})
    assert [(s.index, s.kind, s.name) for s in table.seats] == [
        (0, "human", "Zed"),
        (1, "open", ""),
        (2, "bot", "Bot 3"),
    ]
    table.reconfigure("velonimo", 4, {})
    assert [(s.index, s.kind, s.name) for s in table.seats] == [
        (0, "human", "Zed"),
        (1, "open", ""),
        (2, "open", ""),
        (3, "bot", "Bot 4"),
    ]
    table.claim_seat("Amy", "tok2")  # a player takes the first open seat
    table.reconfigure("via-gladiola", 3, {})
    assert [(s.index, s.kind, s.name) for s in table.seats] == [
        (0, "human", "Zed"),
        (1, "human", "Amy"),
        (2, "bot", "Bot 3"),
    ]
    assert not any(s.ready for s in table.seats if s.kind == "human")


def test_start_waits_for_open_seats_and_unready_players() -> None:
    table = new_table(3)
    table.claim_seat("Ann", "t1")
    assert "2 seat(s) still open" in (table.start_problem() or "")
    table.add_bot("random")
    table.add_bot("heuristic")
    assert table.start_problem() == "waiting for Ann to be ready"
    with pytest.raises(LobbyError):
        table.start()
    table.set_ready(0, True)
    table.start()
    assert table.phase == "playing"
    with pytest.raises(LobbyError, match="already started"):
        table.add_bot("random")


def test_unknown_bot_level_is_refused() -> None:
    with pytest.raises(GameError, match="unknown bot level 'genius'"):
        new_table().add_bot("genius")


def test_the_seed_combines_the_host_part_and_every_contribution() -> None:
    table = full_table()
    table.start()
    assert table.seed == combine(bytes(range(32)), {0: b"a" * 32})
    assert table.seed != combine(bytes(range(32)), {0: b"b" * 32})
    assert table.lobby()["commit"] == commitment(bytes(range(32))).hex()


def test_a_refused_action_changes_nothing_and_is_not_recorded() -> None:
    table = full_table()
    table.start()
    run_bots(table)
    if table.phase == "over":
        pytest.skip("the bots finished alone")
    seat = next(iter(table.to_act()))
    other = (seat + 1) % 3
    before = packed(table.game, table.state)
    recorded = len(table.actions)
    with pytest.raises(NotYourTurn):
        table.submit(other, table.legal(seat)[0])
    with pytest.raises(GameError, match="unknown action kind"):
        table.submit(seat, {"kind": "fly"})
    assert packed(table.game, table.state) == before
    assert len(table.actions) == recorded


def test_a_whole_game_with_a_human_seat_driven_by_its_legal_moves() -> None:
    table = full_table()
    table.start()
    while table.phase == "playing":
        run_bots(table)
        if table.phase != "playing":
            break
        table.submit(0, table.legal(0)[-1])
    outcome = table.outcome()
    assert outcome is not None
    assert table.audit()["host_part"] == bytes(range(32)).hex()


def test_history_never_holds_another_seats_drawn_cards() -> None:
    table = full_table()
    table.start()
    run_bots(table)
    for event in table.history(0):
        if event["kind"] == "draw" and event["seat"] != 0:
            assert "cards" not in event
    assert all("cards" not in e for e in table.history(None) if e["kind"] == "draw")


def test_rejoin_with_the_token_and_stand_in_while_away() -> None:
    table = full_table()
    table.start()
    table.disconnect(0)
    assert not table.seats[0].connected
    table.set_stand_in(0, True)
    run_bots(table, limit=60)
    assert any(seat == 0 for seat, _ in table.actions), "the stand-in played seat 0"
    with pytest.raises(LobbyError, match="unknown resume token"):
        table.rejoin("tok-bob")
    seat = table.rejoin("tok-ann")
    assert seat.index == 0 and seat.connected and not seat.stand_in


def test_journal_resume_reaches_the_same_state_and_the_same_result() -> None:
    table = full_table(4)
    table.start()
    journal = [table.journal_start()]
    table.set_stand_in(0, True)
    run_bots(table, journal, limit=25)
    resumed = Table.from_journal(journal)
    assert packed(resumed.game, resumed.state) == packed(table.game, table.state)
    assert all(not s.connected for s in resumed.seats if s.kind == "human")
    for t in (table, resumed):
        t.set_stand_in(0, True)
        run_bots(t)
    assert table.outcome() == resumed.outcome()
    assert table.audit() == resumed.audit()


def test_journal_with_a_missing_action_is_refused() -> None:
    table = full_table()
    table.start()
    journal = [table.journal_start()]
    table.set_stand_in(0, True)
    run_bots(table, journal, limit=5)
    del journal[2]
    with pytest.raises(LobbyError, match="out of order"):
        Table.from_journal(journal)


Received = list[tuple[int, list[dict[str, Any]]]]


def _finished_game() -> tuple[Table, Received]:
    table = full_table()
    table.start()
    table.set_stand_in(0, True)
    run_bots(table)
    return table, [(seq, events) for seq, _, events in table.history_steps(0)]


def _verify(table: Table, received: Received, **change: Any) -> Any:
    audit = table.audit()
    args: dict[str, Any] = {
        "seat": 0,
        "commit": table.commit,
        "host_part": bytes.fromhex(audit["host_part"]),
        "contributions": {int(k): bytes.fromhex(v) for k, v in audit["contributions"].items()},
        "my_contribution": b"a" * 32,
        "actions": [(s, a) for s, a in audit["actions"]],
        "received": received,
    }
    args.update(change)
    return verify_game(table.game, table.config, **args)


def test_an_honest_game_verifies() -> None:
    table, received = _finished_game()
    assert _verify(table, received).ok


def test_verification_catches_a_host_part_that_does_not_match_the_commitment() -> None:
    table, received = _finished_game()
    verdict = _verify(table, received, host_part=os.urandom(32))
    assert "does not match its commitment" in verdict.problems[0]


def test_verification_catches_a_dropped_contribution() -> None:
    table, received = _finished_game()
    verdict = _verify(table, received, contributions={})
    assert "our random contribution" in verdict.problems[0]


def test_verification_catches_a_changed_event() -> None:
    table, received = _finished_game()
    forged = [(seq, [dict(e) for e in events]) for seq, events in received]
    seq, event = next(
        (seq, e)
        for seq, events in forged
        for e in events
        if e["kind"] == "draw" and e["seat"] == 0 and e["count"]
    )
    event["cards"] = [0]
    verdict = _verify(table, forged)
    assert verdict.problems == [f"update {seq} (seat 1's move) differs from the replay"]


def test_verification_catches_a_missing_or_an_invented_update() -> None:
    table, received = _finished_game()
    verdict = _verify(table, received[:5] + received[6:])
    assert verdict.problems == [f"update {received[5][0]} never reached us"]
    verdict = _verify(table, [*received, (len(received) + 1, [])])
    assert verdict.problems == [
        f"we were sent update {len(received) + 1}, which the revealed actions do not make"
    ]


def test_history_steps_are_numbered_like_the_audit() -> None:
    table, received = _finished_game()
    assert [seq for seq, _ in received] == list(range(1, len(table.actions) + 1))
    steps = table.history_steps(None)
    assert [actor for _, actor, _ in steps] == [seat for seat, _ in table.actions]
    assert [e for _, _, events in steps for e in events] == table.history(None)


def test_commitment_and_seed_follow_the_documented_formulas() -> None:
    import hashlib

    host = b"\x11" * 32
    parts = {2: b"\x22" * 32, 0: b"\x33" * 32}
    assert commitment(host) == hashlib.sha256(b"netcards deal commit v1" + host).digest()
    expected = hashlib.sha256(
        b"netcards deal seed v1" + host + b"\x00" + b"\x33" * 32 + b"\x02" + b"\x22" * 32
    ).digest()
    assert combine(host, parts) == expected
    assert combine(host, {1: b"\x33" * 32, 2: b"\x22" * 32}) != expected


def test_verification_checks_the_parts_against_the_pledges_and_the_claimed_seed() -> None:
    from netcards.fairdeal import pledge

    table, received = _finished_game()
    pledges = {0: pledge(0, b"a" * 32)}
    assert _verify(table, received, pledges=pledges, claimed_seed=table.seed).ok
    verdict = _verify(table, received, pledges={0: pledge(0, b"b" * 32)})
    assert verdict.problems == ["seat 1's seed part is not the one it pledged"]
    verdict = _verify(table, received, claimed_seed=os.urandom(32))
    assert verdict.problems == ["the seed the host revealed is not the one the seed parts make"]


def test_the_seed_uses_exactly_the_parts_of_the_deal() -> None:
    table = full_table()
    table.contribute(1, b"z" * 32)  # a part from an earlier, called-off round
    table.use_contributions({0: b"b" * 32})
    table.start()
    assert table.seed == combine(bytes(range(32)), {0: b"b" * 32})
