"""What the table said before you came: a newcomer, a spectator and a player whose link dropped
read the conversation they join, each line once, over real sockets to a real host process."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path

from protocol.client import ChatLine, ClientSettings, SeatTaken, TableClient
from protocol.known_hosts import KnownHosts
from protocol.limits import CHAT_MEMORY
from protocol.messages import Chat, Message
from tests.network.processes import host


class Guest:
    """A client of the table, with every `chat` message the host sent it, as sent."""

    def __init__(self, port: int, name: str, tmp: Path, *, spectator: bool = False) -> None:
        self.heard: list[Chat] = []
        self.client = TableClient(
            f"127.0.0.1:{port}",
            name,
            KnownHosts(tmp / f"{name}_hosts"),
            spectator=spectator,
            trace=self._trace,
            settings=ClientSettings(retry_delays=(0.5,)),
        )
        self.runner = asyncio.create_task(self.client.run())

    def _trace(self, message: Message) -> None:
        if isinstance(message, Chat):
            self.heard.append(message)

    def lines(self) -> list[tuple[str, str]]:
        """The chat as this player's screen shows it."""
        return [(line.name, line.text) for line in self.client.chat]

    async def close(self) -> None:
        self.runner.cancel()


async def until(what: str, condition: Callable[[], bool], timeout: float = 15) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def test_a_newcomer_and_a_spectator_read_what_was_said_before_they_came(
    tmp_path: Path,
) -> None:
    server, port, _ = host(tmp_path, "--game", "via-gladiola", "--players", "3", "--port", "0")
    guests: list[Guest] = []
    try:
        ann = Guest(port, "Ann", tmp_path)
        guests.append(ann)
        await until("Ann's seat", lambda: ann.client.lobby is not None)
        await ann.client.say("hello")
        await ann.client.say("anyone?")
        await until("Ann's own lines", lambda: len(ann.client.chat) == 2)
        assert [m.earlier for m in ann.heard] == [False, False], "a live line is not 'earlier'"

        bea = Guest(port, "Bea", tmp_path)
        watcher = Guest(port, "Wes", tmp_path, spectator=True)
        guests += [bea, watcher]
        for guest in (bea, watcher):
            await until(f"{guest.client.name}'s backlog", lambda g=guest: len(g.client.chat) == 2)
            assert guest.lines() == [("Ann", "hello"), ("Ann", "anyone?")]
            assert [m.earlier for m in guest.heard] == [True, True]
        await bea.client.say("hi Ann")
        await until("Bea's line everywhere", lambda: all(len(g.client.chat) == 3 for g in guests))
        # Ann was there all along: she is not told again what she already read.
        assert ann.lines() == [("Ann", "hello"), ("Ann", "anyone?"), ("Bea", "hi Ann")]
        assert [m.earlier for m in ann.heard] == [False, False, False]
    finally:
        for guest in guests:
            await guest.close()
        server.kill()


async def test_only_the_last_lines_are_kept_for_newcomers(tmp_path: Path) -> None:
    server, port, _ = host(tmp_path, "--game", "via-gladiola", "--players", "3", "--port", "0")
    guests: list[Guest] = []
    try:
        ann = Guest(port, "Ann", tmp_path)
        speakers = [ann, *(Guest(port, n, tmp_path, spectator=True) for n in ("Wes", "Xia"))]
        guests += speakers
        await until("all in", lambda: all(g.client.lobby is not None for g in guests))
        said = [f"line {n}" for n in range(CHAT_MEMORY + 4)]
        for n, text in enumerate(said):  # three speakers, each within its chat rate
            await speakers[n % 3].client.say(text)
        await until("every line", lambda: len(ann.client.chat) == len(said))

        cas = Guest(port, "Cas", tmp_path)
        guests.append(cas)
        await until("Cas's backlog", lambda: len(cas.client.chat) == CHAT_MEMORY)
        await asyncio.sleep(0.2)  # nothing more comes
        # the last lines in the order the table heard them (three speakers may cross)
        assert sorted(text for _name, text in ann.lines()) == sorted(said)
        assert cas.lines() == ann.lines()[-CHAT_MEMORY:]
    finally:
        for guest in guests:
            await guest.close()
        server.kill()


async def test_a_player_back_from_a_dropped_link_reads_what_was_said_meanwhile_once(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "game.journal"
    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "2", "--port", "0",
        "--journal", str(journal),
    )  # fmt: skip
    guests: list[Guest] = []
    try:
        ann, bea = Guest(port, "Ann", tmp_path), Guest(port, "Bea", tmp_path)
        guests += [ann, bea]
        await until("both seated", lambda: all(g.client.token is not None for g in guests))
        for guest in guests:
            await guest.client.set_ready(True)
        await until("the game", lambda: all(g.client.view is not None for g in guests))
        await ann.client.say("shall we?")
        await bea.client.say("gg")
        await until("both lines", lambda: len(bea.client.chat) == 2)

        while not bea.client.updates.empty():  # what Bea's screen has taken in so far
            bea.client.updates.get_nowait()

        def bea_away() -> bool:
            lobby = ann.client.lobby
            return lobby is not None and not any(
                s.name == "Bea" and s.connected for s in lobby.seats
            )

        # Bea's link drops (the connection is cut under her); she reconnects with her token.
        assert bea.client._writer is not None
        bea.client._writer.transport.abort()
        await until("the host to see Bea gone", bea_away)
        await ann.client.say("shall we?")  # the same line again, said while Bea was away
        await ann.client.say("where did Bea go?")
        notices: list[object] = []

        async def resumed() -> None:
            while not any(isinstance(n, SeatTaken) and n.resumed for n in notices):
                notices.append(await bea.client.updates.get())

        await asyncio.wait_for(resumed(), 15)
        await until("the lines said meanwhile", lambda: len(bea.client.chat) == 4)
        await asyncio.sleep(0.2)  # and nothing more
        while not bea.client.updates.empty():
            notices.append(bea.client.updates.get_nowait())
        assert bea.lines() == [
            ("Ann", "shall we?"),
            ("Bea", "gg"),
            ("Ann", "shall we?"),
            ("Ann", "where did Bea go?"),
        ]
        # The table's memory of the chat is the host's memory: nothing of it is on the disk.
        assert journal.exists()
        folders = [tmp_path, Path(os.environ["NETCARDS_DATA_DIR"]).parent]
        files = [f for folder in folders for f in folder.rglob("*") if f.is_file()]
        assert journal in files
        assert not [f for f in files if b"where did Bea go?" in f.read_bytes()]
        shown = [n for n in notices if isinstance(n, ChatLine)]
        assert [(n.name, n.text) for n in shown] == [
            ("Ann", "shall we?"),
            ("Ann", "where did Bea go?"),
        ]
    finally:
        for guest in guests:
            await guest.close()
        server.kill()
