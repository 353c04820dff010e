"""Play again opens the table as it ended: what the owner changed in the lobby stays."""

from __future__ import annotations

from protocol.messages import Lobby, SeatInfo
from ui.app import plan_as_left
from ui.session import TablePlan


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
