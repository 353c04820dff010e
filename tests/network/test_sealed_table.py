"""A sealed Via Gladiola table played over real loopback sockets with the shipped `TableClient`:
the host seats bots it plays in memory, each player's client runs its own engine and seat, and
at the end every client audits the game and says `deal verified`."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from netcards.games.via_gladiola.sealed import SealedViaGladiola, SealedWalk
from netcards.sealed_cards import SLOT_BASE, seat_event
from netcards.table import Table
from protocol.client import (
    Failed,
    GameStarted,
    HostRefused,
    SeatTaken,
    TableClient,
    ViewChanged,
)
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts
from protocol.messages import Result, Sealed
from protocol.sealed.messages import SealAct, SealMessage, SealOpen, SealReveal, SealStep, encode
from protocol.sealed.round_driver import Outgoing
from protocol.sealed_play.host import SealedHost
from protocol.sealed_play.progress import where
from protocol.table_session.sealed_play import SealedPlay
from tests.protocol.test_sealed_game_knowledge import BOT, HUMAN, hidden_hand, search

ENGINE = SealedViaGladiola()


async def play(client: TableClient, rng: random.Random) -> None:
    """A player who readies and then makes a random legal move whenever it is asked to."""
    while client.sealed_verdict is None:
        notice = await asyncio.wait_for(client.updates.get(), 30)
        if isinstance(notice, Failed):
            return
        if isinstance(notice, SeatTaken):
            await client.set_ready(True)
        if isinstance(notice, ViewChanged) and client.my_turn:
            legal = client.legal_actions()
            if legal:
                try:
                    await client.act(rng.choice(legal))
                except ConnectionError:  # its program named a cheat and left: so does it
                    if client.sealed_verdict is None:
                        raise
                    return


async def sealed_game(
    tmp_path: Path,
    players: int,
    bots: list[int],
    title: str = "via-gladiola",
    options: dict[str, Any] | None = None,
    within: float = 120,
    unawaited: Sequence[int] = (),
) -> tuple[Table, TableHost, list[TableClient]]:
    """A sealed game of `title` played to its end: humans making random legal moves (their
    `TableClient`s over loopback) beside the host's random bots at `bots`. The players at
    `unawaited` (their clients' indices: a cheat's program, which need not find its own
    cheat) play on until the others are done."""
    table = Table.create(
        title, players, options or {}, name="t", host_part=os.urandom(32), sealed=True
    )
    for seat in bots:
        table.add_bot("random", seat)
    server = TableHost(table, IdentityKey.generate(os.urandom), settings=HostSettings())
    port = await server.start()
    clients = [
        TableClient(f"127.0.0.1:{port}", f"P{i}", KnownHosts(tmp_path / f"hosts{i}"))
        for i in range(players - len(bots))
    ]
    runners = [asyncio.create_task(c.run()) for c in clients]
    try:
        rng = random.Random(players)
        playing = [asyncio.create_task(play(c, rng)) for c in clients]
        awaited = [t for i, t in enumerate(playing) if i not in unawaited]
        await asyncio.wait_for(asyncio.gather(*awaited), within)
    finally:
        for task in playing:
            task.cancel()
        for c in clients:
            await c.leave("done")
        for r in runners:
            r.cancel()
        await server.close()
    return table, server, clients


async def test_an_honest_sealed_game_for_two_is_played_and_verified(tmp_path: Path) -> None:
    table, _, clients = await sealed_game(tmp_path, 2, bots=[1])
    assert [c.sealed_verdict for c in clients] == ["deal verified"]
    assert table.phase == "over"
    assert clients[0].sealed is not None and clients[0].sealed.actions
    # The game's log is the player's own engine's: every move in it, each as its events say.
    seat = clients[0].sealed
    kinds = [e["kind"] for e in clients[0].log]
    knowledge = seat.mirror.knowledge
    known = [seat_event(e, seat.seat, knowledge) for e in seat.mirror.events]
    assert len(clients[0].log) == len(known)
    for logged, now in zip(clients[0].log, known, strict=True):
        assert logged.items() <= now.items()  # as it knew it then: the same, or less
    # ... its own cards named once opened to it, as the classic game's log names them (the
    # game's last draw is never opened to its drawer: the end shows every hand instead)
    drawn = [e for e in clients[0].log if e["kind"] == "draw" and e["seat"] == seat.seat]
    assert drawn[:-1] and all(len(e["cards"]) == e["count"] for e in drawn[:-1])
    moves = [k for k in kinds if k in ("walk", "rest", "gladiola")]
    assert len(moves) == len(seat.actions) > 0


async def test_an_honest_sealed_game_for_four_is_played_and_verified(tmp_path: Path) -> None:
    table, _, clients = await sealed_game(tmp_path, 4, bots=[1, 3])
    assert [c.sealed_verdict for c in clients] == ["deal verified", "deal verified"]
    assert sorted(c.seat for c in clients) == [0, 2]
    assert table.phase == "over"


# -- what the host could know ----------------------------------------------------------------


async def test_the_host_process_can_name_no_card_of_the_players_hand_before_it_is_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Everything the host process held (its relay's rounds, its bot's secrets, its engine's
    knowledge, every sealed message it received) is searched, each time the player is asked to
    move, for the cards of the player's hand still hidden: none turns up, while the bot's cards
    (which the host may know) do."""
    received: list[tuple[int, SealMessage]] = []
    real = SealedHost.receive

    def recording(self: SealedHost, sender: int, msg: SealMessage) -> list[Outgoing]:
        received.append((sender, msg))
        return real(self, sender, msg)

    monkeypatch.setattr(SealedHost, "receive", recording)
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=os.urandom(32), sealed=True)
    table.add_bot("random", BOT)
    server = TableHost(table, IdentityKey.generate(os.urandom), settings=HostSettings())
    port = await server.start()
    ann = TableClient(f"127.0.0.1:{port}", "Ann", KnownHosts(tmp_path / "hosts"))
    runner = asyncio.create_task(ann.run())
    rng = random.Random(7)
    searched = 0
    try:
        while ann.sealed_verdict is None:
            notice = await asyncio.wait_for(ann.updates.get(), 30)
            if isinstance(notice, SeatTaken):
                await ann.set_ready(True)
            if isinstance(notice, ViewChanged) and ann.my_turn and ann.legal_actions():
                if searched < 2 and len(server.session.sealed_host.actions) >= 4 * searched:
                    host = server.session.sealed_host
                    seen = SimpleNamespace(host=host, seats={HUMAN: ann.sealed}, to_host=received)
                    hidden = hidden_hand(seen)  # type: ignore[arg-type]
                    found = search(seen, {})  # type: ignore[arg-type]
                    assert hidden and not found & set(hidden.values())
                    assert set(host.mirror.knowledge.cards.values()).isdisjoint(hidden.values())
                    bots = {
                        c for kept in host.bots[BOT].rounds.values() for c in kept.hand.values()
                    }
                    assert bots <= found
                    searched += 1
                await ann.act(rng.choice(ann.legal_actions()))
    finally:
        await ann.leave("done")
        runner.cancel()
        await server.close()
    assert searched == 2 and ann.sealed_verdict == "deal verified"


