"""A modified host against honest players, at every title and at 2 to 5 seats: its bots sign
what they like and its relay relays it unchecked. Every sealing step carries its proof, so
every cheat is refused at the step where it is made, before any card of the round is opened
to anyone, and every honest program names the seat that signed it.

The cheats are the ones a host could otherwise profit from. The tracer: its bot, masking
first, replaces elements of its output with multiples of other elements by factors it knows;
every honest mask after it multiplies all elements by one scalar, so the ratios survive, and
once the deck is sealed the host would find the traced cards (its bot masking last could even
put them in a player's hand). And a substituted, duplicated or dropped element, and a re-key
that changes a position's card."""

from __future__ import annotations

import contextlib
import dataclasses
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from netcards.registry import get_game
from netcards.sealed_game import sealed_engine
from protocol.sealed import rekey_proof, shuffle_proof
from protocol.sealed.challenge import list_digest
from protocol.sealed.deck import SealedRound
from protocol.sealed.errors import Caught, Finding
from protocol.sealed.group import hash_to_group, mul
from protocol.sealed.messages import SealMessage, SealStep
from protocol.sealed.round_driver import SeatDriver
from protocol.sealed.shuffle import mask_body
from protocol.sealed.shuffle_proof import Context
from protocol.sealed_play.progress import HOST
from tests.protocol.sealed_table import stream
from tests.protocol.test_sealed_game_wire import Table, wire

Body = dict[str, Any]
Cheat = Callable[[str, Body], Body | None]
"""(step kind, honest body) -> the body the modified bot signs instead (None: honest)."""


@contextlib.contextmanager
def unchecked() -> Iterator[None]:
    """The modified host's program: it checks no proof and no list (its relay and its bots
    alike): whatever its bots sign, it records and relays."""
    saved = shuffle_proof.verify, rekey_proof.verify, SealedRound._check_list
    shuffle_proof.verify = rekey_proof.verify = lambda *args: None  # type: ignore[assignment]
    SealedRound._check_list = lambda self, seat, phase, elements: tuple(elements)  # type: ignore[method-assign]
    try:
        yield
    finally:
        shuffle_proof.verify, rekey_proof.verify, SealedRound._check_list = saved  # type: ignore[method-assign]


class ModifiedHost:
    """`Table`'s host with its checks taken out and a bot that cheats; the players' programs
    are honest. Each player's program stops at the first `Caught` (its finding is its verdict,
    as `client_sealed` makes it), the others go on."""

    def __init__(self, title: str, players: int, humans: list[int], seed: int = 1) -> None:
        config = get_game(title).make_config(players, {})
        self.table = Table(players, humans, seed, engine=sealed_engine(title), config=config)
        self.findings: dict[int, Finding] = {}
        self.sent: list[tuple[int, SealMessage]] = []
        """Every message a player's program sent the host."""

    def cheat(self, bot: int, how: Cheat) -> None:
        driver = self.table.host.bots[bot]
        honest = driver._my_turn

        def my_turn(number: int) -> list[SealMessage]:
            out: list[SealMessage] = []
            for msg in honest(number):
                assert isinstance(msg, SealStep)
                body = how(msg.kind, dict(msg.body))
                out.append(msg if body is None else driver.sign(msg.kind, body, number))
            return out

        driver._my_turn = my_turn  # type: ignore[method-assign]

    def host(self, call: Callable[[], list[Any]]) -> list[Any]:
        with unchecked():
            return call()

    def start(self) -> None:
        table = self.table
        for s, seat in table.seats.items():
            msg = seat.hello()
            self.host(lambda s=s, msg=msg: table.host.receive(s, wire(msg)))  # type: ignore[misc]
        queue = deque(self.host(table.host.start))
        while queue:
            to, msg = queue.popleft()
            if to in self.findings:
                continue  # that program stopped
            try:
                replies = table.seats[to].receive(wire(table.tamper(to, msg)))
            except Caught as exc:
                self.findings[to] = exc.finding
                continue
            for reply in replies:
                self.sent.append((to, reply))
                queue.extend(self.host(lambda to=to, r=reply: table.host.receive(to, wire(r))))  # type: ignore[misc]

    def opened_nothing(self) -> bool:
        """No player sent a scalar or a reveal, so no position of any round was opened to
        anyone (an opening needs every other seat's scalar), and no player knows a card."""
        steps = [m.kind for _, m in self.sent if isinstance(m, SealStep)]
        hands = [r.hand for seat in self.table.seats.values() for r in seat.driver.rounds.values()]
        return not {"scalars", "reveal"} & set(steps) and not any(hands)


TITLES = ("via-gladiola", "velonimo", "auf-achse")
SEATINGS = [(title, n) for title in TITLES for n in (2, 3, 4, 5)]


def humans_between(players: int) -> list[int]:
    """The host's bots mask first and last; the players sit between (at 2, seat 1)."""
    return list(range(1, players - 1)) or [1]


