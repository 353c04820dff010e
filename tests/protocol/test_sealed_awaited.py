"""Whom a sealed table waits for (`protocol/sealed_play/awaited.py`), sans-IO: a seat whose
program falls silent at its first step of one kind (every kind of step a seat sends unasked
by a move, in the titles that have it) stalls the game, and every program, the host and each
seat, works out from its own state that the table waits for that seat and that step; the
silent seat's own program says it waits for the host to relay the step it sent. The words a
bot and a closed table's verdict use name the seat by name and number, and the step."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

import pytest

from netcards.games.velonimo.rules import Velonimo
from netcards.games.velonimo.sealed import SealedVelonimo
from protocol.sealed.messages import SealMessage, SealStep
from protocol.sealed.round_driver import Outgoing
from protocol.sealed_play import awaited as waiting
from protocol.sealed_play.awaited import Awaited, Wait, closing_reasons, waits
from protocol.sealed_play.choices import CHOICE
from protocol.sealed_play.progress import HOST
from tests.protocol import test_sealed_game_choices as auf_achse
from tests.protocol import test_sealed_game_wire as harness

NAMES = ("Ann", "Bob", "Cy")


class SilentTable(harness.Table):
    """Three players' programs and the host's; the first seat about to send a step of `kind`
    falls silent from there: neither that step nor anything after it reaches the host."""

    def __init__(self, title: str, kind: str, seed: int = 3, players: int = 3) -> None:
        humans = list(range(players))
        if title == "velonimo":
            config = Velonimo().make_config(players, {"difficulties": [1, 2]})
            super().__init__(players, humans, seed, engine=SealedVelonimo(), config=config)
        elif title == "auf-achse":
            config = auf_achse.GAME.make_config(players, {"deck": auf_achse.FAST})
            super().__init__(players, humans, seed, engine=auf_achse.ENGINE, config=config)
        else:
            super().__init__(players, humans, seed)
        self.kind = kind
        self.silent: int | None = None
        self.withheld: SealStep | None = None

    def _pass(
        self, seat: int, msgs: Sequence[SealMessage], answers: bool = True
    ) -> list[SealMessage]:
        """What of `msgs` reaches the host; `answers`: they answer the host's messages (a
        move's own reveal step, which comes with the move, is no step the table waits on)."""
        if self.silent is None and answers:
            for msg in msgs:
                if isinstance(msg, SealStep) and msg.kind == self.kind:
                    self.silent, self.withheld = seat, msg
                    break
        if seat != self.silent:
            return list(msgs)
        if self.withheld is not None and self.withheld in msgs:
            return list(msgs[: list(msgs).index(self.withheld)])
        return []

    def send(self, seat: int, msgs: Sequence[SealMessage]) -> None:
        super().send(seat, self._pass(seat, msgs, answers=False))

    def run(self, queue: deque[Outgoing]) -> None:
        while queue:
            to, msg = queue.popleft()
            for reply in self._pass(to, self.seats[to].receive(harness.wire(msg))):
                self.to_host.append((to, harness.wire(reply)))
                queue.extend(self.host.receive(to, harness.wire(reply)))

    def stall(self, limit: int = 3000) -> None:
        """Play random moves until the table stalls on the silent seat (or the game ends)."""
        self.start()
        for _ in range(limit):
            if self.host.outcome is not None and self.silent is None:
                return
            movers = [
                s for s, seat in self.seats.items() if s != self.silent and seat.legal_actions()
            ]
            if not movers:
                return
            s = movers[0]
            self.send(s, self.seats[s].act(self.rng.choice(self.seats[s].legal_actions())))


KINDS = [
    ("via-gladiola", "mask", 3),
    ("via-gladiola", "rekey", 3),
    ("via-gladiola", "scalars", 3),
    ("via-gladiola", "reveal", 3),
    ("via-gladiola", "secrets", 3),
    ("velonimo", "scalars", 3),
    ("velonimo", "reveal", 2),  # the duel's reward, shown to everyone
    ("velonimo", "draw_commit", 3),
    ("velonimo", "draw_open", 3),
    ("velonimo", "pass_key", 3),
    ("velonimo", "pass", 3),
    ("velonimo", "secrets", 3),
    ("auf-achse", "mask", 3),
    ("auf-achse", "reveal", 3),
    ("auf-achse", CHOICE, 3),
    ("auf-achse", "secrets", 3),
]


@pytest.mark.parametrize(
    ("title", "kind", "players"), KINDS, ids=[f"{t}-{k}-{n}" for t, k, n in KINDS]
)
def test_every_program_names_the_silent_seat_and_its_step(
    title: str, kind: str, players: int
) -> None:
    table = SilentTable(title, kind, players=players)
    table.stall()
    silent, withheld = table.silent, table.withheld
    assert silent is not None and withheld is not None, f"no {kind} step was ever due"
    to = withheld.body.get("to") if kind in ("scalars", "pass") else None
    expected = Awaited(silent, kind, to)
    found = {"host": table.host.awaited()}
    found.update({f"seat {s}": seat.awaited() for s, seat in table.seats.items()})
    for who, awaited in found.items():
        assert expected in awaited, (who, awaited)
        assert all(a.seat == silent for a in awaited), (who, awaited)
    # Each other program's words: the silent seat by name and number, and its step.
    for s in table.seats:
        if s == silent:
            # Its own step went out: its program waits for the host to relay it.
            assert waits(found[f"seat {s}"], s) == [Wait((), "relay")]
            continue
        said = waiting.waiting_words(found[f"seat {s}"], NAMES, s).split("; ")
        label = f"{NAMES[silent]} (seat {silent + 1})"
        assert all(phrase.startswith(f"waiting for {label} to ") for phrase in said), said
        whom = "" if to is None else f"{NAMES[to]} (seat {to + 1})"
        assert f"waiting for {label} " + waiting.STEP_WORDS[kind].format(to=whom) in said
    # Nobody can move while the table waits: no seat is asked to act.
    assert not any(seat.legal_actions() for seat in table.seats.values())