# -- cheats, named ----------------------------------------------------------------------------


async def test_a_client_that_claims_a_card_its_slot_does_not_hold_is_refused_and_named(
    tmp_path: Path,
) -> None:
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=os.urandom(32), sealed=True)
    table.add_bot("random", BOT)
    server = TableHost(table, IdentityKey.generate(os.urandom), settings=HostSettings())
    port = await server.start()
    cheat = TableClient(f"127.0.0.1:{port}", "Cheat", KnownHosts(tmp_path / "hosts"))
    runner = asyncio.create_task(cheat.run())
    refusal: HostRefused | None = None
    try:
        while refusal is None:
            notice = await asyncio.wait_for(cheat.updates.get(), 30)
            if isinstance(notice, SeatTaken):
                await cheat.set_ready(True)
            if isinstance(notice, HostRefused):
                refusal = notice
            if isinstance(notice, ViewChanged) and cheat.my_turn and cheat.sealed is not None:
                seat = cheat.sealed
                walks = [a for a in seat.legal_actions() if isinstance(a, SealedWalk)]
                if not walks:
                    await cheat.act({"kind": "rest"})
                    continue
                walk = walks[0]
                other = next(c for c in seat.view()["hand"] if c != walk.card)
                (claimed,) = seat.act(SealedWalk(walk.slot, other))
                cheat.awaiting = True
                await cheat._send(Sealed(encode(claimed)))
                moves = len(server.session.sealed_host.actions)
        said = [n for n in cheat.notices if n.code == "cheated"]
        while not said:
            notice = await asyncio.wait_for(cheat.updates.get(), 30)
            said = [n for n in cheat.notices if n.code == "cheated"]
    finally:
        await cheat.leave("done")
        runner.cancel()
        await server.close()
    assert refusal.code == "cheated" and "false_claim" in refusal.text
    assert said[0].args["seat"] == HUMAN and said[0].args["kind"] == "false_claim"
    assert len(server.session.sealed_host.actions) == moves, "the claimed move was not applied"


