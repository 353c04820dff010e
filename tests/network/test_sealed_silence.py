"""Silence has a name, over real loopback sockets: a player whose program never sends its mask
step stalls a sealed table, and every other program (a player's, `netcards bot`, a spectator's)
says whom it waits for and for what; when the host then closes the table, every verdict (the
host's too) names that seat and that step. A host that stays alive while its game waits is
never taken for frozen, however short the wait for a frozen host is set; one that freezes
(SIGSTOP: its links stay open, nothing comes) is given up on within that wait, and `netcards
bot` exits with a verdict that names the host."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from netcards.table import Table
from protocol.client import ClientSettings, SeatTaken, TableClient, TableClosed, ViewChanged
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts
from protocol.messages import Sealed
from protocol.sealed.messages import SealStep, decode
from protocol.sealed_play.awaited import Awaited
from tests.network.processes import bot, host, own_dirs, wait_for

TITLES = [
    ("via-gladiola", {}),
    ("velonimo", {"difficulties": [1, 2]}),
    ("auf-achse", {}),
]
SILENCE = 2.0
"""How long the players' programs here wait on a host that says nothing at all."""


def never_sends(client: TableClient, kind: str) -> None:
    """A program, modified: it never sends its first step of `kind` (nor anything sealed after
    it)."""
    real = client._send
    silent = False

    async def send(message: Any) -> None:
        nonlocal silent
        if isinstance(message, Sealed):
            msg = decode(message.message)
            silent = silent or (isinstance(msg, SealStep) and msg.kind == kind)
            if silent:
                return
        await real(message)

    client._send = send  # type: ignore[method-assign]


def never_masks(client: TableClient) -> None:
    """Bob's program, modified: it never sends its mask step (and nothing sealed after it)."""
    never_sends(client, "mask")


async def ready(client: TableClient) -> None:
    while client.seat is None or client.lobby is None:
        notice = await client.updates.get()
        if isinstance(notice, SeatTaken):
            break
    await client.set_ready(True)


async def closed(client: TableClient) -> TableClosed:
    while True:
        notice = await client.updates.get()
        if isinstance(notice, TableClosed):
            return notice


@pytest.mark.parametrize(("title", "options"), TITLES, ids=[t for t, _ in TITLES])
async def test_a_seat_that_never_masks_is_named_by_every_program_and_every_verdict(
    tmp_path: Path, title: str, options: dict[str, Any]
) -> None:
    table = Table.create(title, 3, options, name="t", host_part=os.urandom(32), sealed=True)
    lines: list[str] = []
    server = TableHost(
        table,
        IdentityKey.generate(os.urandom),
        settings=HostSettings(grace=0.0),
        log=lines.append,
    )
    port = await server.start()
    settings = ClientSettings(host_silence=SILENCE)
    ann, bob = (
        TableClient(f"127.0.0.1:{port}", name, KnownHosts(tmp_path / name), settings=settings)
        for name in ("Ann", "Bob")
    )
    eve = TableClient(
        f"127.0.0.1:{port}", "Eve", KnownHosts(tmp_path / "eve"), spectator=True, settings=settings
    )
    never_masks(bob)
    runners = [asyncio.create_task(c.run()) for c in (ann, bob, eve)]
    env = {**own_dirs(tmp_path / "cy"), "NETCARDS_HOST_SILENCE": str(SILENCE)}
    cy = None
    try:
        await asyncio.wait_for(asyncio.gather(ready(ann), ready(bob)), 30)
        cy = bot(tmp_path, port, "Cy", env=env)
        bob_seat = bob.seat
        assert bob_seat is not None
        masked = Awaited(bob_seat, "mask")

        async def stalled() -> None:
            while ann.awaited != (masked,) or eve.awaited != (masked,):
                await asyncio.sleep(0.05)

        await asyncio.wait_for(stalled(), 60)
        label = f"Bob (seat {bob_seat + 1})"
        said = f"Cy: waiting for {label} to shuffle the cards"
        await asyncio.to_thread(wait_for, lambda: said in cy.stderr(), 30, "the bot's word")
        # Nobody is offered a move meanwhile, and the wait lasts: the host, waiting too, keeps
        # answering every program's pings, so that none of them takes it for frozen.
        assert not ann.legal_actions() and ann.to_act == ()
        await asyncio.sleep(3 * SILENCE)
        assert ann.awaited == (masked,) and ann.connected and eve.connected
        assert cy.popen.poll() is None, cy.stderr()
        assert "link down" not in cy.stderr() and "stopped answering" not in cy.stderr()
        await server.close()
        verdicts = [(await asyncio.wait_for(closed(c), 30)).verdict for c in (ann, eve)]
        assert cy.wait(30) == 1
    finally:
        for c in (ann, bob, eve):
            await c.leave("done")
        for r in runners:
            r.cancel()
        await server.close()
        if cy is not None:
            cy.kill()
    why = f"the table closed while waiting for {label} to shuffle the cards"
    for c, verdict in zip((ann, eve), verdicts, strict=True):
        assert verdict is not None and verdict.unchecked == [why], (c.name, verdict)
        assert c.sealed_verdict == f"deal not checked: {why}"
    assert f"deal not checked: {why}" in cy.stdout(), cy.stdout()
    assert any(line == f"the sealed game is not checked: {why}" for line in lines), lines