def test_an_honest_game_ends_awaiting_nobody() -> None:
    table = harness.Table(3, [0, 2])
    table.start()
    table.play()
    assert table.host.awaited() == ()
    assert all(seat.awaited() == () for seat in table.seats.values())


def test_before_the_first_round_the_host_awaits_the_seats_keys() -> None:
    table = harness.Table(3, [0, 2])
    assert table.host.awaited() == (Awaited(0, "key"), Awaited(2, "key"))
    table.send(0, [table.seats[0].hello()])
    assert table.host.awaited() == (Awaited(2, "key"),)
    # A seat cannot see the others' keys: it waits for the host to begin the first round.
    assert waits(table.seats[0].awaited(), 0) == [Wait((), "round")]


def test_a_closed_table_names_the_seat_it_waited_for_and_the_step() -> None:
    found = (Awaited(1, "mask"),)
    reasons = closing_reasons(found, NAMES, 0, away=set(), published=set())
    assert reasons == ["the table closed while waiting for Bob (seat 2) to shuffle the cards"]
    # A seat that left and is named already is not named twice; another that left is.
    reasons = closing_reasons(found, NAMES, 0, away={1, 2}, published=set())
    assert reasons == [
        "the table closed while waiting for Bob (seat 2) to shuffle the cards",
        "seat 3 (Cy) left before publishing its secrets",
    ]
    # Several seats awaited for one step are named in one phrase, the cards' owner too.
    found = (Awaited(1, "scalars", 0), Awaited(2, "scalars", 0))
    assert closing_reasons(found, NAMES, None, (), ()) == [
        "the table closed while waiting for Bob (seat 2) and Cy (seat 3) to open the cards "
        "dealt to Ann (seat 1)"
    ]
    assert closing_reasons((), NAMES, 0, (), ()) == [
        "the game ended before every seat published its secrets"
    ]
    # Its own step not relayed: this program waits for the host.
    assert closing_reasons((Awaited(0, "secrets"),), NAMES, 0, (), ()) == [
        "the table closed while waiting for the host to relay the step of Ann (seat 1)"
    ]


@pytest.mark.parametrize(
    "data",
    [
        "mask",
        [{"seat": 9, "step": "mask"}],
        [{"seat": 1, "step": "peek"}],
        [{"seat": 1, "step": "scalars"}],
        [{"seat": 1, "step": "mask", "to": 0}],
        [{"seat": HOST, "step": "mask"}],
        [{"seat": 1, "step": "round"}],
        [{"seat": 1, "step": "mask", "extra": 1}],
        [{"seat": True, "step": "mask"}],
    ],
)
def test_a_spectator_refuses_a_wait_that_is_no_wait(data: Any) -> None:
    assert waiting.from_data(data, 3) is None


def test_a_spectator_reads_back_what_the_host_said() -> None:
    found = (Awaited(1, "scalars", 0), Awaited(HOST, "show"), Awaited(2, "mask"))
    assert waiting.from_data(waiting.to_data(found), 3) == found


def test_random_games_stall_only_on_a_silent_seat() -> None:
    """With nobody silent, whenever every message has arrived and nobody may move, the game is
    over and checked: a table never waits on a step nobody is awaited for."""
    for seed in range(3):
        table = SilentTable("velonimo", "no such step", seed=seed)
        table.stall()
        assert table.silent is None
        assert table.host.outcome is not None and table.host.verdict == "deal verified"


def test_after_an_alarm_every_program_waits_for_the_secrets_of_the_seat_that_holds_them() -> None:
    """A seat says the deck is broken mid-game: every seat is to publish its secrets, and a
    seat that withholds them is the one every program waits for (nothing else, no move)."""
    table = SilentTable("via-gladiola", "secrets")
    table.start()
    for _ in range(4):  # a few moves in, then seat 2 raises the alarm
        s = next(s for s, seat in table.seats.items() if seat.legal_actions())
        table.send(s, table.seats[s].act(table.rng.choice(table.seats[s].legal_actions())))
    assert table.silent is None and table.host.outcome is None
    table.send(2, [table.seats[2].driver.sign("broken", {}, 0)])
    silent = table.silent
    assert silent is not None and table.host.claims == {2}
    expected = (Awaited(silent, "secrets"),)
    assert table.host.awaited() == expected
    for s, seat in table.seats.items():
        assert seat.awaited() == expected, s
        assert not seat.legal_actions()
