"""The table session driven directly: no socket, no event loop, no sleep; the time is a number.

These are the paths that are hard to reach over the wire, where the order of two events is a
matter of milliseconds: a stand-in's answer arriving after its player came back, two timers
due at the same moment, a player's second connection in the middle of a deal round, and the
host closing the table in each phase of it.
"""

from __future__ import annotations

from typing import Any

import pytest

from netcards.fairdeal import pledge
from netcards.table import Table
from protocol.connection import Packed
from protocol.messages import (
    Action,
    Audit,
    Commit,
    Contribute,
    Error,
    Join,
    Leave,
    Message,
    Pledge,
    Pledges,
    Ready,
    Seated,
    Start,
    TableNotice,
    Update,
)
from protocol.table_session import Effect, HostSettings, TableSession
from protocol.table_session.effects import (
    DEAL_TIMER,
    GAME_OVER_TIMER,
    AskBot,
    CancelTimer,
    Close,
    Drop,
    Journal,
    Send,
    WakeBots,
    clock_timer,
    grace_timer,
)
from tests.protocol.support import randomness

PART = bytes(range(32))
ANN = 0  # the human seat; seat 1 is a bot


def message(effect: Effect) -> Message | None:
    if not isinstance(effect, Send):
        return None
    return effect.message.message if isinstance(effect.message, Packed) else effect.message


def said_to(effects: list[Effect], number: int) -> list[Message]:
    return [m for e in effects if isinstance(e, Send) and e.to == number if (m := message(e))]


def arrive(session: TableSession, now: float = 0.0) -> int:
    arrival = session.arrive("127.0.0.1", f"127.0.0.1:{40000 + len(session.members)}", now)
    assert arrival.number is not None
    return arrival.number


def join(
    session: TableSession, name: str, resume: bytes | None = None, now: float = 0.0
) -> tuple[int, list[Effect]]:
    number = arrive(session, now)
    return number, session.received(number, Join(name, resume, False), now)


def a_table(players_bots: int = 1, **settings: Any) -> TableSession:
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=bytes(32))
    for seat in range(2 - players_bots, 2):
        table.add_bot("random", seat)
    session = TableSession(table, settings=HostSettings(**settings), random_bytes=randomness(7))
    session.start(0.0)
    return session


def seated_ann(**settings: Any) -> tuple[TableSession, int, bytes]:
    """A table with Ann in seat 0 (not ready yet) and a bot in seat 1; her seat token."""
    session = a_table(**settings)
    ann, effects = join(session, "Ann")
    (seated,) = [m for m in said_to(effects, ann) if isinstance(m, Seated)]
    assert seated.seat == ANN and seated.token is not None
    return session, ann, seated.token


def dealt(**settings: Any) -> tuple[TableSession, int, bytes]:
    """Ann's table with its game dealt: she was ready, pledged and revealed her part."""
    session, ann, token = seated_ann(**settings)
    session.received(ann, Ready(True), 0.0)
    session.received(ann, Pledge(pledge(ANN, PART)), 0.0)
    session.received(ann, Contribute(PART), 0.0)
    assert session.table.phase == "playing"
    return session, ann, token


def bots_play_until_ann_acts(session: TableSession) -> None:
    while ANN not in session.table.to_act():
        question = session.next_bot_question()
        assert question is not None
        session.bot_answered(question, question.think(), 0.0)


