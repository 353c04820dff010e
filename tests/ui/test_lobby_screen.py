"""The lobby as each person at the table sees it: the host, a player who joined, a spectator."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from protocol.client import TableClient
from protocol.known_hosts import KnownHosts
from tests.ui.pilots import screen_text, wait_until
from tests.ui.tables import open_host
from ui.app import JoinPlan, make_app
from ui.session import TablePlan
from ui.user_settings import UserSettings
from ui.widgets.chat import ChatBox


def on(pilot: Any, name: str) -> bool:
    return type(pilot.app.screen).__name__ == name


def footer(pilot: Any) -> str:
    return screen_text(pilot.app).splitlines()[-1]


async def test_the_host_sees_the_addresses_players_can_use(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("ui.session.lan_addresses", lambda bind: ["192.0.2.10", "198.51.100.7"])
    plan = TablePlan("via-gladiola", 3, {}, bind="0.0.0.0", port=0, discovery=False)
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False, host=plan)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: on(pilot, "LobbyScreen"))
        await wait_until(pilot, lambda: "Host fingerprint" in screen_text(app))
        await wait_until(pilot, lambda: "Add bot" in footer(pilot))
        port = app.session.host.port
        text = " ".join(screen_text(app).split())
        assert f"netcards join 192.0.2.10:{port}" in text
        assert f"198.51.100.7:{port}" in text
        assert "ADDRESS" not in text
        assert "compare it with the host's screen" not in text, "this is the host's screen"
        assert "Add bot" in footer(pilot) and "Ready" in footer(pilot)
        # A table opened without a name is known on the LAN by its host's.
        assert app.session.host.table.name == "Ann's table"


@pytest.mark.parametrize("spectator", [False, True], ids=["player", "spectator"])
async def test_others_see_only_the_keys_they_can_use(spectator: bool) -> None:
    host = await open_host(bots=1)
    join = JoinPlan(f"127.0.0.1:{host.port}", spectator=spectator)
    app = make_app(settings=UserSettings(name="Bea"), ascii_mode=False, join=join)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: on(pilot, "Confirm"))
            await pilot.press("y")
            await wait_until(pilot, lambda: on(pilot, "LobbyScreen"))
            await wait_until(pilot, lambda: "Host fingerprint" in screen_text(app))
            await pilot.pause(0.2)
            keys = footer(pilot)
            text = screen_text(app)
            for owners in ("Add bot", "Bot level", "Remove bot", "b: add bot", "add bots"):
                assert owners not in keys and owners not in text
            assert ("Ready" in keys) is not spectator
            assert not app.screen.query_one("#seats").show_cursor, "no seat for them to pick"
            assert ("You are watching" in text) is spectator
            assert "still open: waiting for" in " ".join(text.split())
            assert "compare it with the host's screen" in " ".join(text.split())
            await pilot.press("b", "r")
            await pilot.pause(0.3)
            assert [s.kind for s in host.table.seats].count("bot") == 1, "b added nothing"
            ready = [s.name for s in host.table.seats if s.kind == "human" and s.ready]
            assert ready == ([] if spectator else ["Bea"])
    finally:
        await host.close()


async def test_long_names_and_bot_levels_wrap_whole_in_the_lobby() -> None:
    host = await open_host(players=3, bots=1)
    join = JoinPlan(f"127.0.0.1:{host.port}")
    name = "Maximiliane Wunderlich"
    app = make_app(settings=UserSettings(name=name), ascii_mode=False, join=join)
    try:
        async with app.run_test(size=(60, 20)) as pilot:
            await wait_until(pilot, lambda: on(pilot, "Confirm"))
            await pilot.press("y")
            await wait_until(pilot, lambda: "Bot 3" in screen_text(app))
            words = screen_text(app).split()
            for word in ("(medium)", "Maximiliane", "Wunderlich", "(you)"):
                assert word in words, f"{word!r} is cut"
    finally:
        await host.close()


async def test_the_ready_column_in_ascii_speaks_the_player_s_language() -> None:
    from ui import i18n

    i18n.use("nl")
    try:
        plan = TablePlan("via-gladiola", 3, {}, bots=1, bind="127.0.0.1", port=0, discovery=False)
        app = make_app(settings=UserSettings(name="Ann", language="nl"), ascii_mode=True, host=plan)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: on(pilot, "LobbyScreen"))
            # the bot's own row (the hints under the table also say "heuristic" and "bots")
            await wait_until(pilot, lambda: "Bot 3 (" in screen_text(app))
            rows = [line for line in screen_text(app).splitlines() if "Bot 3 (" in line]
    finally:
        i18n.use("en")
    assert rows and not any(re.search(r"\byes\b", row) for row in rows), rows
    assert any(re.search(r"\bja\b", row) for row in rows), rows


async def test_a_player_who_joins_reads_what_the_table_said_before(tmp_path: Path) -> None:
    host = await open_host(players=3)
    ann = TableClient(f"127.0.0.1:{host.port}", "Ann", KnownHosts(tmp_path / "ann_hosts"))
    runner = asyncio.create_task(ann.run())
    app = make_app(settings=UserSettings(name="Bea"), join=JoinPlan(f"127.0.0.1:{host.port}"))
    try:
        for _ in range(200):
            if ann.lobby is not None:
                break
            await asyncio.sleep(0.02)
        await ann.say("we start at eight")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: on(pilot, "Confirm"))
            await pilot.press("y")
            await wait_until(pilot, lambda: on(pilot, "LobbyScreen"))
            await wait_until(pilot, lambda: "we start at eight" in screen_text(app))
            assert "Ann" in screen_text(app)
    finally:
        runner.cancel()
        await host.close()


async def test_the_lobby_chat_takes_the_height_and_page_up_reads_back() -> None:
    """At 80x24 the lobby's chat shows more than a handful of lines, and page up brings back
    the first line once later ones pushed it out, with the seats' list focused or the chat's."""
    plan = TablePlan("via-gladiola", 3, {}, bind="127.0.0.1", port=0, discovery=False)
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False, host=plan)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: on(pilot, "LobbyScreen"))
        await wait_until(pilot, lambda: "Host fingerprint" in screen_text(app))
        await pilot.press("c", *"line 1", "enter")  # said as a player says it
        await wait_until(pilot, lambda: "line 1" in screen_text(app))
        chat = app.screen.query_one(ChatBox)
        for n in range(2, 31):  # the rest as heard from others (the host limits one's pace)
            chat.add("Bea", f"line {n}")
        await wait_until(pilot, lambda: "line 30" in screen_text(app))
        shown = [n for n in range(1, 31) if re.search(rf"\bline {n}\b", screen_text(app))]
        assert len(shown) >= 12, shown
        assert 1 not in shown
        for focus in ((), ("c",)):
            await pilot.press(*focus, *["pageup"] * 4)
            await wait_until(pilot, lambda: re.search(r"\bline 1\b", screen_text(app)))
            await pilot.press(*["pagedown"] * 4, *(["escape"] if focus else []))
            await wait_until(pilot, lambda: "line 30" in screen_text(app))


async def test_while_typing_in_the_chat_the_key_bar_shows_only_the_chat_s_keys() -> None:
    """Letters typed in the chat are text, and escape closes the chat rather than leaving the
    table: the key bar must not promise `r Ready` or `esc Leave` then."""
    plan = TablePlan("via-gladiola", 3, {}, bind="127.0.0.1", port=0, discovery=False)
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False, host=plan)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: on(pilot, "LobbyScreen"))
        await wait_until(pilot, lambda: "Leave" in footer(pilot))
        await pilot.press("c", *"rb")
        await wait_until(pilot, lambda: "Close chat" in footer(pilot))
        assert footer(pilot).split() == ["⏎", "Send", "esc", "Close", "chat"], footer(pilot)
        assert not app.session.client.lobby.seats[0].ready, "r was typed, not pressed"
        await pilot.press("escape")
        await wait_until(pilot, lambda: "Leave" in footer(pilot))
        assert "Ready" in footer(pilot) and on(pilot, "LobbyScreen")


async def test_the_owner_changes_the_game_and_seats_from_the_lobby(tmp_path: Path) -> None:
    """`o` opens the table's game, seats and options as they are; the owner's change reaches
    everyone, a seated player keeps a seat (told its number again) and is ready no more."""
    from textual.widgets import Select

    from protocol.client import SeatTaken

    plan = TablePlan(
        "via-gladiola", 4, {"variant_last_card": True}, bind="127.0.0.1", port=0, discovery=False
    )
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False, host=plan)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: on(pilot, "LobbyScreen"))
        host = app.session.host
        bea = TableClient(f"127.0.0.1:{host.port}", "Bea", KnownHosts(tmp_path / "bea_hosts"))
        runners = [asyncio.create_task(bea.run())]
        try:
            await wait_until(pilot, lambda: bea.seat is not None)
            await bea.set_ready(True)
            await wait_until(pilot, lambda: host.table.seats[1].ready)
            await wait_until(pilot, lambda: "o changes the game" in screen_text(app))
            await pilot.press("o")
            await wait_until(pilot, lambda: on(pilot, "TableChangeScreen"))
            await pilot.pause(0.3)
            form: Any = app.screen
            assert "Change the table" in footer(pilot)
            assert form.query_one("#game", Select).value == "via-gladiola"
            assert form.query_one("#players", Select).value == 4, "the table as it is"
            assert form.query_one("#opt-variant_last_card").value is True
            cas = TableClient(f"127.0.0.1:{host.port}", "Cas", KnownHosts(tmp_path / "cas"))
            runners.append(asyncio.create_task(cas.run()))
            await wait_until(pilot, lambda: cas.seat is not None)
            await wait_until(
                pilot,
                lambda: len([s for s in app.session.client.lobby.seats if s.kind == "human"]) == 3,
            )
            form.query_one("#players", Select).value = 2
            await pilot.pause(0.2)
            await pilot.press("ctrl+o")
            await pilot.pause(0.3)
            assert on(pilot, "TableChangeScreen"), "the form stays, with what to fix"
            assert "3 players are seated" in " ".join(screen_text(app).split())
            assert host.table.config.players == 4
            await cas.leave("not today")
            await wait_until(pilot, lambda: sum(s.kind == "human" for s in host.table.seats) == 2)
            assert not form.query("#port") and not form.query("#password"), "set when opened"
            form.query_one("#game", Select).value = "velonimo"
            await pilot.pause(0.3)
            form.query_one("#players", Select).value = 4
            await pilot.pause(0.2)
            seated_again = bea.updates.qsize()
            await pilot.press("ctrl+o")
            await wait_until(pilot, lambda: on(pilot, "LobbyScreen"))
            await wait_until(pilot, lambda: "Velonimo, 4 players" in screen_text(app))
            assert (host.table.game.id, host.table.config.players) == ("velonimo", 4)
            await wait_until(pilot, lambda: bea.lobby is not None and bea.lobby.players == 4)
            assert [s.name for s in host.table.seats[:2]] == ["Ann", "Bea"]
            assert not host.table.seats[1].ready, "a changed table asks everyone again"
            notices = [bea.updates.get_nowait() for _ in range(bea.updates.qsize())]
            assert any(isinstance(n, SeatTaken) and n.seat == 1 for n in notices[seated_again:])
        finally:
            for runner in runners:
                runner.cancel()


async def test_x_takes_out_the_bot_under_the_cursor_and_says_how_when_there_is_none() -> None:
    """x acts on the seat under the cursor: on another seat it says how to get to a bot's,
    and with no bot at all it says so instead of sending the owner looking for one."""
    plan = TablePlan("via-gladiola", 3, {}, bind="127.0.0.1", port=0, discovery=False, bots=1)
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False, host=plan)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: on(pilot, "LobbyScreen"))
        lobby = lambda: app.session.client.lobby  # noqa: E731
        await wait_until(pilot, lambda: lobby() is not None and lobby().seats[2].kind == "bot")
        assert app.screen.query_one("#seats").show_cursor, "the owner picks the seat x acts on"
        await pilot.press("x")
        await wait_until(pilot, lambda: bool(list(app._notifications)))
        said = [n.message for n in app._notifications]
        assert said == ["move to a bot's seat first (up, down), then press x"]
        assert lobby().seats[2].kind == "bot", "nothing was taken out"
        app.clear_notifications()
        await pilot.press("down", "down", "x")
        await wait_until(pilot, lambda: lobby().seats[2].kind == "open")
        await pilot.press("x")
        await wait_until(pilot, lambda: bool(list(app._notifications)))
        assert [n.message for n in app._notifications] == ["there is no bot at the table"]


async def test_the_ssh_command_and_its_fingerprint_each_fit_on_a_line_of_their_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At 80x24 the command broke after `ssh -p PORT` and the fingerprint after its label: a
    friend reading it aloud or copying it got half a command."""
    monkeypatch.setattr("ui.session.lan_addresses", lambda bind: ["192.0.2.2"])
    plan = TablePlan("via-gladiola", 3, {}, bind="0.0.0.0", port=0, discovery=False, ssh_port=0)
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False, host=plan)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: on(pilot, "LobbyScreen") and app.session is not None, 15)
        await wait_until(pilot, lambda: "SSH fingerprint" in screen_text(app), 15)
        door = app.session.door
        command = door.command("NAME", "192.0.2.2")
        rows = [row.strip() for row in screen_text(app).splitlines()]
        assert any(row.startswith(command) for row in rows), rows
        assert any(door.fingerprint in row for row in rows), rows


