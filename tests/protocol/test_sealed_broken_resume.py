"""A host that crashed while a broken deck's secrets were coming in resumes from its journal
(every message it accepted, replayed through a fresh `SealedHost`): its relay transcript and
every seat's history come out the same, a seat rebuilt from its seed publishes the very
secrets the crash lost, the exact repeats of what the host had are ignored, and every program
names the same seat."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from netcards.games.via_gladiola import GAME
from protocol.sealed.messages import SealMessage, SealStep, encode
from protocol.sealed_play.host import SealedHost
from protocol.sealed_play.memory import SealedMemory
from protocol.sealed_play.seat import SealedSeat
from tests.protocol.sealed_table import stream
from tests.protocol.test_sealed_broken_deck import doubling_masks
from tests.protocol.test_sealed_game_wire import ENGINE, SEED, Table, bot, wire
from tests.protocol.unproved import unproved

__all__ = ["unproved"]  # the fixture

LOST = 2
"""The seat whose secrets the crash lost."""


@pytest.mark.usefixtures("unproved")
def test_a_host_resumed_mid_audit_of_a_broken_deck_ends_with_the_same_verdict() -> None:
    table = Table(3, [1, 2], seed=4)
    doubling_masks(table.seats[1])
    lost: list[SealMessage] = []

    def crash_before_secrets(to: int, replies: list[SealMessage]) -> list[SealMessage]:
        kept = [m for m in replies if not (isinstance(m, SealStep) and m.kind == "secrets")]
        lost.extend(m for m in replies if m not in kept)
        return kept

    receive = table.seats[LOST].receive
    table.seats[LOST].receive = lambda msg: crash_before_secrets(LOST, receive(msg))  # type: ignore[method-assign]
    table.start()
    assert table.host.claims and set(table.host.secrets) == {0, 1} and lost
    assert table.host.verdict is None
    # The resumed host replays its journal, as `resume_sealed` does.
    memory = SealedMemory()
    resumed = SealedHost(
        ENGINE, GAME.make_config(3, {}), SEED, b"table", b"game 1", {0: bot(random.Random(4))},
        stream(b"host 4"),
    )  # fmt: skip
    sent: dict[int, list[SealMessage]] = defaultdict(list)
    for seat, msg in table.to_host:
        out = resumed.receive(seat, msg)
        memory.accepted(seat, msg)
        if not resumed.started and resumed.ready_to_start():
            out += resumed.start()
        for to, m in out:
            sent[to].append(m)
    assert resumed.relay.transcript.digest == table.host.relay.transcript.digest
    assert resumed.claims == table.host.claims and set(resumed.secrets) == {0, 1}
    # The seat comes back, rebuilt from its seed, and replays the history the resumed host kept.
    seat = SealedSeat(ENGINE, GAME.make_config(3, {}), SEED, LOST, stream(b"seat 2 4"))
    seat.remember(table.seats[LOST])
    replies = [r for m in sent[LOST] for r in seat.receive(wire(m))]
    secrets = [r for r in replies if isinstance(r, SealStep) and r.kind == "secrets"]
    assert [encode(s) for s in secrets] == [encode(s) for s in lost]
    for reply in replies:
        if memory.repeat(LOST, wire(reply)):
            continue  # signed again as before: nothing new
        for to, m in resumed.receive(LOST, wire(reply)):
            (seat if to == LOST else table.seats[to]).receive(wire(m))
    cheat = "deal NOT verified: seat 2: "
    verdicts = [resumed.verdict, seat.verdict, table.seats[1].verdict]
    assert all(v is not None and v.startswith(cheat) for v in verdicts), verdicts
