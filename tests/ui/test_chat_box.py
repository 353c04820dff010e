"""The chat beside the table: what you type shows while you type it, at every size."""

from __future__ import annotations

from typing import Any

import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Input

from protocol.errors import ErrorCode, LocalProtocolError
from protocol.messages import Say, encode
from protocol.schema import refused_in_text
from tests.ui.bursts import burst as keys_burst
from tests.ui.pilots import burst, screen_text, seeded, start_practice, wait_until
from tests.ui.tables import open_host
from ui.app import JoinPlan, make_app
from ui.session import TablePlan
from ui.user_settings import UserSettings
from ui.widgets.chat import ChatBox


class OneChat(App[None]):
    """The chat box alone, as the lobby and the game screens hold it."""

    def compose(self) -> ComposeResult:
        yield ChatBox(id="chat")


@pytest.mark.parametrize("size", [(80, 24), (60, 20), (160, 48)])
async def test_the_text_being_typed_is_on_screen(size: tuple[int, int]) -> None:
    app = OneChat()
    async with app.run_test(size=size) as pilot:
        app.query_one("#chat-input").focus()
        await burst(pilot, *"hello there")
        assert "hello there" in screen_text(app)


async def test_the_text_being_typed_is_on_the_game_screen() -> None:
    app: Any = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(1), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        await pilot.press("c")
        await burst(pilot, *"gg all")
        assert "gg all" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert "Ann: gg all" in screen_text(app)


async def test_c_and_a_line_in_one_burst_all_go_to_the_chat() -> None:
    """c, the words and enter in one burst: every letter is the chat's (h is not a hint, r
    not a rest); enter leaves the box open, so the escape right after it closes the box
    (it does not ask to leave the table), and an arrow after that is the hand's again."""
    app: Any = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(1), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        screen = app.screen
        hand = screen.query_one("#hand")
        await pilot.press("home")
        await burst(pilot, "c", *"hi there", "enter", "escape", "right")
        await wait_until(pilot, lambda: "Ann: hi there" in screen_text(app), seconds=5)
        await wait_until(pilot, lambda: hand.cursor == 1, seconds=5)
        assert app.screen is screen, "the escape closed the chat, not the table"
        assert screen.focused is hand
        assert not screen.message


async def test_enter_keeps_the_chat_open_for_the_next_line() -> None:
    """Two lines, one enter each, without pressing c again; enter on the empty box closes it
    (escape does too), and the escape after that is the table's: leave?"""
    app: Any = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(1), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        screen = app.screen
        client = screen.client
        await burst(pilot, "c", *"one", "enter", *"two", "enter")
        await wait_until(pilot, lambda: [line.text for line in client.chat] == ["one", "two"])
        assert screen.chatting, "the box is still open after a line is sent"
        await pilot.press("enter")
        assert not screen.chatting and screen.focused is screen.query_one("#hand")
        await pilot.press("escape")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "Confirm")


async def test_a_spectator_s_line_names_them_and_cannot_pass_for_the_table_s_notice() -> None:
    """A spectator's chat (seat nil) is said by someone, like any chat; written in the notice
    style it let a watcher forge "* Ann is away..." in every player's chat."""
    from protocol.client import ChatLine, TableSays
    from ui.session import SessionNotice

    app: Any = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(1), bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        forged = "Bot 2 is back"
        app.screen.post_message(SessionNotice(ChatLine(None, "Cor", forged)))
        app.screen.post_message(SessionNotice(TableSays("away", {"seat": 2, "name": "Bot 3"})))
        await pilot.pause(0.2)
        text = screen_text(app)
    assert f"Cor (watching): {forged}" in text
    assert f"* {forged}" not in text
    assert "* Bot 3 has lost the connection" in text, "the table's own notice keeps its style"


# -- a line longer than the table takes ------------------------------------------------------------

LONG = "".join(chr(ord("a") + i % 26) for i in range(600))
LIMIT = "A chat line holds at most 500 characters."