def tracer(kind: str, body: Body) -> Body | None:
    """Its bot's first mask step, elements 0 and 2 replaced by elements 1 and 3 times factors
    it knows: after every honest seat's mask the pairs keep their ratios."""
    if kind != "mask":
        return None
    y = list(body["elements"])
    y[0], y[2] = mul(y[1], 0x7ACE), mul(y[3], 0xF00D)
    return {**body, "elements": y}


def substituted(kind: str, body: Body) -> Body | None:
    if kind != "mask":
        return None
    return {**body, "elements": [mul(hash_to_group(b"a card of mine"), 3), *body["elements"][1:]]}


def duplicated(kind: str, body: Body) -> Body | None:
    if kind != "mask":
        return None
    y = list(body["elements"])
    return {**body, "elements": [y[1], *y[1:]]}


def dropped(kind: str, body: Body) -> Body | None:
    if kind != "mask":
        return None
    return {**body, "elements": list(body["elements"])[:-1]}


def wrong_rekey(kind: str, body: Body) -> Body | None:
    """Its bot's re-key puts position 1's element, times 2, at position 0."""
    if kind != "rekey":
        return None
    y = list(body["elements"])
    return {**body, "elements": [mul(y[1], 2), *y[1:]]}


def assert_named(host: ModifiedHost, seat: int, kind: str) -> None:
    humans = set(host.table.seats)
    assert set(host.findings) == humans, "every player's program stopped"
    for finding in host.findings.values():
        assert (finding.seat, finding.kind) == (seat, kind), finding
    assert host.opened_nothing()


@pytest.mark.parametrize(("title", "players"), SEATINGS)
def test_a_host_whose_first_bot_plants_tracers_is_refused_at_that_step(
    title: str, players: int
) -> None:
    host = ModifiedHost(title, players, humans_between(players))
    host.cheat(0, tracer)
    if players > 2:
        host.cheat(players - 1, wrong_rekey)  # its last bot would then place them
    host.start()
    assert_named(host, 0, "bad_proof")
    # No player made a step after the bot's: the tracer never went through an honest mask.
    assert not [m for _, m in host.sent if isinstance(m, SealStep)]


@pytest.mark.parametrize(
    ("cheat", "kind"),
    [(substituted, "bad_proof"), (duplicated, "duplicated"), (dropped, "malformed")],
    ids=["substituted", "duplicated", "dropped"],
)
@pytest.mark.parametrize(
    ("title", "players"), [("via-gladiola", 2), ("velonimo", 4), ("auf-achse", 5)]
)
def test_a_bot_s_altered_mask_step_is_refused_and_its_seat_named(
    cheat: Cheat, kind: str, title: str, players: int
) -> None:
    host = ModifiedHost(title, players, humans_between(players))
    host.cheat(0, cheat)
    host.start()
    assert_named(host, 0, kind)


@pytest.mark.parametrize(("title", "players"), SEATINGS)
def test_a_bot_s_wrong_rekey_is_refused_before_any_card_is_opened(title: str, players: int) -> None:
    """The last seat to re-key is the host's bot: every player made its own steps, then the
    bot's re-key fails its proof and nobody sends a scalar."""
    last = players - 1 if players > 2 else 0
    host = ModifiedHost(title, players, humans_between(players))
    host.cheat(last, wrong_rekey)
    host.start()
    assert_named(host, last, "bad_proof")


def test_a_host_that_shows_two_players_two_proved_shuffles_is_named_not_a_player() -> None:
    """The host's bot signs two mask steps, each with a true proof (two permutations of the
    same input), and shows seat 1 one and seat 2 the other. Seat 1 masks what it was shown;
    seat 2 holds the other list, so seat 1's step says (its signed `input`) it was made from
    another list than seat 2's: seat 2 names the host at once, and nobody names a player."""
    host = ModifiedHost("via-gladiola", 3, [1, 2])
    table = host.table
    bot: SeatDriver = table.host.bots[0]

    def other_shuffle(to: int, msg: SealMessage) -> SealMessage:
        if to == 2 and isinstance(msg, SealStep) and msg.kind == "mask" and msg.seat == 0:
            secrets = bot.rounds[0].secrets
            perm = secrets.permutation[1:] + secrets.permutation[:1]
            other = dataclasses.replace(secrets, permutation=perm)
            start = bot.rounds[0].round.start
            ctx = Context(b"table", 0, 0, list_digest(start))
            body = mask_body(ctx, start, other, stream(b"again"))
            return bot.sign("mask", body, 0)
        return msg

    table.tamper = other_shuffle
    host.start()
    assert host.findings.get(2) is not None
    assert (host.findings[2].seat, host.findings[2].kind) == (HOST, "wrong_input")
    assert all(f.seat == HOST for f in host.findings.values())
    assert host.opened_nothing()


def test_the_honest_table_of_the_same_harness_opens_every_hand() -> None:
    """The harness itself lets an honest game through: the refusals above are the cheats'."""
    host = ModifiedHost("via-gladiola", 3, [1])
    host.start()
    assert host.findings == {}
    assert not host.opened_nothing()
    assert all(seat.driver.hand_known for seat in host.table.seats.values())
