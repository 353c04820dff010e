"""A player's program that tampers with its shuffle at a sealed table over real loopback
sockets: its step fails its proof, the host shows it to every player, every program names the
cheat at once and nothing is opened. Had the proofs missed it (switched off here: `unproved`),
the deck would be found broken as soon as the hands are opened, the game would stop, every
seat (the host's bot too) would publish its secrets, and every program's audit would name the
cheat."""

from __future__ import annotations

from pathlib import Path

import pytest

from protocol.sealed.messages import SealMessage
from protocol.sealed.round_driver import SeatDriver
from tests.network.test_sealed_table import sealed_game
from tests.protocol.test_sealed_broken_deck import doubled
from tests.protocol.unproved import unproved

__all__ = ["unproved"]  # the fixture

CHEAT = 0


def doubling(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 0's program doubles every element of its mask steps: no card of the deck."""
    honest_turn = SeatDriver._my_turn

    def turn(self: SeatDriver, number: int) -> list[SealMessage]:
        out = honest_turn(self, number)
        return out if self.seat != CHEAT else [doubled(self, m) for m in out]

    monkeypatch.setattr(SeatDriver, "_my_turn", turn)


async def test_a_player_whose_shuffle_fails_its_proof_is_named_by_every_program_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doubling(monkeypatch)
    table, server, clients = await sealed_game(tmp_path, 3, bots=[2], within=60, unawaited=[CHEAT])
    named = f"deal NOT verified: seat {CHEAT + 1}: bad_proof"
    for c in clients:
        assert c.sealed is not None and c.sealed.actions == []
        assert not any(r.hand for r in c.sealed.driver.rounds.values())
        if c.sealed.seat != CHEAT:  # the cheat's own program takes its step as it made it
            assert c.sealed_verdict is not None and c.sealed_verdict.startswith(named)
    host = server.session.sealed_host
    assert host is not None and host.actions == [] and not host.claims
    assert host.finding is not None and (host.finding.seat, host.finding.kind) == (
        CHEAT,
        "bad_proof",
    )
    assert table.phase == "over"


@pytest.mark.usefixtures("unproved")
async def test_a_player_that_tampers_with_its_shuffle_is_named_by_every_program(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doubling(monkeypatch)
    table, server, clients = await sealed_game(tmp_path, 3, bots=[2], within=60)
    named = f"deal NOT verified: seat {CHEAT + 1}:"
    for c in clients:
        assert c.sealed_verdict is not None and c.sealed_verdict.startswith(named)
        assert c.sealed is not None and c.sealed.broken and c.sealed.actions == []
    host = server.session.sealed_host
    assert host is not None and host.claims and host.actions == []
    assert host.finding is not None and host.finding.seat == CHEAT
    assert set(host.secrets) == {0, 1, 2}  # the host's bot published its secrets too
    assert table.phase == "over"
