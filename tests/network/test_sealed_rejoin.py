"""A sealed seat taken back (docs/sealed.md, section 8, "Who holds which secrets"), over real
loopback sockets: a player who drops comes back with its seat token and the seed it kept, is
sent its seat's whole history, rebuilds its seat and plays on; a host that crashed resumes the
sealed game from its journal. Every program's audit then says `deal verified`.

Each title plays it: Via Gladiola; Velonimo, whose player drops (or whose host crashes) right
after it committed to a turtle's public random draw, before the draw is opened; Auf Achse, whose
player drops (or whose host crashes) right after it committed to its run card, before the
openings."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import random
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from netcards.table import Table
from protocol.client import Failed, HostRefused, SeatTaken, TableClient, ViewChanged
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.journal_file import JournalWriter, read_journal
from protocol.known_hosts import KnownHosts
from protocol.messages import Sealed
from protocol.sealed.messages import SealAct, SealMessage, SealStep, decode, encode
from protocol.sealed_play.host import SealedHost
from protocol.sealed_play.memory import SealedMemory
from protocol.seat_tokens import SeatTokens
from tests.protocol.test_sealed_game_choices import FAST

BOT = 2


Seats = Sequence[int]


@dataclasses.dataclass(frozen=True)
class Title:
    """A title as these tests play it: three seats (two players and a bot at `BOT`), the
    message of a player's after which it drops (or its host crashes) while what it began is
    still open (None: after a few moves), and whether one of some seats has begun such a
    thing the host has not seen finished."""

    id: str
    options: dict[str, Any]
    pending: Callable[[SealMessage], bool] | None = None
    left_open: Callable[[SealedHost, Seats], bool] = lambda host, seats: True


def draw_committed(msg: SealMessage) -> bool:
    """Its commitment to a public random draw, sent before anyone opens the draw."""
    return isinstance(msg, SealStep) and msg.kind == "draw_commit"


def choice_committed(msg: SealMessage) -> bool:
    """Its commitment to a simultaneous choice, sent before anyone opens the step."""
    return isinstance(msg, SealAct) and msg.action.get("kind") == "commit"


def draw_left_open(host: SealedHost, seats: Seats) -> bool:
    """One of `seats` has committed to the draw under way, and not opened it."""
    draws = host.relay.draws
    committed, opened = (d.get(draws.current, {}) for d in (draws.commitments, draws.nonces))
    return any(s in committed and s not in opened for s in seats)


def choice_left_open(host: SealedHost, seats: Seats) -> bool:
    """One of `seats` has committed to the choice step under way, and not opened it."""
    step = host.state.choices.current
    return step is not None and any(step.committed(s) for s in seats)


TITLES = [
    Title("via-gladiola", {}),
    Title("velonimo", {"difficulties": [1, 2]}, draw_committed, draw_left_open),
    Title("auf-achse", {"deck": FAST}, choice_committed, choice_left_open),
]
EVERY_TITLE = pytest.mark.parametrize("title", TITLES, ids=[t.id for t in TITLES])


class Player:
    """One human seat's program: a `TableClient` with its seat files, playing random moves."""

    def __init__(self, tmp: Path, port: int, name: str, token: bytes | None = None) -> None:
        self.tokens = SeatTokens(tmp / f"seats-{name}")
        address = f"127.0.0.1:{port}"
        self.heard: list[Any] = []
        self.client = TableClient(
            address,
            name,
            KnownHosts(tmp / f"hosts-{name}"),
            token=token,
            seed_file=self.tokens.sealed_seed(address, name),
            trace=self.heard.append,
        )
        self.runner = asyncio.create_task(self.client.run())
        self.failed: Failed | None = None
        self.refused: list[HostRefused] = []
        self.sent_pending = False
        """It sent the message its title's `pending` picks out (see `stop_after`)."""

    def stop_after(self, pending: Callable[[SealMessage], bool], then: Callable[[], None]) -> None:
        """Once this program has sent a message `pending` picks out, `then` happens at once,
        before anything else does."""
        real = self.client._send

        async def send(message: Any) -> None:
            await real(message)
            sealed = isinstance(message, Sealed) and decode(message.message)
            if not self.sent_pending and sealed and pending(sealed):
                self.sent_pending = True
                then()

        self.client._send = send  # type: ignore[method-assign]

    async def play(self, rng: random.Random, until: Any = None) -> None:
        """Ready, then a random legal move whenever asked, until the verdict (or `until()`)."""
        c = self.client
        while c.sealed_verdict is None and not (until is not None and until()):
            try:
                notice = await asyncio.wait_for(c.updates.get(), 1)
            except TimeoutError:
                continue
            if isinstance(notice, Failed):
                self.failed = notice
                return
            if isinstance(notice, HostRefused):
                self.refused.append(notice)
            if isinstance(notice, SeatTaken) and not notice.resumed:
                await c.set_ready(True)
            if isinstance(notice, ViewChanged) and c.my_turn:
                legal = c.legal_actions()
                if legal:
                    with contextlib.suppress(ConnectionError):
                        await c.act(rng.choice(legal))

    def crash(self) -> None:
        """The program dies: its link drops, nothing is said."""
        self.runner.cancel()
        self.client._hang_up()