async def test_a_host_that_alters_a_relayed_step_is_named_by_the_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = SealedPlay._sealed_send

    def altering(self: SealedPlay, out: list[Outgoing]) -> None:
        changed = []
        for to, msg in out:
            if isinstance(msg, SealStep) and msg.kind == "rekey" and msg.seat == BOT:
                elements = list(msg.body["elements"])
                elements[0], elements[1] = elements[1], elements[0]
                changed.append(
                    (to, dataclasses.replace(msg, body={**msg.body, "elements": elements}))
                )
            else:
                changed.append((to, msg))
        real(self, changed)

    monkeypatch.setattr(SealedPlay, "_sealed_send", altering)
    _, _, clients = await sealed_game(tmp_path, 2, bots=[BOT])
    verdict = clients[0].sealed_verdict
    assert verdict is not None and verdict.startswith("deal NOT verified: the host: forged")
    problems = clients[0].verdict.problems if clients[0].verdict else []
    assert len(problems) == 1 and problems[0].startswith("the host: forged")


async def test_a_dropped_player_is_waited_for_and_named_with_no_stand_in(tmp_path: Path) -> None:
    table = Table.create("via-gladiola", 3, {}, name="t", host_part=os.urandom(32), sealed=True)
    table.add_bot("random", 2)
    server = TableHost(table, IdentityKey.generate(os.urandom), settings=HostSettings(grace=0.0))
    port = await server.start()
    ann, bob = (
        TableClient(f"127.0.0.1:{port}", name, KnownHosts(tmp_path / name)) for name in "AB"
    )
    runners = [asyncio.create_task(c.run()) for c in (ann, bob)]
    try:

        async def dealt(c: TableClient) -> None:
            while c.sealed is None or c.view is None:
                notice = await asyncio.wait_for(c.updates.get(), 30)
                if isinstance(notice, SeatTaken):
                    await c.set_ready(True)

        await asyncio.gather(dealt(ann), dealt(bob))
        await bob.leave("gone")
        waiting: list[Any] = []
        while not waiting:
            await asyncio.wait_for(ann.updates.get(), 30)
            waiting = [n for n in ann.notices if n.code == "waiting"]
        assert waiting[0].args == {"seat": bob.seat, "name": "B"}
        assert bob.seat is not None and not table.seats[bob.seat].stand_in
        await asyncio.sleep(0.3)  # the grace (none here) is over: still nobody plays for Bob
        assert not table.seats[bob.seat].stand_in
        assert all(seat == 2 for seat, _ in server.session.sealed_host.actions)
    finally:
        await ann.leave("done")
        for r in runners:
            r.cancel()
        await server.close()


async def test_a_move_while_the_deal_is_being_sealed_is_refused_as_step_pending(
    tmp_path: Path,
) -> None:
    """The move goes out right after `start`, before this client has even seen round 0 begin:
    the host, which takes a link's messages in order, has the round still to seal."""
    table = Table.create(
        "via-gladiola", 2, {"first_player": 0}, name="t", host_part=os.urandom(32), sealed=True
    )
    table.add_bot("random", BOT)
    server = TableHost(table, IdentityKey.generate(os.urandom), settings=HostSettings())
    port = await server.start()
    ann = TableClient(f"127.0.0.1:{port}", "Ann", KnownHosts(tmp_path / "hosts"))
    runner = asyncio.create_task(ann.run())
    try:
        while True:
            notice = await asyncio.wait_for(ann.updates.get(), 30)
            if isinstance(notice, SeatTaken):
                await ann.set_ready(True)
            if isinstance(notice, GameStarted):
                await ann._send(Sealed(encode(SealAct({"kind": "rest"}, 1, (), bytes(64)))))
            if isinstance(notice, HostRefused):
                break
        assert notice.code == "step_pending" and not notice.fatal
        assert server.session.sealed_host.actions == []
    finally:
        await ann.leave("done")
        runner.cancel()
        await server.close()


