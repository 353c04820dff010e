"""False alarms never frame an honest seat (docs/sealed.md, sections 3 and 7, `broken`).

A seat that says the deck was tampered with stops the game: every seat publishes its secrets
and every program audits. The audit judges only what was complete when the alarm reached the
host, the first `broken` step it took: a sealing round, an opening or a reveal, a public random
draw, a private transfer, a simultaneous choice or a move under way then counts against nobody.
Here the alarm is raised, falsely, in the middle of each of them, in every title, by the host's
own bot (a modified host) and by a player's modified program: the relay's queue is paused at a
chosen message (`Table.pause`) and the alarm sent from there, every link keeping its order, so
that some seats have answered the step under way and others have not. Every honest program,
the host's and every other seat's, names the seat that raised it (`false_alarm`), never an
honest seat, and nothing raises. A round a modified host begins after the alarm is never held
against a player either: a player's program signs nothing once its secrets are out.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from netcards.action import Action
from netcards.errors import GameError
from netcards.games.via_gladiola.actions import Rest
from protocol.sealed.messages import SealAct, SealMessage, SealReveal, SealRound, SealStep
from protocol.sealed_play.seat import BROKEN, secrets_body
from tests.protocol.test_sealed_game_choices import table as auf_achse_table
from tests.protocol.test_sealed_game_wire import Table, wire
from tests.protocol.test_sealed_velonimo_wire import VelonimoTable

Still = Callable[[], bool]
"""Whether the step the alarm landed in is still half done (at the end: nothing after the
alarm was relayed)."""
Scenario = Callable[[Table, int, SealMessage], Still | None]
"""Before `msg` reaches seat `to`: None to go on, or pause there (the step is half done)."""


def sealing(phase: str, first: int = 0, made: int = 1) -> Scenario:
    """A round numbered `first` or later in its `phase` (mask or rekey), `made` of that
    phase's steps made or more."""

    def at(t: Table, to: int, msg: SealMessage) -> Still | None:
        number = t.host.relay.round_no
        if number is None or number < first:
            return None
        r = t.host.relay.rounds[number].round
        if r.phase != phase or len(r.masked if phase == "mask" else r.rekeyed) < made:
            return None
        return lambda: r.phase == phase

    return at


def opening(t: Table, to: int, msg: SealMessage) -> Still | None:
    """A card dealt: some of the other seats' scalars of it are in, not all."""
    for kept in t.host.relay.rounds.values():
        r = kept.round
        for p, owner in kept.owners.items():
            others = [s for s in r.seats if s != owner]
            if p not in kept.moves.passed and 0 < _published(r.scalars, p, others) < len(others):
                return lambda: _published(r.scalars, p, others) < len(others)
    return None


def _published(scalars: dict[int, dict[int, int]], p: int, seats: list[int]) -> int:
    return sum(p in scalars.get(s, {}) for s in seats)


def reveal(t: Table, to: int, msg: SealMessage) -> Still | None:
    """A `seal_reveal` that some seat answered already, on its way to a seat that has not."""
    if not isinstance(msg, SealReveal) or to not in t.seats:
        return None
    kept = t.host.relay.rounds[msg.round]
    asked = set(msg.positions)
    answered = {
        s.step.seat
        for s in t.host.relay.transcript.steps
        if s.step.kind == "reveal"
        and s.step.round == msg.round
        and asked & {p for p, _ in s.step.body["scalars"]}
    }
    if not answered or to in answered or asked <= set(kept.revealed):
        return None
    return lambda: not asked <= set(kept.revealed)


def draw_committed(t: Table, to: int, msg: SealMessage) -> Still | None:
    """A public random draw some seats have committed to, not all."""
    d = t.host.relay.draws
    draw = d.current
    if draw < d.asked and 0 < len(d.commitments.get(draw, {})) < len(d.seats):
        return lambda: not d.committed(draw)
    return None


def draw_opened(t: Table, to: int, msg: SealMessage) -> Still | None:
    """A draw every seat committed to, some seats opened, not all."""
    d = t.host.relay.draws
    draw = d.current
    if d.committed(draw) and 0 < len(d.nonces.get(draw, {})) < len(d.seats):
        return lambda: len(d.values) == draw
    return None


def passing(t: Table, to: int, msg: SealMessage) -> Still | None:
    """A private transfer: the new owner's `pass_key` relayed, the keeper's `pass` not."""
    for kept in t.host.relay.rounds.values():
        if kept.moves.keys:
            keyed = set(kept.moves.keys)
            return lambda: keyed <= set(kept.moves.keys)
    return None


def choice_committed(t: Table, to: int, msg: SealMessage) -> Still | None:
    """A simultaneous choice some asked seats committed to, not all."""
    step = t.host.state.choices.current
    if step is not None and 0 < len(step.commitments) < len(step.asked):
        return lambda: bool(step.to_commit())
    return None


