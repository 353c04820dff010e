"""The table's own notices (time ran out, a player away) on the game screen: in the log among
the moves they speak of, said to the player they are about, and out of the people's chat."""

from __future__ import annotations

from typing import Any

from protocol.client import ChatLine
from tests.ui.pilots import seeded, start_practice, wait_for_turn, wait_until
from ui.app import make_app
from ui.screens.confirm import Notice
from ui.session import SessionNotice
from ui.user_settings import UserSettings


def lines_of(widget: Any) -> str:
    """What a log shows, its wrapped rows joined again."""
    return " ".join("".join(seg.text for seg in strip).strip() for strip in widget.lines)


async def test_notices_that_came_under_another_screen_are_in_the_log_not_the_chat() -> None:
    """The turn clock ran out while a day's summary was read (a 3 s clock, a 15 s summary): the
    notices went to the summary's screen and were lost, so the stand-in's moves of the next
    day came with no word of why. Back on the table, the log has them, and the 5-line chat
    pane still has the people's lines after many of them."""
    app: Any = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(1), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        game = app.screen
        client = game.client
        game.post_message(SessionNotice(ChatLine(1, "Cor", "good luck")))
        await pilot.pause(0.2)
        app.push_screen(Notice("a summary is read"))
        await wait_until(pilot, lambda: app.screen is not game)
        client._notify_table("clock", seat=client.seat, name="Ann")
        for _ in range(4):
            client._notify_table("clock", seat=1, name="Bot 2")
        await pilot.pause(0.3)
        app.pop_screen()
        log = game.query_one("#log")
        await wait_until(pilot, lambda: "time ran out" in lines_of(log))
        text = lines_of(log)
        assert "* Your time ran out: your stand-in played the turn" in text
        assert text.count("* Bot 2's time ran out: a bot played the turn") == 4
        chat = lines_of(game.query_one("#chat-lines"))
        assert "Cor: good luck" in chat and "time ran out" not in chat, chat


async def test_a_notice_is_written_where_it_came_among_the_moves() -> None:
    """The log is rebuilt from the start after a rejoin: each notice goes back before the
    event that came after it, not at the end."""
    app: Any = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(1), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        game = app.screen
        client = game.client
        await wait_for_turn(pilot, client)
        await pilot.press("r")  # a rest: the log has a move
        await wait_until(pilot, lambda: len(client.log) > 0)
        await wait_for_turn(pilot, client)  # the bots have played: nothing moves now
        at = len(client.log)
        client._notify_table("clock", seat=1, name="Bot 2")
        await pilot.pause(0.2)
        log = game.query_one("#log")
        before = lines_of(log)
        assert before.endswith("* Bot 2's time ran out: a bot played the turn"), before
        # A rejoin sends the log again from the start: the notice keeps its place.
        events = list(client.log)
        client.log = []
        game.log_new_events()
        client.log = events
        game.log_new_events()
        again = lines_of(log)
        assert again.count("* Bot 2's time ran out: a bot played the turn") == 1
        assert client.notices[-1].at == at
        assert again.startswith(before), (before, again)