async def test_a_spectator_at_a_sealed_table_breaks_nothing_and_sees_no_hand(
    tmp_path: Path,
) -> None:
    """A spectator who comes in during a sealed game: the game goes on to its verified end, and
    nothing it was sent names a card of a hand (the host has none to give)."""
    table = Table.create("via-gladiola", 2, {}, name="t", host_part=os.urandom(32), sealed=True)
    table.add_bot("random", 1)
    server = TableHost(table, IdentityKey.generate(os.urandom), settings=HostSettings())
    port = await server.start()
    player = TableClient(f"127.0.0.1:{port}", "P0", KnownHosts(tmp_path / "hosts0"))
    said: list[Any] = []
    eve = TableClient(
        f"127.0.0.1:{port}",
        "Eve",
        KnownHosts(tmp_path / "eve"),
        spectator=True,
        trace=said.append,
    )
    runners = [asyncio.create_task(player.run())]
    try:
        rng = random.Random(7)
        game = asyncio.create_task(play(player, rng))
        while not player.sealed or not player.sealed.actions:
            await asyncio.sleep(0.05)
            assert not game.done() or game.exception() is None
        runners.append(asyncio.create_task(eve.run()))
        await asyncio.wait_for(game, 120)
    finally:
        await player.leave("done")
        await eve.leave("done")
        for r in runners:
            r.cancel()
        await server.close()
    assert player.sealed_verdict == "deal verified"
    assert table.phase == "over"
    kinds = {type(m).__name__ for m in said}
    assert "Seated" in kinds, f"the spectator was let in during the game: {kinds}"
    text = repr(said)
    assert "'hand': [" not in text.replace("'hand': []", ""), "no hand reached the spectator"


async def test_a_host_that_says_other_results_than_the_game_s_is_named_by_the_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The results screen would show the host's `result`: a host that adds a point to its own
    seat there is named, and the client keeps the results its own engine worked out."""
    from protocol.table_session import sealed_play

    def lying(outcome: dict[str, Any]) -> Result:
        scores = list(outcome["scores"])
        scores[BOT] += 1
        return Result({**outcome, "scores": scores})

    monkeypatch.setattr(sealed_play, "Result", lying)
    _, server, clients = await sealed_game(tmp_path, 2, bots=[BOT])
    verdict = clients[0].sealed_verdict
    assert verdict is not None and verdict.startswith("deal NOT verified: the host: false_result")
    game = server.session.sealed_host.outcome
    assert clients[0].outcome is not None and clients[0].outcome.to_data() == game.to_data()


@pytest.mark.parametrize("ask", ["reveal", "open_to_bot"])
async def test_a_host_that_asks_for_a_players_hand_unasked_is_named_and_gets_no_scalar(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ask: str
) -> None:
    """A modified host, once a few moves are played, asks the player's program to show its
    hand to everyone, or to open one of its cards to the host's own bot: the program refuses,
    names the host, and not one scalar of its hand reaches the host."""
    real = SealedPlay._sealed_send
    asked: list[SealMessage] = []
    steps_after: list[SealMessage] = []

    def prying(self: SealedPlay, out: list[Outgoing]) -> None:
        host = self.sealed_host
        if host is not None and not asked and len(host.actions) >= 2 and host.state.ledger.ready():
            held = [where(host.state, x) for x in host.state.hands[HUMAN] if x >= SLOT_BASE]
            number, p = held[0]
            msg: SealMessage = (
                SealReveal(number, (p,)) if ask == "reveal" else SealOpen(number, BOT, (p,))
            )
            asked.append(msg)
            out = [*out, (HUMAN, msg)]
        real(self, out)

    received = SealedHost.receive

    def recording(self: SealedHost, sender: int, msg: SealMessage) -> list[Outgoing]:
        if asked and sender == HUMAN and isinstance(msg, SealStep):
            steps_after.append(msg)
        return received(self, sender, msg)

    monkeypatch.setattr(SealedPlay, "_sealed_send", prying)
    monkeypatch.setattr(SealedHost, "receive", recording)
    _, _, clients = await sealed_game(tmp_path, 2, bots=[BOT])
    verdict = clients[0].sealed_verdict
    assert asked, "the host asked"
    assert verdict is not None and verdict.startswith("deal NOT verified: the host: unrequested")
    assert not [s for s in steps_after if s.kind in ("reveal", "scalars", "pass")]