def test_a_stand_in_s_answer_after_its_player_is_back_is_dropped() -> None:
    """The stand-in was asked Ann's move; Ann came back before it answered: the decision is
    hers again, the bot's move is not played for her, and hers is."""
    session, ann, token = dealt(grace=5.0)
    bots_play_until_ann_acts(session)
    session.gone(ann, 1.0)
    assert grace_timer(ANN) in session.timers
    effects = session.timer_fired(grace_timer(ANN), 6.0)
    assert session.table.seats[ANN].stand_in and WakeBots() in effects
    question = session.next_bot_question()
    assert question is not None and question.seat == ANN and question.stand_in
    answer = question.think()  # thought out in a worker thread, meanwhile...
    back, _ = join(session, "Ann", resume=token, now=7.0)
    assert not session.table.seats[ANN].stand_in
    seq, actions = session.seq, list(session.table.actions)

    late = session.bot_answered(question, answer, 8.0)

    assert session.seq == seq and session.table.actions == actions, "the bot played for Ann"
    assert not any(isinstance(e, Send | Journal) for e in late)
    assert ANN in session.table.to_act()
    mine = session.received(back, Action(seq, answer), 9.0)
    assert session.seq == seq + 1 and any(isinstance(e, Journal) for e in mine)


@pytest.mark.parametrize("clock_first", [True, False], ids=["clock-first", "grace-first"])
def test_the_turn_clock_and_the_grace_due_at_once_play_the_turn_once(clock_first: bool) -> None:
    """Ann's clock runs out at the moment her grace ends: whichever fires first, one move is
    played for her, the other timer comes to nothing, and no clock is left running for a seat
    a bot now plays."""
    session, ann, _ = dealt(grace=5.0, turn_clock=5.0)
    bots_play_until_ann_acts(session)
    assert clock_timer(ANN) in session.timers
    session._now = 0.0  # her clock started at 0 (every input above came at 0)
    session.gone(ann, 0.0)
    assert session.timers[clock_timer(ANN)] == session.timers[grace_timer(ANN)] == 5.0
    seq = session.seq
    keys = [clock_timer(ANN), grace_timer(ANN)]
    fired = [session.timer_fired(key, 5.0) for key in (keys if clock_first else keys[::-1])]

    questions = [e.question for effects in fired for e in effects if isinstance(e, AskBot)]
    if any(WakeBots() in effects for effects in fired):
        question = session.next_bot_question()
        assert question is not None
        questions.append(question)
    if clock_first:
        assert len(questions) == 2, "the clock's bot and the stand-in were both asked"
    else:
        assert CancelTimer(clock_timer(ANN)) in fired[0], "the stand-in stops Ann's clock"
        assert fired[1] == [], "a clock already stopped does nothing when it fires"
        assert len(questions) == 1
    for question in questions:
        session.bot_answered(question, question.think(), 5.5)
    assert session.seq >= seq + 1
    assert [seat for seat, _ in session.table.actions[seq:]].count(ANN) == 1
    assert clock_timer(ANN) not in session.timers


def test_a_second_connection_in_the_middle_of_the_deal_round_takes_the_seat_and_deals() -> None:
    """Ann pledged, then her link broke and her program came back with its seat token before
    the old connection was seen to go: the new one is told the round so far (commit and
    pledges), the old one is told it was replaced, and the part the new one reveals deals."""
    session, ann, token = seated_ann()
    session.received(ann, Ready(True), 0.0)
    session.received(ann, Pledge(pledge(ANN, PART)), 0.0)
    assert session.round is not None and session.round.stage == "revealing"

    again, effects = join(session, "Ann", resume=token, now=1.0)

    old = said_to(effects, ann)
    assert [m.code for m in old if isinstance(m, Error)] == ["replaced"]
    assert Close(ann) in effects
    new = said_to(effects, again)
    assert [type(m) for m in new if isinstance(m, Seated | Commit | Pledges)] == [
        Seated,
        Commit,
        Pledges,
    ]
    gone = session.gone(ann, 1.5)  # the old connection ends: the seat is held by the new one
    assert not any(isinstance(m, TableNotice) for e in gone if (m := message(e)))
    assert session.round is not None, "the round goes on"
    dealt_now = session.received(again, Contribute(PART), 2.0)
    assert session.table.phase == "playing"
    assert any(isinstance(m, Start) for m in said_to(dealt_now, again))
    assert DEAL_TIMER not in session.timers


