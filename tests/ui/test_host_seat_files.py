"""The host's own seat files: kept at every address its lobby shows (so that `netcards join`
takes the seat back after a crash and `host --resume`, whichever address is used), and
forgotten at every one of them when the table closes, not only at the first."""

from __future__ import annotations

from typing import Any

import pytest

from protocol.seat_tokens import SeatTokens
from protocol.settings import data_dir
from tests.ui.pilots import wait_until
from ui.app import make_app
from ui.session import TablePlan
from ui.user_settings import UserSettings


async def test_the_host_s_seat_files_go_from_every_address_they_were_kept_at(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("ui.session.lan_addresses", lambda bind: ["192.0.2.10", "198.51.100.7"])
    plan = TablePlan("via-gladiola", 2, {}, bind="127.0.0.1", port=0, discovery=False, bots=1)
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False, host=plan)
    tokens = SeatTokens(data_dir() / "seats")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen", 15)
        session: Any = app.session
        await wait_until(pilot, lambda: session.client.lobby is not None, 15)
        await pilot.press("r")
        await wait_until(pilot, lambda: session.client.game is not None, 15)
        addresses = app.seat_addresses(session)
        assert len(addresses) == 3 and addresses[1].startswith("192.0.2.10:")
        await wait_until(pilot, lambda: all(tokens.load(a, "Ann") for a in addresses), 5)
        assert all(tokens.load_deal(a, "Ann") is not None for a in addresses)
        await pilot.press("escape")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "Confirm", 5)
        await pilot.press("y")  # the host leaves: the table closes for everyone
        await wait_until(pilot, lambda: all(tokens.load(a, "Ann") is None for a in addresses), 10)