def test_a_frozen_host_is_given_up_on_and_named_by_netcards_bot(tmp_path: Path) -> None:
    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "2", "--bots", "1", "--sealed",
        "--port", "0",
    )  # fmt: skip
    trace = tmp_path / "ann.jsonl"
    env = {**own_dirs(tmp_path / "ann"), "NETCARDS_HOST_SILENCE": "3"}
    ann = bot(tmp_path, port, "Ann", "--delay", "0.3", "--log", str(trace), env=env)
    frozen = 0.0
    try:
        wait_for(lambda: trace.exists() and trace.read_text().count("seal_acted") >= 4, 60, "play")
        server.popen.send_signal(signal.SIGSTOP)
        frozen = time.monotonic()
        code = ann.wait(60)
        took = time.monotonic() - frozen
    finally:
        if frozen:
            server.popen.send_signal(signal.SIGCONT)
        server.kill()
        ann.kill()
    assert code != 0
    out = ann.stdout()
    assert "deal not checked: the host stopped answering" in out, out + ann.stderr()
    assert "deal verified" not in out
    # Within the wait set (3 s of silence on open links), give or take the pauses between
    # reconnections and a loaded machine: never the 10 minutes a vanished host is given.
    assert 3 <= took < 30, took


async def play_until(client: TableClient, rng: random.Random, done: Any) -> None:
    """Ready, then a random legal move whenever asked, until `done()`."""
    while not done():
        try:
            notice = await asyncio.wait_for(client.updates.get(), 0.5)
        except TimeoutError:
            continue
        if isinstance(notice, SeatTaken) and not notice.resumed:
            await client.set_ready(True)
        if isinstance(notice, ViewChanged) and client.my_turn and client.legal_actions():
            with contextlib.suppress(ConnectionError):
                await client.act(rng.choice(client.legal_actions()))


async def test_a_seat_that_withholds_its_secrets_is_named_at_the_end(tmp_path: Path) -> None:
    """The game is over and scored, and Bob's program never publishes its secrets: Ann's
    results screen waits for them, naming Bob, and her verdict when the host closes the table
    names him and that step; so does the host's log."""
    table = Table.create("via-gladiola", 3, {}, name="t", host_part=os.urandom(32), sealed=True)
    table.add_bot("random", 2)
    lines: list[str] = []
    server = TableHost(
        table, IdentityKey.generate(os.urandom), settings=HostSettings(), log=lines.append
    )
    port = await server.start()
    ann, bob = (
        TableClient(f"127.0.0.1:{port}", name, KnownHosts(tmp_path / name))
        for name in ("Ann", "Bob")
    )
    never_sends(bob, "secrets")
    runners = [asyncio.create_task(c.run()) for c in (ann, bob)]
    try:

        def waiting() -> bool:
            return bob.seat is not None and ann.awaited == (Awaited(bob.seat, "secrets"),)

        rng = random.Random(5)
        await asyncio.wait_for(
            asyncio.gather(play_until(ann, rng, waiting), play_until(bob, rng, waiting)), 240
        )
        assert ann.outcome is not None and ann.verdict is None, "scored, and not checked"
        await server.close()
        verdict = (await asyncio.wait_for(closed(ann), 30)).verdict
    finally:
        for c in (ann, bob):
            await c.leave("done")
        for r in runners:
            r.cancel()
        await server.close()
    assert bob.seat is not None
    why = f"the table closed while waiting for Bob (seat {bob.seat + 1}) to publish their secrets"
    assert verdict is not None and verdict.unchecked == [why], verdict
    assert f"the sealed game is not checked: {why}" in lines, lines