async def type_or_paste(pilot: Any, how: str, text: str) -> None:
    """Into the focused chat box: key by key in one burst (as over SSH), or as one paste."""
    if how == "typed":
        await burst(pilot, *text)
    elif how == "pasted":
        pilot.app.screen.focused.post_message(events.Paste(text))
    else:  # as a terminal sends it: bracketed, read by the app's own parser, in order
        await keys_burst(pilot, "\x1b[200~" + text + "\x1b[201~")
    await pilot.pause()


def said(app: Any) -> list[str]:
    return [n.message for n in app._notifications]


def words(app: Any) -> str:
    return " ".join(screen_text(app).split())


def box_says_full(app: Any) -> bool:
    """The chat box shows the limit's words, on the screen (not hidden, not of no height)."""
    note = app.screen.query_one("#chat-full")
    shown = note.display and note.region.height > 0
    return bool(shown) and LIMIT in " ".join(str(note.render()).split())


@pytest.mark.parametrize("how", ["typed", "pasted", "terminal-paste"])
async def test_a_600_character_line_stops_at_the_limit_and_the_box_says_so(how: str) -> None:
    """Said in the chat box, above the line, for as long as the line is full: no notice in a
    corner of the screen (it covered the hand, and was gone before a paste's cut was read)."""
    app = OneChat()
    async with app.run_test(size=(80, 24)) as pilot:
        box = app.query_one("#chat-input", Input)
        box.focus()
        await type_or_paste(pilot, how, LONG)
        await wait_until(pilot, lambda: len(box.value) == 500, seconds=30)
        assert box.value == LONG[:500]
        await wait_until(pilot, lambda: LIMIT in words(app))
        assert said(app) == [], "no notice over the screen"
        await pilot.press("backspace")
        await wait_until(pilot, lambda: LIMIT not in words(app))
        await pilot.press("x")
        assert box.value == LONG[:499] + "x"
        await pilot.pause()
        assert LIMIT not in words(app), "500 characters, nothing cut: nothing to say"
        await pilot.press("y")
        await wait_until(pilot, lambda: LIMIT in words(app))
        await pilot.press("escape")  # the box closed: the line is kept, the words go
        await wait_until(pilot, lambda: LIMIT not in words(app))
        box.focus()
        await pilot.press("end")  # (the focus selects the whole line, which a key replaces)
        await type_or_paste(pilot, how, "more")  # into a line that was already full
        await wait_until(pilot, lambda: LIMIT in words(app))
        assert box.value == LONG[:499] + "x"


async def test_a_pasted_text_with_line_breaks_and_controls_becomes_a_line_the_table_takes() -> None:
    """The protocol counts characters (not bytes: an é or a 🂡 is one) and refuses control and
    bidi-override characters: a paste of several lines, tabs, a terminal escape and a bidi
    override becomes one line of spaces and text within the limit, which `Say` encodes."""
    pasted = "line one\r\nline\ttwo\n\x1b[2Jthree\u202eevil\x07" + "é🂡" * 400
    app = OneChat()
    async with app.run_test(size=(80, 24)) as pilot:
        box = app.query_one("#chat-input", Input)
        box.focus()
        await type_or_paste(pilot, "pasted", pasted)
        value = box.value
        start = "line one line two  [2Jthree evil "
        assert value == start + ("é🂡" * 400)[: 500 - len(start)]
        assert len(value.encode()) > 1000, "500 characters, many more bytes: the table's count"
        assert not any(refused_in_text(ch) for ch in value)
        encode(Say(value))  # the table takes it: no LocalProtocolError


async def at_the_table(pilot: Any, where: str, app: Any) -> None:
    """On the game screen as the host's own player (a practice table the app hosts; its
    player joins it over loopback like anyone) or as a LAN player who joined a table."""
    if where == "host":
        await start_practice(pilot, "via-gladiola", 3)
        return
    await wait_until(pilot, lambda: type(app.screen).__name__ == "Confirm")
    await pilot.press("y")  # the first visit: trust this table's key
    await wait_until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
    await pilot.press("r")
    await wait_until(pilot, lambda: hasattr(app.screen, "game_id"))