async def open_table(
    tmp: Path,
    journal: JournalWriter | None = None,
    identity: IdentityKey | None = None,
    title: Title = TITLES[0],
) -> TableHost:
    table = Table.create(
        title.id, 3, title.options, name="t", host_part=os.urandom(32), sealed=True
    )
    table.add_bot("random", BOT)
    server = TableHost(
        table,
        identity or IdentityKey.generate(os.urandom),
        settings=HostSettings(grace=0.0),
        journal=journal,
    )
    await server.start()
    return server


def moves(server: TableHost) -> int:
    host = server.session.sealed_host
    return 0 if host is None else len(host.actions)


async def until(check: Any, seconds: float = 60) -> None:
    async def wait() -> None:
        while not check():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(wait(), seconds)


async def finish(players: list[Player], rng: random.Random) -> None:
    await asyncio.wait_for(asyncio.gather(*(p.play(rng) for p in players)), 300)


async def until_mid_game(
    server: TableHost,
    players: list[Player],
    rng: random.Random,
    title: Title,
    then: Callable[[], None],
) -> None:
    """Play on to the middle of the game, where `then` happens: right after the last player
    sent its title's `pending` message, else a few moves in."""
    last = players[-1]
    if title.pending is None:
        done: Callable[[], bool] = lambda: moves(server) >= 4  # noqa: E731
    else:
        last.stop_after(title.pending, then)
        done = lambda: last.sent_pending  # noqa: E731
    await asyncio.wait_for(asyncio.gather(*(p.play(rng, done) for p in players)), 240)
    assert done(), "the game ended before the moment it was to be left at"
    if title.pending is None:
        then()


def halt(server: TableHost) -> None:
    """The host dies: no word to anyone, no `closed` record, it reads nothing more and its
    links simply drop (`close` then only tidies up)."""
    server.session.end_table = lambda: []  # type: ignore[method-assign]
    if server._server is not None:
        server._server.close()
    for peer in list(server.peers.values()):
        peer.writer.transport.abort()


async def close(server: TableHost, players: list[Player]) -> None:
    for p in players:
        with contextlib.suppress(Exception):
            await p.client.leave("done")
        p.runner.cancel()
    await server.close()


@EVERY_TITLE
async def test_a_dropped_player_takes_its_seat_back_and_the_game_is_verified(
    tmp_path: Path, title: Title
) -> None:
    server = await open_table(tmp_path, title=title)
    ann, bob = Player(tmp_path, server.port, "A"), Player(tmp_path, server.port, "B")
    rng = random.Random(3)
    everyone = [ann, bob]
    try:
        await until_mid_game(server, everyone, rng, title, bob.crash)
        token, seat = bob.client.token, bob.client.seat
        assert token is not None and seat is not None
        await until(lambda: not server.table.seats[seat].connected)
        assert server.session.sealed_host is not None
        assert title.left_open(server.session.sealed_host, [seat])
        told = bob.tokens.sealed_seed(bob.client.address, "B").told.path
        assert len(told.read_bytes().splitlines()) > 5, "what the host told the seat is kept"
        bob = Player(tmp_path, server.port, "B", token=token)  # the program started again
        everyone = [ann, bob]
        await finish(everyone, rng)
    finally:
        await close(server, everyone)
    assert bob.client.seat == seat and bob.failed is None
    assert [p.client.sealed_verdict for p in everyone] == ["deal verified", "deal verified"]
    assert server.session.sealed_host is not None
    assert server.session.sealed_host.verdict == "deal verified"
    assert not [r for r in ann.refused + bob.refused if r.code == "cheated"]
    kept = bob.tokens.sealed_seed(bob.client.address, "B")
    assert not kept.path.exists(), "the seed of a checked game is gone"
    assert not kept.told.path.exists(), "and what its host told the seat"