async def test_o_changing_the_game_leaves_the_bot_in_the_last_seat_under_its_name() -> None:
    """Hosted with one bot, which the form says takes the last seat; `o`, another game by keys
    (its seats as many): the lobby still shows the bot in the last seat, under the same name."""
    from tests.ui.bursts import burst

    plan = TablePlan("auf-achse", 3, {}, bind="127.0.0.1", port=0, discovery=False, bots=1)
    app = make_app(settings=UserSettings(name="Ann"), ascii_mode=False, host=plan)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: on(pilot, "LobbyScreen"))
        lobby = lambda: app.session.client.lobby  # noqa: E731
        await wait_until(pilot, lambda: lobby() is not None and lobby().seats[2].kind == "bot")
        assert lobby().seats[2].name == "Bot 3"
        await burst(pilot, "o")
        await wait_until(pilot, lambda: on(pilot, "TableChangeScreen"))
        await pilot.pause(0.3)
        await burst(pilot, "enter", "down", "enter", "ctrl+o")
        await wait_until(pilot, lambda: on(pilot, "LobbyScreen"))
        await wait_until(pilot, lambda: lobby().game == "velonimo")
        seats = [(s.kind, s.name) for s in lobby().seats]
        assert seats == [("human", "Ann"), ("open", ""), ("bot", "Bot 3")]
        await wait_until(pilot, lambda: re.search(r"3 +Bot 3", screen_text(app)) is not None)