def choice_opened(t: Table, to: int, msg: SealMessage) -> Still | None:
    """A simultaneous choice every asked seat committed to, some opened, not all."""
    step = t.host.state.choices.current
    if step is not None and not step.to_commit() and 0 < len(step.opened) < len(step.asked):
        return lambda: not step.done()
    return None


@dataclass(frozen=True)
class Case:
    title: str
    players: int
    humans: tuple[int, ...]
    seed: int = 1
    lazy: bool = False
    """Players rest half the time they may (Via Gladiola): the pile runs out and is reshuffled."""

    def table(self) -> Table:
        if self.title == "velonimo":
            return VelonimoTable(self.players, self.humans, self.seed)
        if self.title == "auf_achse":
            return auf_achse_table(self.players, list(self.humans), self.seed)
        return Table(self.players, self.humans, self.seed)

    def choose(self, t: Table, legal: list[Action]) -> Action:
        rests = [a for a in legal if isinstance(a, Rest)]
        if self.lazy and rests and t.rng.random() < 0.5:
            return rests[0]
        return t.rng.choice(legal)


GLADIOLA = Case("via_gladiola", 3, (0, 2))
VELONIMO = Case("velonimo", 3, (0, 2))
DUEL = Case("velonimo", 2, (0,))
AUF_ACHSE = Case("auf_achse", 3, (0, 2))

CASES: list[tuple[Case, str, Scenario]] = [
    (GLADIOLA, "mid-mask", sealing("mask")),
    (GLADIOLA, "mid-rekey", sealing("rekey")),
    (GLADIOLA, "mid-opening", opening),
    (GLADIOLA, "mid-reveal", reveal),
    (Case("via_gladiola", 3, (0, 2), lazy=True), "mid-reshuffle", sealing("mask", first=1)),
    (VELONIMO, "mid-mask", sealing("mask")),
    (VELONIMO, "mid-rekey", sealing("rekey")),
    (VELONIMO, "mid-opening", opening),
    (VELONIMO, "mid-draw-commitments", draw_committed),
    (VELONIMO, "mid-draw-openings", draw_opened),
    (VELONIMO, "mid-pass", passing),
    (VELONIMO, "mid-next-deal", sealing("rekey", first=1)),
    (DUEL, "mid-mask", sealing("mask", first=1, made=0)),
    (DUEL, "mid-rekey", sealing("rekey", first=1, made=0)),
    (DUEL, "mid-reveal", reveal),
    (DUEL, "mid-draw-commitments", draw_committed),
    (DUEL, "mid-draw-openings", draw_opened),
    (DUEL, "mid-pass", passing),
    (AUF_ACHSE, "mid-mask", sealing("mask")),
    (AUF_ACHSE, "mid-rekey", sealing("rekey")),
    (AUF_ACHSE, "mid-opening", opening),
    (AUF_ACHSE, "mid-reveal", reveal),
    (AUF_ACHSE, "mid-choice-commitments", choice_committed),
    (AUF_ACHSE, "mid-choice-openings", choice_opened),
    (AUF_ACHSE, "mid-next-stage", sealing("mask", first=1)),
]


def play_to(case: Case, t: Table, scenario: Scenario, limit: int = 3000) -> Still:
    """Start the game and play until the relay pauses where `scenario` says."""
    still: list[Still] = []

    def pause(to: int, msg: SealMessage) -> bool:
        found = scenario(t, to, msg)
        if found is not None:
            still.append(found)
        return found is not None

    t.pause = pause
    t.start()
    for _ in range(limit):
        if t.paused or t.host.outcome is not None:
            break
        movers = [s for s, seat in t.seats.items() if seat.legal_actions()]
        if not movers:
            break
        s = movers[0]
        t.send(s, t.seats[s].act(case.choose(t, t.seats[s].legal_actions())))
    assert t.paused and still, "the game never came to that step"
    return still[0]


def raise_alarm(t: Table, raiser: int) -> None:
    """`raiser` says the deck was tampered with, now: the host's bot through the host's own
    program, a player through its modified program (its secrets with it, as any seat's)."""
    if raiser in t.host.bots:
        claim = t.host.bots[raiser].sign(BROKEN, {}, 0)
        t.run(deque(t.host.receive(raiser, wire(claim))))
        return
    seat = t.seats[raiser]
    seat._said_broken = seat._published = True  # what it says, it says on its own
    secrets = seat.driver.sign("secrets", secrets_body(seat.driver), 0)
    t.send(raiser, [seat.driver.sign(BROKEN, {}, 0), secrets])