async def test_the_seed_file_is_the_users_alone_holds_no_card_and_without_it_the_seat_waits(
    tmp_path: Path,
) -> None:
    server = await open_table(tmp_path)
    ann, bob = Player(tmp_path, server.port, "A"), Player(tmp_path, server.port, "B")
    rng = random.Random(5)
    try:
        await asyncio.wait_for(
            asyncio.gather(*(p.play(rng, lambda: moves(server) >= 2) for p in (ann, bob))), 120
        )
        path = bob.tokens.sealed_seed(bob.client.address, "B").path
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        kept = json.loads(path.read_text())
        assert set(kept) == {"game", "commitment", "seat", "seed"}
        assert len(bytes.fromhex(kept["seed"])) == 32 and kept["seat"] == bob.client.seat
        token, seat = bob.client.token, bob.client.seat
        assert token is not None and seat is not None
        bob.crash()
        path.unlink()
        await until(lambda: not server.table.seats[seat].connected)
        played = moves(server)
        again = Player(tmp_path, server.port, "B", token=token)
        await asyncio.wait_for(again.play(rng), 30)
        failed = again.failed
        assert failed is not None and failed.code == "no_secrets"
        assert "cannot take back seat" in failed.reason and "\n" not in failed.reason
        await until(lambda: not server.table.seats[seat].connected)
        waiting = [n for n in ann.client.notices if n.code == "waiting" and n.args["seat"] == seat]
        assert len(waiting) >= 2, "the table says again that it waits for the seat"
        await asyncio.sleep(0.3)
        assert moves(server) == played and not server.table.seats[seat].stand_in
        assert server.table.phase == "playing"
    finally:
        await close(server, [ann, bob])


@EVERY_TITLE
async def test_a_crashed_host_resumes_its_sealed_game_from_the_journal(
    tmp_path: Path, title: Title
) -> None:
    journal_path = tmp_path / "journal"
    identity = IdentityKey.generate(os.urandom)
    server = await open_table(tmp_path, JournalWriter(journal_path), identity, title)
    port = server.port
    ann, bob = Player(tmp_path, port, "A"), Player(tmp_path, port, "B")
    rng = random.Random(11)
    resumed: TableHost | None = None
    try:
        await until_mid_game(server, [ann, bob], rng, title, lambda: halt(server))
        played = moves(server)
        await server.close()
        records = read_journal(journal_path)
        assert not any(r.get("type") == "closed" for r in records)
        table = Table.from_journal(records)
        assert table.sealed and table.phase == "playing"
        resumed = TableHost(
            table, identity, settings=HostSettings(grace=0.0), journal=JournalWriter(journal_path)
        )
        resumed.session.resume_sealed(records)
        assert moves(resumed) >= played - 1  # at most the move on its way was lost
        assert resumed.session.sealed_host is not None
        assert title.left_open(resumed.session.sealed_host, range(3))
        await resumed.start(port=port)
        await finish([ann, bob], rng)
    finally:
        await close(resumed or server, [ann, bob])
    assert [p.client.sealed_verdict for p in (ann, bob)] == ["deal verified", "deal verified"]
    assert resumed.session.sealed_host is not None
    assert resumed.session.sealed_host.verdict == "deal verified"


# -- attacks ------------------------------------------------------------------------------------


async def test_a_host_that_alters_a_step_of_the_history_it_sends_back_is_named(
    tmp_path: Path, monkeypatch: Any
) -> None:
    real = SealedMemory.history

    def altered(self: SealedMemory, seat: int) -> list[SealMessage]:
        out = real(self, seat)
        for i, msg in enumerate(out):
            if isinstance(msg, SealStep) and msg.kind == "rekey" and msg.seat == BOT:
                elements = list(msg.body["elements"])
                elements[0], elements[1] = elements[1], elements[0]
                out[i] = dataclasses.replace(msg, body={**msg.body, "elements": elements})
                break
        return out

    server = await open_table(tmp_path)
    ann, bob = Player(tmp_path, server.port, "A"), Player(tmp_path, server.port, "B")
    rng = random.Random(13)
    try:
        await asyncio.wait_for(
            asyncio.gather(*(p.play(rng, lambda: moves(server) >= 2) for p in (ann, bob))), 120
        )
        token, seat = bob.client.token, bob.client.seat
        bob.crash()
        await until(lambda: seat is not None and not server.table.seats[seat].connected)
        monkeypatch.setattr(SealedMemory, "history", altered)
        again = Player(tmp_path, server.port, "B", token=token)
        await asyncio.wait_for(again.play(rng), 30)
    finally:
        await close(server, [ann, bob])
    verdict = again.client.sealed_verdict
    assert verdict is not None and verdict.startswith("deal NOT verified: the host: forged")
    assert again.client.verdict is not None and len(again.client.verdict.problems) == 1


