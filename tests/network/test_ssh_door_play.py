"""Playing through the SSH door: a guest with nothing but an SSH client and a terminal.

The guest's terminal is a real emulator (pyte) fed with what the door sends; the guest plays
with key presses only, as a person at that terminal would. The child processes are real.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from pathlib import Path

import asyncssh
import pytest

from netcards.games.via_gladiola.cards import deck_for, kind_of
from tests.network.door_support import (
    DoorTable,
    Guest,
    Terminal,
    client_key,
    door_table,
    guest,
)
from tests.network.processes import Relay
from tests.sighup import SIGHUP_MODES, sighup_for_children
from ui.ssh_door import DoorSettings

CARD = re.compile(r"│ *([0-9]{1,2}|FIN|GLA)│")
TABLE = re.compile(r"(Day \d of 4.*|Walk pile:.*)")
RESULTS = "Game over|Play again"


def widest(screen: str) -> int:
    return max(len(line.rstrip()) for line in screen.splitlines())


def hand_on_screen(screen: str) -> list[str]:
    lines = screen.splitlines()
    start = next(i for i, line in enumerate(lines) if "Your turn" in line or "Waiting" in line)
    return sorted(m.group(1) for line in lines[start:] for m in CARD.finditer(line))


def labels(cards: list[int]) -> list[str]:
    deck = deck_for(None)
    out = []
    for card in cards:
        kind = kind_of(card)
        out.append(
            str(deck.value[card]) if kind == "distance" else {"finish": "FIN"}.get(kind, "GLA")
        )
    return sorted(out)


async def play_turns(visitor: Guest, until: str, turns: int = 10_000) -> str:
    """Take turns with keys until `until` shows (or `turns` turns are taken): try each card
    from the left (enter walks it when it may be walked); if none could be, rest (r). The
    summary between days goes on at enter, as a player does, not after its countdown."""
    for _ in range(turns):
        screen = await visitor.wait_for("Your turn", "go on now", until, seconds=60)
        if re.search(until, screen):
            return screen
        if "go on now" in screen and "Your turn" not in screen:
            visitor.keys("enter")
            await visitor.wait_gone("go on now")
            continue
        table = TABLE.findall(screen)
        tries = max(1, len(CARD.findall(screen)))
        visitor.keys("home", "enter", *["right", "enter"] * (tries - 1))
        await visitor.settle()
        after = visitor.text()
        if "Your turn" in after and TABLE.findall(after) == table:
            visitor.keys("r")  # nothing could be walked: the table did not move
            await visitor.settle()
    return visitor.text()


async def test_a_guest_plays_a_whole_game_with_keys_and_nothing_is_readable_on_the_wire(
    tmp_path: Path,
) -> None:
    async with door_table(tmp_path) as table:
        relay = Relay(table.port)
        try:
            visitor = await guest(table, "Annabella-Quartz", key=client_key(), port=relay.port)
            lobby = await visitor.wait_for(r"Annabella-Quartz \(you\)")
            assert "Host fingerprint" in lobby and table.host.identity.fingerprint in lobby
            assert widest(lobby) <= 80
            visitor.resize(110, 30)
            wide = await visitor.wait_for(r"(?m)^.{81,}\S")  # drawn again, 110 columns wide
            assert "Annabella-Quartz (you)" in wide
            visitor.resize(80, 24)
            await visitor.settle()
            visitor.keys("r")
            await visitor.wait_for("Your turn", "Waiting for")
            results = await play_turns(visitor, RESULTS)
            assert "Annabella-Quartz (you)" in results, results
            await visitor.wait_for("deal verified")
            assert table.host.outcome is not None, "the table agrees: the game is over"
            visitor.keys("m")  # back to the menu: for a guest, the end of the session
            await asyncio.wait_for(visitor.term.closed.wait(), 15)
            assert visitor.term.exit_status == 0
            await visitor.close()
        finally:
            relay.close()
    wire = bytes(relay.captured)
    assert len(wire) > 20_000, "the relay saw the game"
    for secret in [b"Annabella-Quartz", b"Gladiola", b"Finish", b"blisters", b"Your turn",
                   b"Walk pile", b"Day 1 of 4", b"Bot 2", b"via-gladiola"]:  # fmt: skip
        assert secret not in wire, f"{secret!r} crossed the wire in cleartext"


async def test_a_dropped_guest_leaves_no_process_and_only_their_key_gets_the_seat_back(
    tmp_path: Path,
) -> None:
    ann_key, eve_key = client_key(), client_key()
    async with door_table(tmp_path, grace=1.0, bot_delay=0.4) as table:
        ann = await guest(table, "ann", key=ann_key)
        await ann.wait_for(r"ann \(you\)")
        ann.keys("r")
        await ann.wait_for("Your turn", "Waiting for")
        await play_turns(ann, RESULTS, turns=3)
        (session,) = [s for s in table.door.sessions if s.name == "ann"]
        assert session.process is not None and session.process.pid is not None
        pid = session.process.pid

        ann.conn.abort()  # the guest's client dies: no goodbye, the connection just ends
        await table.wait_logged(f"process {pid} of 'ann' ended")
        for _ in range(100):
            try:
                os.killpg(pid, 0)
            except ProcessLookupError:
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(f"process group {pid} is still there")
        await table.wait_logged("a bot stands in for seat 1")
        # The game must outlast the two visits below (slower on a busy machine): from here the
        # bots take their time, or the game could end before Ann is back to see her hand.
        table.host.settings.bot_delay = 3.0

        # Someone else, with another key, types the same user name: no seat, no hand.
        eve = await guest(table, "ann", key=eve_key)
        refused = await eve.wait_for("refused")
        assert "Your turn" not in refused and not CARD.search(refused)
        assert table.door.guest_folder(eve_key.public_data, "ann") != session.folder
        eve.keys("enter")
        await asyncio.wait_for(eve.term.closed.wait(), 15)
        assert eve.term.exit_status == 1
        assert not any("is back in seat 1" in line for line in table.lines)
        await eve.close()

        # Ann, with her key, types the same command: her seat, her hand, the game's log.
        again = await guest(table, "ann", key=ann_key)
        await again.wait_for("Your turn", "Waiting for")
        await table.wait_logged("is back in seat 1")
        await again.settle()
        screen = again.text()
        assert table.host.table.phase == "playing"
        # Back in her seat, only Ann changes her hand: what she sees is what the table holds.
        assert hand_on_screen(screen) == labels(table.host.table.state.hands[0])
        assert re.search(r"walked|rested|drew", screen), "the log is back"
        await again.close()


async def test_a_name_in_use_is_not_taken_over_without_a_key_but_the_same_key_takes_over(
    tmp_path: Path,
) -> None:
    settings = DoorSettings(spectators=0, margin=0, hang_up_grace=2.0)  # room for 3 guests
    async with door_table(tmp_path, players=3, door=settings) as table:
        bob = await guest(table, "bob", password="")
        await bob.wait_for(r"bob \(you\)")
        other = await guest(table, "bob", password="")
        await asyncio.wait_for(other.term.closed.wait(), 15)
        assert other.term.exit_status == 1
        assert "by this name is at the table" in bytes(other.term.stderr).decode()
        assert not bob.term.closed.is_set(), "the guest at the table stays"
        await other.close()

        key = client_key()
        first = await guest(table, "ann", key=key)
        await first.wait_for(r"ann \(you\)")
        second = await guest(table, "ann", key=key)  # the same person, from another terminal
        await asyncio.wait_for(first.term.closed.wait(), 15)
        assert "opened from another connection" in bytes(first.term.stderr).decode()
        await second.wait_for(r"ann \(you\)")

        watcher = await guest(table, "zoe", key=client_key(), command="watch")
        await watcher.wait_for("Host fingerprint")
        assert any(p.spectator and p.name == "zoe" for p in table.host.peers.values())
        late = await guest(table, "max", key=client_key())  # a fourth guest: no room
        await asyncio.wait_for(late.term.closed.wait(), 15)
        assert "all the guests it can take" in bytes(late.term.stderr).decode()
        assert late.term.exit_status == 1
        for visitor in (bob, first, second, watcher, late):
            await visitor.close()


async def seated_through_a_relay(table: DoorTable) -> tuple[Relay, int]:
    """Ann, seated through a relay the test can freeze; and the process of her app."""
    relay = Relay(table.port)
    visitor = await guest(table, "ann", key=client_key(), port=relay.port)
    await visitor.wait_for(r"ann \(you\)")
    (session,) = table.door.sessions
    assert session.process is not None
    return relay, session.process.pid


async def test_closing_the_table_ends_every_guest_app_even_if_their_client_is_frozen(
    tmp_path: Path,
) -> None:
    async with door_table(tmp_path) as table:
        relay, pid = await seated_through_a_relay(table)
        relay.freeze()
        await asyncio.wait_for(table.door.close(), 15)
        try:
            os.killpg(pid, 0)
        except ProcessLookupError:
            pass
        else:
            raise AssertionError("the guest's app outlived the table")
        relay.close()


@pytest.mark.parametrize("sighup", SIGHUP_MODES)
async def test_a_host_that_dies_leaves_no_guest_app_behind(tmp_path: Path, sighup: str) -> None:
    """The guest's PTY is the app's controlling terminal: when the host's process dies, its
    side of every PTY closes and the kernel hangs the guests' apps up. Also when the host was
    started with SIGHUP ignored (under nohup), which its children inherit."""
    import signal

    from protocol.identity import IdentityKey, ssh_public_line
    from protocol.settings import config_dir
    from tests.network.processes import host, wait_for

    with sighup_for_children(sighup):
        server, _port, _ = await asyncio.to_thread(
            host, tmp_path, "--game", "via-gladiola", "--players", "2", "--port", "0", "--ssh", "0"
        )
    pid = 0
    try:
        await asyncio.to_thread(wait_for, lambda: "\nssh " in "\n" + server.stdout(), 20)
        ssh_port = int(re.search(r"^ssh \S+:(\d+)", server.stdout(), re.M).group(1))  # type: ignore[union-attr]
        key = IdentityKey.load((config_dir() / "host_key").read_text())
        known = asyncssh.import_known_hosts(
            f"[127.0.0.1]:{ssh_port} {ssh_public_line(key.public_key)}\n"
        )
        conn = await asyncssh.connect(
            "127.0.0.1", ssh_port, username="ann", known_hosts=known, client_keys=[client_key()],
            agent_path=None, config=None,
        )  # fmt: skip
        await conn.create_session(
            Terminal, term_type="xterm-256color", term_size=(80, 24), encoding=None
        )
        await asyncio.to_thread(wait_for, lambda: "plays in process" in server.stderr(), 20)
        found = re.search(r"plays in process (\d+)", server.stderr())
        assert found is not None
        pid = int(found.group(1))
        server.popen.send_signal(signal.SIGKILL)
        server.popen.wait()

        def gone() -> bool:
            try:
                os.killpg(pid, 0)
            except ProcessLookupError:
                return True
            return False

        await asyncio.to_thread(wait_for, gone, 15, "the guest's app to end")
        conn.close()
    finally:
        server.kill()
        if pid:  # a guest's app that outlived the test would spin on its closed terminal
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)


async def test_a_guest_gone_silent_is_dropped_and_its_app_ended(tmp_path: Path) -> None:
    """A guest whose machine went to sleep answers no keepalive: after four unanswered, the
    door hangs up, and the app it ran for them ends (their seat waits for them as any)."""
    settings = DoorSettings(keepalive=0.2, hang_up_grace=1.0)
    async with door_table(tmp_path, door=settings) as table:
        relay, pid = await seated_through_a_relay(table)
        relay.freeze()
        for _ in range(100):
            if not table.door.sessions:
                break
            await asyncio.sleep(0.1)
        assert not table.door.sessions, "the silent guest's session is over"
        with pytest.raises(ProcessLookupError):
            os.killpg(pid, 0)
        assert table.logged(f"process {pid} of 'ann' ended")
        relay.close()