@pytest.mark.parametrize("how", ["typed", "terminal-paste"])
@pytest.mark.parametrize("where", ["host", "lan"])
async def test_a_600_character_chat_line_at_the_table_sends_500_and_the_game_goes_on(
    where: str, how: str
) -> None:
    host = await open_host(players=2, bots=1) if where == "lan" else None
    join = JoinPlan(f"127.0.0.1:{host.port}") if host is not None else None
    app: Any = make_app(
        settings=UserSettings(name="Ann"), random_bytes=seeded(1), bot_delay=0, join=join
    )
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await at_the_table(pilot, where, app)
            screen = app.screen
            await pilot.press("c")
            await type_or_paste(pilot, how, LONG)
            await wait_until(pilot, lambda: box_says_full(app))
            chat = screen.query_one("#chat").region
            note = screen.query_one("#chat-full").region
            assert chat.contains_region(note), "in the chat pane"
            assert not note.overlaps(screen.query_one("#hand").region)
            await pilot.press("enter")
            client = screen.client
            await wait_until(pilot, lambda: bool(client.chat), seconds=30)
            assert [line.text for line in client.chat] == [LONG[:500]]
            assert said(app) == [], "said in the chat box: no notice over the hand"
            assert app.screen is screen and app.return_code is None
            assert screen.chatting, "the box is open for the next line"
            await pilot.press("escape", "home")
            assert app.screen is screen and screen.focused is screen.query_one("#hand")
    finally:
        if host is not None:
            await host.close()


@pytest.mark.parametrize(
    "error",
    [
        LocalProtocolError(ErrorCode.OUT_OF_RANGE, "message 'say': field 'text' must be..."),
        LocalProtocolError(ErrorCode.COUNTER_EXHAUSTED, "send counter exhausted"),
        ValueError("nonce 0x5eed70ce5eed70ce"),
    ],
    ids=["refused-field", "counter-exhausted", "any-other"],
)
async def test_an_error_of_the_protocol_while_sending_a_line_is_one_line_on_the_screen(
    monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    """Whatever the client raises while sending a chat line, the status line says the line
    was not sent and the game goes on: no traceback (Textual's shows every frame's locals,
    the seat token among them), and the next line goes."""
    from protocol.client import TableClient

    app: Any = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(1), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        screen = app.screen
        real_say = TableClient.say

        async def failing_say(self: TableClient, text: str) -> None:
            raise error

        monkeypatch.setattr(TableClient, "say", failing_say)
        await burst(pilot, "c", *"hello", "enter")
        await wait_until(pilot, lambda: screen.message != "")
        assert screen.message == "that line could not be sent"
        text = screen_text(app)
        assert "that line could not be sent" in text
        assert "Traceback" not in text and str(error) not in text
        assert app.screen is screen and app.return_code is None and app._exception is None
        monkeypatch.setattr(TableClient, "say", real_say)
        await burst(pilot, *"again", "enter")
        await wait_until(pilot, lambda: [line.text for line in screen.client.chat] == ["again"])


async def test_an_error_of_the_protocol_in_the_lobby_chat_is_a_notice() -> None:
    """The lobby sends chat the same way: a refused line is a notice and the lobby stays."""
    from protocol.client import TableClient

    host = await open_host(players=2, bots=1)
    app: Any = make_app(settings=UserSettings(name="Ann"), join=JoinPlan(f"127.0.0.1:{host.port}"))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: type(app.screen).__name__ == "Confirm")
            await pilot.press("y")
            await wait_until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
            screen = app.screen

            async def failing_say(self: TableClient, text: str) -> None:
                raise LocalProtocolError(ErrorCode.OUT_OF_RANGE, "field 'text' ...")

            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(TableClient, "say", failing_say)
                await burst(pilot, "c", *"hello", "enter")
                await wait_until(pilot, lambda: "that line could not be sent" in said(app))
            assert app.screen is screen and app.return_code is None and app._exception is None
            await burst(pilot, "escape")
            await pilot.pause()
            assert screen.focused is screen.query_one("#seats"), "escape closed the chat"
    finally:
        await host.close()


# -- a paste and a tab: typed once, and the box keeps the focus ------------------------------------