def check_named(t: Table, raiser: int) -> None:
    """Every honest program, the host's and each other seat's, names `raiser`, and it alone."""
    assert not t.queue and not t.paused
    assert t.host.claims == {raiser}
    assert set(t.host.secrets) == set(range(t.host.players))
    programs = [("host", t.host.finding)] + [
        (f"seat {s}", seat.finding) for s, seat in t.seats.items() if s != raiser
    ]
    for who, finding in programs:
        assert finding is not None, who
        assert (finding.seat, finding.kind) == (raiser, "false_alarm"), (who, finding)


def raisers(case: Case) -> list[int]:
    """The host's bot, and a player."""
    bot = next(s for s in range(case.players) if s not in case.humans)
    return [bot, case.humans[0]]


@pytest.mark.parametrize(
    ("case", "scenario", "raiser"),
    [
        pytest.param(case, scenario, raiser, id=f"{case.title}-{case.players}-{name}-{who}")
        for case, name, scenario in CASES
        for raiser, who in zip(raisers(case), ("bot", "player"), strict=True)
    ],
)
def test_a_false_alarm_in_the_middle_of_a_step_names_its_raiser_alone(
    case: Case, scenario: Scenario, raiser: int
) -> None:
    t = case.table()
    still = play_to(case, t, scenario)
    raise_alarm(t, raiser)
    check_named(t, raiser)
    # The step stayed half done: what came after the alarm was not relayed, and it was judged
    # as the alarm found it.
    assert still()


@pytest.mark.parametrize("case", [GLADIOLA, VELONIMO, DUEL], ids=lambda c: f"{c.title}-{c.players}")
@pytest.mark.parametrize("by", ["bot", "player"])
def test_a_false_alarm_while_a_card_play_is_on_its_way_names_its_raiser_alone(
    case: Case, by: str
) -> None:
    """A player plays a card (its move carries the card's scalar), and the alarm reaches the
    host first: the move is refused (the game stopped), its card shown to nobody, and the
    alarm's raiser alone is named."""
    t = case.table()
    bot, player = raisers(case)
    mover = case.humans[-1]
    raiser = bot if by == "bot" else player
    t.start()
    for _ in range(3000):
        legal = t.seats[mover].legal_actions()
        shown = [a for a in legal if t.host.engine.shows(a)]
        if shown:
            break
        s = next(s for s, seat in t.seats.items() if seat.legal_actions())
        t.send(s, t.seats[s].act(case.choose(t, t.seats[s].legal_actions())))
    assert shown, "the player never had a card to play"
    (move,) = t.seats[mover].act(t.rng.choice(shown))
    assert isinstance(move, SealAct) and move.reveal
    moves = len(t.host.actions)
    revealed = {n: dict(r.revealed) for n, r in t.host.relay.rounds.items()}
    raise_alarm(t, raiser)
    if raiser != mover:
        with pytest.raises(GameError):
            t.send(mover, [move])
    check_named(t, raiser)
    assert len(t.host.actions) == moves
    assert {n: dict(r.revealed) for n, r in t.host.relay.rounds.items()} == revealed


def test_a_round_a_host_begins_after_the_alarm_is_held_against_no_seat() -> None:
    """A modified host has its bot say the deck is broken just as the game asks for a new round
    (a reshuffle), shows the alarm to every player before the round's setup, and relays the
    round on as if nothing was said. Every player has published its secrets by then, without
    that round's: a player that took part would have sealed a round its secrets do not hold,
    and every audit would name it for withholding them. A stopped seat signs nothing more than
    its alarm and its secrets, so the round is never sealed, and is judged against nobody."""
    case = Case("via_gladiola", 3, (0, 2), lazy=True)
    t = case.table()

    def reshuffle(t: Table, to: int, msg: SealMessage) -> Still | None:
        return (lambda: True) if isinstance(msg, SealRound) and msg.round >= 1 else None

    play_to(case, t, reshuffle)
    number = t.host.relay.round_no
    assert number is not None and number >= 1
    bot = 1
    claim = t.host.bots[bot].sign(BROKEN, {}, 0)
    published = {}
    for s, seat in t.seats.items():  # the alarm, to every player before the round's setup
        replies = seat.receive(wire(claim))
        assert [m.kind for m in replies if isinstance(m, SealStep)] == ["secrets"]
        published[s] = replies
    t.run(deque())  # the round's setup reaches the players, who make no step of it
    assert t.host.relay.rounds[number].round.masked == []
    # The host takes its bot's alarm only now; its bots' secrets go to every player.
    out = t.host.receive(bot, wire(claim))
    t.run(deque((to, m) for to, m in out if not (isinstance(m, SealStep) and m.kind == BROKEN)))
    for s, replies in published.items():
        t.send(s, replies)
    check_named(t, bot)