async def test_a_restarted_player_sent_a_history_its_host_rewound_names_the_host(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """The player's program is closed in the middle of the game and started again: it has only
    its seat folder. The host sends back a history in which one of its bot's steps says
    otherwise, signed again with the bot's key (docs/sealed.md, section 8, "Rewinding"): the
    program read back what its seat was told before it was closed, and names the host."""
    server = await open_table(tmp_path)

    def rewound(self: SealedMemory, seat: int) -> list[SealMessage]:
        out = real(self, seat)
        host = server.session.sealed_host
        assert host is not None
        for i, msg in enumerate(out):
            if isinstance(msg, SealStep) and msg.kind == "mask" and msg.seat == BOT:
                elements = list(msg.body["elements"])
                elements[0], elements[1] = elements[1], elements[0]
                body = {**msg.body, "elements": elements}
                out[i] = host.bots[BOT].sign(msg.kind, body, msg.round)
                break
        else:
            raise AssertionError("the bot's mask step is not in the history")
        return out

    real = SealedMemory.history
    ann, bob = Player(tmp_path, server.port, "A"), Player(tmp_path, server.port, "B")
    rng = random.Random(19)
    try:
        await asyncio.wait_for(
            asyncio.gather(*(p.play(rng, lambda: moves(server) >= 2) for p in (ann, bob))), 120
        )
        token, seat = bob.client.token, bob.client.seat
        told = bob.tokens.sealed_seed(bob.client.address, "B").told.path
        assert stat.S_IMODE(told.stat().st_mode) == 0o600
        bob.crash()
        await until(lambda: seat is not None and not server.table.seats[seat].connected)
        monkeypatch.setattr(SealedMemory, "history", rewound)
        again = Player(tmp_path, server.port, "B", token=token)  # a new program, same folder
        await asyncio.wait_for(again.play(rng), 30)
    finally:
        await close(server, [ann, bob])
    verdict = again.client.sealed_verdict
    assert verdict is not None and verdict.startswith("deal NOT verified: the host: rewritten")


async def test_a_repeated_step_is_ignored_and_a_different_one_for_the_same_place_is_replayed(
    tmp_path: Path,
) -> None:
    server = await open_table(tmp_path)
    ann, bob = Player(tmp_path, server.port, "A"), Player(tmp_path, server.port, "B")
    rng = random.Random(17)
    try:
        await asyncio.wait_for(
            asyncio.gather(*(p.play(rng, lambda: moves(server) >= 1) for p in (ann, bob))), 120
        )
        seat = ann.client.seat
        mine = [
            m
            for m in (decode(h.message) for h in ann.heard if isinstance(h, Sealed))
            if isinstance(m, SealStep) and m.seat == seat and m.kind == "mask"
        ]
        assert len(mine) == 1
        mask = mine[0]
        refused_before = len(ann.refused)
        await ann.client._send(Sealed(encode(mask)))  # byte for byte what the host took
        elements = list(mask.body["elements"])
        elements[0], elements[1] = elements[1], elements[0]
        assert ann.client.sealed is not None
        other = ann.client.sealed.driver.sign("mask", {"elements": elements}, mask.round)
        await ann.client._send(Sealed(encode(other)))
        cheated: list[Any] = []

        async def heard() -> None:
            while not cheated:
                notice = await ann.client.updates.get()
                if isinstance(notice, HostRefused):
                    ann.refused.append(notice)
                cheated[:] = [n for n in bob.client.notices if n.code == "cheated"]

        await asyncio.wait_for(heard(), 30)
        await asyncio.sleep(0.5)  # anything said of the first one would have come before
        while not ann.client.updates.empty():
            notice = ann.client.updates.get_nowait()
            if isinstance(notice, HostRefused):
                ann.refused.append(notice)
    finally:
        await close(server, [ann, bob])
    refusals = ann.refused[refused_before:]
    assert [r.code for r in refusals] == ["cheated"], "the exact repeat was refused too"
    assert "replayed" in refusals[0].text
    assert cheated[0].args["seat"] == seat and cheated[0].args["kind"] == "replayed"
    relayed = [
        m
        for m in (decode(h.message) for h in bob.heard if isinstance(h, Sealed))
        if isinstance(m, SealStep) and m.seat == seat and m.kind == "mask"
    ]
    assert relayed == [mask], "neither step was relayed again"
