"""A modified host over real loopback sockets: its bot, masking first, plants tracers (elements
of known ratio to other cards') in its mask step, and its relay and other bot check nothing.
The players' programs are the honest ones: each refuses that step at once (its proof fails),
names the bot's seat, and never sends a scalar, so no card of the round is opened to anyone.
(tests/protocol/test_sealed_proof_attacks.py plays the same and the other cheats at every
title and 2 to 5 seats in memory.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from protocol.sealed.deck import OWN, SealedRound
from protocol.sealed.group import mul
from protocol.sealed.messages import SealMessage, SealStep
from protocol.sealed.round_driver import RelayDriver, RelayRound, SeatDriver
from protocol.sealed.signing import Step
from protocol.sealed_play.host import SealedHost
from tests.network.test_sealed_table import sealed_game

TRACER = 0
"""The host's bot that masks first."""


def modified(host: SealedHost) -> None:
    """The host's program as a cheat would run it."""
    bot = host.bots[TRACER]
    honest_turn = bot._my_turn

    def planting(number: int) -> list[SealMessage]:
        out: list[SealMessage] = []
        for msg in honest_turn(number):
            if isinstance(msg, SealStep) and msg.kind == "mask":
                y = list(msg.body["elements"])
                y[0], y[2] = mul(y[1], 0x7ACE), mul(y[3], 0xF00D)
                out.append(bot.sign("mask", {**msg.body, "elements": y}, number))
            else:
                out.append(msg)
        return out

    bot._my_turn = planting  # type: ignore[method-assign]
    for other in host.bots.values():
        other._own = lambda signed: True  # type: ignore[method-assign]  # checks nothing
    relay: RelayDriver = host.relay
    honest_check = relay._check

    def unchecked(sender: int, kept: RelayRound, step: Step, made_here: bool) -> None:
        if step.kind in ("mask", "rekey") and sender in host.bots:
            take = SealedRound.on_mask if step.kind == "mask" else SealedRound.on_rekey
            take(kept.round, sender, step.body, OWN)
            return
        honest_check(sender, kept, step, made_here)

    relay._check = unchecked  # type: ignore[method-assign]


async def test_a_host_whose_bot_plants_tracers_is_named_by_the_players_and_opens_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    honest_init = SealedHost.__init__

    def init(self: SealedHost, *args: Any, **kwargs: Any) -> None:
        honest_init(self, *args, **kwargs)
        modified(self)

    monkeypatch.setattr(SealedHost, "__init__", init)
    sent: list[tuple[int, SealMessage]] = []
    honest_receive = SeatDriver.receive

    def receive(self: SeatDriver, msg: SealMessage) -> list[SealMessage]:
        replies = honest_receive(self, msg)
        sent.extend((self.seat, r) for r in replies)
        return replies

    monkeypatch.setattr(SeatDriver, "receive", receive)
    _, server, clients = await sealed_game(tmp_path, 4, bots=[TRACER, 3], within=60)
    assert len(clients) == 2
    for c in clients:
        assert c.sealed_verdict is not None
        assert c.sealed_verdict.startswith(f"deal NOT verified: seat {TRACER + 1}: bad_proof")
        assert c.sealed is not None
        assert not any(r.hand for r in c.sealed.driver.rounds.values())
    players = {c.sealed.seat for c in clients if c.sealed is not None}
    from_players = [m for seat, m in sent if seat in players]
    assert not [m for m in from_players if isinstance(m, SealStep)], "no player made a step"
    # ... and the host never got a scalar of anyone's: nothing was opened.
    host = server.session.sealed_host
    assert host is not None
    assert not any(r.round.scalars for r in host.relay.rounds.values())
