"""Play again opens the table as it ended: what the owner changed in the lobby stays."""

from __future__ import annotations

from protocol.messages import Lobby, SeatInfo
from tests.ui.pilots import wait_until
from ui.app import make_app, plan_as_left
from ui.session import TablePlan
from ui.user_settings import UserSettings


def seat(i: int, kind: str, level: str | None = None) -> SeatInfo:
    name = {"human": f"P{i}", "bot": f"Bot {i + 1}", "open": ""}[kind]
    return SeatInfo(i, kind, name, True, True, level, False)


def lobby(game: str, players: int, options: dict[str, object], kinds: list[str]) -> Lobby:
    seats = tuple(seat(i, k, "random" if k == "bot" else None) for i, k in enumerate(kinds))
    return Lobby("t", game, players, options, seats, 0, False, "over", "", 0)


def test_the_game_seats_options_and_bots_chosen_in_the_lobby_are_kept() -> None:
    opened = TablePlan("via-gladiola", 3, {"deck": "D"}, bots=2, password="pw", port=5000)
    ended = lobby("velonimo", 4, {"difficulties": [1, 2]}, ["human", "human", "bot", "open"])
    plan = plan_as_left(opened, ended)
    assert (plan.game, plan.players, plan.options) == ("velonimo", 4, {"difficulties": [1, 2]})
    assert plan.bots == 1 and plan.bot_level == "random"
    assert (plan.password, plan.port) == ("pw", 5000), "the rest of the plan is the same"


def test_the_deck_no_lobby_shows_stays_for_the_same_game() -> None:
    opened = TablePlan("via-gladiola", 3, {"deck": "D", "variant_last_card": False}, bots=2)
    ended = lobby("via-gladiola", 3, {"variant_last_card": True}, ["human", "bot", "bot"])
    plan = plan_as_left(opened, ended)
    assert plan.options == {"variant_last_card": True, "deck": "D"}
    assert plan.bots == 2


async def test_a_table_opened_on_any_free_port_opens_again_on_the_same_one() -> None:
    """Its players joined that port: Play again must not move the table somewhere else. (On
    127.0.0.2, loopback but not this machine's practice tables, which take any port.)"""
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False)
    plan = TablePlan("via-gladiola", 2, {}, bind="127.0.0.2", port=0, discovery=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_table(plan)
        await wait_until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
        first = app.session
        port = first.host.port
        assert app.last_plan.port == port != 0
        app.play_again(first.client.lobby)
        await wait_until(
            pilot,
            lambda: app.session is not first and type(app.screen).__name__ == "LobbyScreen",
        )
        assert app.session.host.port == port
        await app.close_session()
