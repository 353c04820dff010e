"""A player whose host cheats at the deal is told so in the app, loudly, before a card is played.

The host is the cheating host of the network tests (a new secret part picked after the players
revealed theirs); the player is the real app, joining over loopback as a person does."""

from __future__ import annotations

import os
from typing import Any

import pytest

from netcards.table import Table
from protocol.host import HostSettings
from protocol.identity import IdentityKey
from tests.network.test_fair_deal import Cheat
from tests.ui.pilots import screen_text, wait_until
from ui.app import JoinPlan, make_app
from ui.user_settings import UserSettings


def words(pilot: Any) -> str:
    return " ".join(screen_text(pilot.app).replace("█", " ").split())


@pytest.mark.parametrize("cheat", ["late_host_part", "honest"])
async def test_the_app_leaves_a_deal_the_host_chose_and_says_why(cheat: str) -> None:
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=os.urandom(32))
    table.add_bot("random", 1)
    host = Cheat(
        table,
        IdentityKey.generate(os.urandom),
        settings=HostSettings(pledge_timeout=20, contribute_timeout=20),
    )
    host.cheat = cheat
    port = await host.start("127.0.0.1", 0)
    app = make_app(settings=UserSettings(name="Ann"), join=JoinPlan(f"127.0.0.1:{port}"))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: type(app.screen).__name__ == "Confirm", 30)
            await pilot.press("y")
            await wait_until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen", 30)
            await pilot.press("r")
            if cheat == "honest":
                await wait_until(pilot, lambda: table.phase == "playing", 30)
                await pilot.pause(0.5)
                assert "fair deal" not in words(pilot)
                assert app.session is not None and app.session.client.verdict is None
                return
            await wait_until(pilot, lambda: "broke the rules of the fair deal" in words(pilot), 30)
            text = words(pilot)
            assert "deal NOT verified" in text, text
            assert "the host's commitment" in text or "commit" in text, text
            assert type(app.screen).__name__ == "Notice"
            assert all(seat != 0 for seat, _ in table.actions), "the app played no card of it"
    finally:
        await host.close()


async def test_the_app_leaves_a_table_that_said_sealed_and_deals_as_a_trusted_dealer() -> None:
    """The host's lobby says sealed, its deal is classic: the player reads why, loudly, in the
    lobby it was in, and no pledge of theirs reached the host."""
    from protocol.messages import Contribute, Pledge
    from tests.network.test_sealed_announced import Announcing, AnnouncingHost

    table = Table.create("via-gladiola", 2, {}, name="t", host_part=os.urandom(32))
    table.add_bot("random", 1)
    host = AnnouncingHost(table, IdentityKey.generate(os.urandom), settings=HostSettings())
    session = host.session
    assert isinstance(session, Announcing)
    session.lobby_says = True
    port = await host.start("127.0.0.1", 0)
    app = make_app(settings=UserSettings(name="Ann"), join=JoinPlan(f"127.0.0.1:{port}"))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: type(app.screen).__name__ == "Confirm", 30)
            await pilot.press("y")
            await wait_until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen", 30)
            await wait_until(pilot, lambda: "Sealed table" in words(pilot), 10)
            await pilot.press("r")
            await wait_until(
                pilot, lambda: "does not deal the way its table said" in words(pilot), 30
            )
            text = words(pilot)
            assert "the table said sealed but deals as a trusted dealer" in text, text
            assert type(app.screen).__name__ == "Notice"
            assert not [m for m in session.heard if isinstance(m, Pledge | Contribute)]
    finally:
        await host.close()


async def test_the_app_stops_a_sealed_game_whose_deck_was_tampered_with_and_says_who(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The host's bot at seat 2 doubles every element of its mask step: the player's program
    finds the step's proof false and refuses it before any card is opened, the game stops, and
    the app says, loudly, that it caught a cheat, and whose it was."""
    from protocol.host import TableHost
    from protocol.sealed.messages import SealMessage
    from protocol.sealed.round_driver import SeatDriver
    from tests.protocol.test_sealed_broken_deck import doubled

    honest_turn = SeatDriver._my_turn

    def doubling(self: SeatDriver, number: int) -> list[SealMessage]:
        out = honest_turn(self, number)
        return out if self.seat != 1 else [doubled(self, m) for m in out]

    monkeypatch.setattr(SeatDriver, "_my_turn", doubling)
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=os.urandom(32), sealed=True)
    table.add_bot("random", 1)
    host = TableHost(table, IdentityKey.generate(os.urandom), settings=HostSettings())
    port = await host.start("127.0.0.1", 0)
    app = make_app(settings=UserSettings(name="Ann"), join=JoinPlan(f"127.0.0.1:{port}"))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: type(app.screen).__name__ == "Confirm", 30)
            await pilot.press("y")
            await wait_until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen", 30)
            await pilot.press("r")
            await wait_until(pilot, lambda: "caught a cheat" in words(pilot), 30)
            text = words(pilot)
            assert "deal NOT verified: seat 2:" in text, text
            assert "fair deal" not in text, text
            assert type(app.screen).__name__ == "Notice"
            assert table.actions == [], "nobody played a card of the tampered deck"
    finally:
        await host.close()