@pytest.mark.parametrize(
    ("pasted", "line"),
    [
        ("one\ntwo", "one two"),
        ("X1\tY1 and Z", "X1 Y1 and Z"),
        ("P\x1b[31mQ R", "P [31mQ R"),
        ("S\x07T\rU", "S T U"),
    ],
    ids=["line-break", "tab", "escape", "bell-and-return"],
)
async def test_a_paste_is_typed_once_where_the_cursor_is(pasted: str, line: str) -> None:
    """Textual's own paste ran after the box's and typed the first line again ("one two" came
    out "one twoone")."""
    app = OneChat()
    async with app.run_test(size=(80, 24)) as pilot:
        box = app.query_one("#chat-input", Input)
        box.focus()
        await pilot.press("less_than_sign", "greater_than_sign", "left")
        await type_or_paste(pilot, "pasted", pasted)
        assert box.value == f"<{line}>"
        assert box.cursor_position == len(line) + 1


async def test_a_pasted_line_at_the_table_is_sent_once() -> None:
    app: Any = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(1), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        screen = app.screen
        await pilot.press("c")
        await type_or_paste(pilot, "pasted", "one\ntwo")
        assert screen.query_one("#chat-input", Input).value == "one two"
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(screen.client.chat), seconds=10)
        await pilot.pause(0.2)
        assert [line.text for line in screen.client.chat] == ["one two"]
        assert "Ann: one two" in screen_text(app) and "twoone" not in screen_text(app)


async def test_tab_in_the_lobby_s_chat_is_a_space_and_the_keys_after_it_are_text() -> None:
    """Tab moved the focus out of the box, so the `r` after it made the player ready with the
    line unsent (with every other seat ready, the game started); shift+tab, `b`: a bot."""
    plan = TablePlan("via-gladiola", 3, {}, bind="127.0.0.1", port=0, discovery=False)
    app: Any = make_app(settings=UserSettings(name="Ann"), host=plan)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: type(app.screen).__name__ == "LobbyScreen")
        screen = app.screen
        box = screen.query_one("#chat-input", Input)
        await wait_until(pilot, lambda: app.session.client.lobby is not None)
        await keys_burst(pilot, "c", *"ab", "tab", "r", "shift+tab", "b")
        assert screen.focused is box
        assert box.value == "ab r b"
        await keys_burst(pilot, "enter")
        client = app.session.client
        await wait_until(pilot, lambda: [line.text for line in client.chat] == ["ab r b"])
        assert screen.focused is box, "enter sent the line and left the box open"
        seats = client.lobby.seats
        assert not any(seat.ready for seat in seats), "r was typed, not pressed"
        assert not any(seat.kind == "bot" for seat in seats), "b was typed, not pressed"


async def test_tab_in_a_game_s_chat_is_a_space_and_the_keys_after_it_are_text() -> None:
    """Tab moved the focus out of the box, so the `h` after it asked for a hint."""
    app: Any = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(1), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        screen = app.screen
        box = screen.query_one("#chat-input", Input)
        await keys_burst(pilot, "c", *"xy", "tab", "h", "shift+tab", "h")
        assert screen.focused is box and screen.chatting
        assert box.value == "xy h h"
        assert not screen.message, "h was typed, not a hint asked"
        await keys_burst(pilot, "enter")
        await wait_until(pilot, lambda: [line.text for line in screen.client.chat] == ["xy h h"])
        assert screen.chatting and not screen.message


async def test_c_a_paste_and_enter_in_one_read_go_to_the_chat_in_that_order() -> None:
    """A paste waits its turn behind the keys read before it, as a key does (`ui.keys`): sent
    straight to the focused widget, it reached the hand before `c` had opened the box."""
    app: Any = make_app(settings=UserSettings(name="Ann"), random_bytes=seeded(1), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_practice(pilot, "via-gladiola", 3)
        screen = app.screen
        await keys_burst(pilot, "c", "\x1b[200~one\ntwo\x1b[201~", *" h", "enter")
        await wait_until(pilot, lambda: bool(screen.client.chat), seconds=10)
        assert [line.text for line in screen.client.chat] == ["one two h"]
        assert screen.chatting and not screen.message