def _spectator(session: TableSession) -> int:
    number = arrive(session)
    session.received(number, Join("Zoe", None, True), 0.0)
    return number


def _in_phase(phase: str) -> tuple[TableSession, list[int]]:
    """A table in `phase` with its joined members (a spectator among them)."""
    if phase == "over":
        session = a_table(players_bots=2)
        watcher = _spectator(session)
        while (question := session.next_bot_question()) is not None:
            session.bot_answered(question, question.think(), 0.0)
        assert session.table.phase == "over" and GAME_OVER_TIMER in session.timers
        session.timer_fired(GAME_OVER_TIMER, 0.0)
        return session, [watcher]
    session, ann, _ = seated_ann(turn_clock=30.0)
    if phase in ("dealing", "playing"):
        session.received(ann, Ready(True), 0.0)
    if phase == "playing":
        session.received(ann, Pledge(pledge(ANN, PART)), 0.0)
        session.received(ann, Contribute(PART), 0.0)
        bots_play_until_ann_acts(session)
    return session, [ann, _spectator(session)]


@pytest.mark.parametrize("phase", ["lobby", "dealing", "playing", "over"])
def test_the_host_ending_the_table_says_so_to_everyone_and_stops_every_timer(phase: str) -> None:
    session, joined = _in_phase(phase)
    assert (session.round is not None) == (phase == "dealing")
    assert session.table.phase == ("lobby" if phase == "dealing" else phase)
    waiting = arrive(session)  # connected, not joined yet
    armed = set(session.timers)
    assert armed or phase in ("lobby", "over")

    effects = session.end_table()

    for number in joined:
        said = said_to(effects, number)
        assert isinstance(said[0], TableNotice) and said[0].code == "closed"
        audits = [m for m in said if isinstance(m, Audit)]
        assert bool(audits) == (phase == "playing"), "the results so far, only mid-game"
        assert isinstance(said[-1], Leave)
        assert not any(isinstance(m, Update) for m in said)
    assert [type(m) for m in said_to(effects, waiting)] == [Leave]
    closes = [e.to for e in effects if isinstance(e, Close)]
    assert sorted(closes) == sorted([*joined, waiting])
    assert {e.key for e in effects if isinstance(e, CancelTimer)} == armed
    assert session.timers == {}
    assert effects[-1] == Journal({"type": "closed"}, durable=True)
    assert session.end_table() == [], "said once, and written once"


def test_an_address_that_guessed_wrong_too_often_is_turned_away_at_the_door() -> None:
    """Judged by the time passed in: refused while its wait runs, let in once it is over."""
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=bytes(32))
    session = TableSession(
        table, settings=HostSettings(), random_bytes=randomness(7), password_protected=True
    )
    for _ in range(4):
        session.password_judged("127.0.0.9", False, 100.0)
    arrival = session.arrive("127.0.0.9", "127.0.0.9:5000", 100.5)
    assert arrival.number is None and arrival.refusal is not None
    assert arrival.refusal[1] == {"retry_after_ms": 1500}
    assert [type(e).__name__ for e in arrival.effects] == ["Log"]
    assert "turned 127.0.0.9:5000 away" in arrival.effects[0].line  # type: ignore[union-attr]
    assert session.members == {}
    assert session.arrive("127.0.0.9", "127.0.0.9:5001", 102.0).number is not None


def test_the_waiting_room_sheds_the_oldest_idle_connection_of_a_crowding_address() -> None:
    session = a_table(max_waiting_per_address=2)
    ann, _ = join(session, "Ann", now=0.5)  # joined: never shed
    first, second = arrive(session, 1.0), arrive(session, 2.0)
    arrival = session.arrive("127.0.0.1", "127.0.0.1:49999", 4.0)
    assert arrival.number is not None
    (drop,) = arrival.effects
    assert drop == Drop(first, "it has not joined; its place is needed to make room", True)
    assert session.members[first].closed and not session.members[second].closed
    assert session.members[ann].joined
