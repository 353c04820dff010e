"""Spectators of a sealed table, and a sealed game ended while it waits for a dropped player,
over real loopback sockets with the shipped `TableClient`.

A spectator is fed the public view from the host's engine instance: it sees every move, and no
message it gets names a card of a hand before that card is shown to everyone. A card counts as
hidden while some seat holds it (as that seat's own program knows its hand: the player's client,
the host's driver of its bot) and no reveal step has shown it yet. A game whose host closes the
table before every seat published its secrets says `deal not checked` and why, never `deal
verified`."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from netcards.registry import all_games
from netcards.sealed_cards import SLOT_BASE
from netcards.sealed_game import has_sealed_engine
from netcards.table import Table
from protocol.client import DealChecked, SeatTaken, TableClient, TableClosed
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts
from protocol.messages import Message, Result, Snapshot, Update
from protocol.sealed_play.progress import where
from tests.network.test_sealed_table import play

TITLES = sorted(g for g in all_games() if has_sealed_engine(g))

CARD_KEYS = (
    "card",
    "cards",
    "hand",
    "hands",
    "final_hands",
    "discard",
    "removed",
    "taken",
    "reward",
    "gladiolas",
    "walk_pile",
)
"""The keys under which the titles' views and events name card ids (a list of them, or one).
Read from what the three titles send, over whole games: every other number a message holds is
a seat, a size, a day, a score or a distance, and would pass for a card id (Velonimo's card 0
and seat 0), so the search names only numbers under these keys. A hand sent under another key
would be missed; each title's views put hands under `hand` or `hands`."""


def named_cards(data: Any, key: str = "") -> set[int]:
    """The card ids a message names, searched by its structure: an int under a card key
    (`CARD_KEYS`), or straight inside a list under one (a pile, a hand, an event's cards). An
    int under `cards` itself is a count (Auf Achse's Free road asks for n cards)."""
    if dataclasses.is_dataclass(data) and not isinstance(data, type):
        data = {f.name: getattr(data, f.name) for f in dataclasses.fields(data)}
    found: set[int] = set()
    if isinstance(data, Mapping):
        for k, v in data.items():
            if type(v) is int and str(k) in CARD_KEYS and k != "cards":
                found.add(v)
            else:
                found |= named_cards(v, str(k))
    elif isinstance(data, list | tuple):
        for item in data:
            if type(item) is int:
                if key in CARD_KEYS and item < SLOT_BASE:
                    found.add(item)
            else:
                found |= named_cards(item, key)
    return found


def played_face_up(server: TableHost) -> set[int]:
    """Every card a move played face up so far (an Auf Achse odometer card goes face down,
    and shows later as its distance, not its id)."""
    host = server.session.sealed_host
    engine = host.engine
    return {
        card
        for _, data in host.actions
        for card in engine.shows(engine.codec.decode(dict(data))).values()
    }


def shown_to_all(server: TableHost) -> set[int]:
    host = server.session.sealed_host
    return {c for kept in host.relay.rounds.values() for c in kept.revealed.values()}


def held(server: TableHost, players: list[TableClient]) -> set[int]:
    """Every card in a hand now, as its seat's own program knows it."""
    cards: set[int] = set()
    for c in players:
        if c.view is not None:  # the player's view, as its own program works it out
            cards |= set(c.view.get("hand", ()))
    host = server.session.sealed_host
    for seat, driver in host.bots.items():
        for slot in host.state.hands[seat]:
            if slot >= SLOT_BASE:
                number, p = where(host.state, slot)
                card = driver.rounds[number].hand.get(p) if number in driver.rounds else None
                if card is not None:
                    cards.add(card)
    return cards


class Watcher:
    """A spectator whose every message is searched as it is read, against the hands then."""

    def __init__(self, port: int, name: str, tmp_path: Path) -> None:
        self.got: list[Message] = []
        self.leaks: list[tuple[str, set[int]]] = []
        self.hidden_seen = 0
        self.shown_by_then: set[int] = set()
        """Every card shown to everyone when the last `update` came."""
        self.played_by_then: set[int] = set()
        """Every card played face up by a move when the last `update` came."""
        self.server: TableHost | None = None
        self.players: list[TableClient] = []
        self.client = TableClient(
            f"127.0.0.1:{port}",
            name,
            KnownHosts(tmp_path / name),
            spectator=True,
            trace=self._read,
        )

    def _read(self, message: Message) -> None:
        self.got.append(message)
        server = self.server
        if server is None or server.session.sealed_host is None:
            return
        if isinstance(message, Update):
            self.shown_by_then = shown_to_all(server)
            self.played_by_then = played_face_up(server)
        hidden = held(server, self.players) - shown_to_all(server)
        self.hidden_seen += bool(hidden)
        named = named_cards(message) & hidden
        if named:
            self.leaks.append((type(message).__name__, named))


async def watched_game(
    tmp_path: Path, title: str
) -> tuple[TableHost, TableClient, Watcher, Watcher]:
    table = Table.create(title, 2, {}, name="t", host_part=os.urandom(32), sealed=True)
    table.add_bot("random", 1)
    server = TableHost(table, IdentityKey.generate(os.urandom), settings=HostSettings())
    port = await server.start()
    player = TableClient(f"127.0.0.1:{port}", "Ann", KnownHosts(tmp_path / "ann"))
    early, late = Watcher(port, "Eve", tmp_path), Watcher(port, "Lou", tmp_path)
    for w in (early, late):
        w.server, w.players = server, [player]
    runners = [asyncio.create_task(early.client.run())]
    try:
        while early.client.lobby is None:
            await asyncio.sleep(0.02)
        runners.append(asyncio.create_task(player.run()))
        game = asyncio.create_task(play(player, random.Random(11)))
        while not player.sealed or len(player.sealed.actions) < 3:
            await asyncio.sleep(0.02)
            assert not game.done() or game.exception() is None
        runners.append(asyncio.create_task(late.client.run()))
        await asyncio.wait_for(game, 180)
        for w in (early, late):
            await asyncio.wait_for(w.client.wait_done(), 30)
    finally:
        for c in (player, early.client, late.client):
            await c.leave("done")
        for r in runners:
            r.cancel()
        await server.close()
    return server, player, early, late


@pytest.mark.parametrize("title", TITLES)
async def test_a_spectator_sees_every_move_and_no_card_of_a_hand_before_it_is_shown(
    tmp_path: Path, title: str
) -> None:
    server, player, early, late = await watched_game(tmp_path, title)
    host = server.session.sealed_host
    assert player.sealed_verdict == "deal verified"
    for w in (early, late):
        assert w.hidden_seen, "the search ran while hands were hidden"
        assert not w.leaks, f"{w.client.name} was told hidden cards: {w.leaks[:3]}"
    # The one who watched from the start saw every move, in order, each with the view it left.
    updates = [m for m in early.got if isinstance(m, Update)]
    assert [u.seq for u in updates] == list(range(1, len(host.actions) + 1))
    assert [u.actor for u in updates] == [seat for seat, _ in host.actions]
    views = [m.view for m in early.got if isinstance(m, Update | Snapshot)]
    assert len({repr(v) for v in views}) > len(host.actions) // 2, "its view changes"
    # Played cards appear: every card shown to everyone is named to the spectators.
    seen = set().union(*(named_cards(m) for m in early.got))
    # (Cards shown by a step rather than played, such as an Auf Achse odometer card turned
    # over, may be told as what they count, not as their ids.)
    assert early.shown_by_then, "cards were shown during the game"
    assert early.played_by_then <= seen
    # The one who came in mid-game was first shown where the game stood.
    first = next(m for m in late.got if isinstance(m, Snapshot | Update))
    assert isinstance(first, Snapshot) and first.seq >= 3
    # The results, and a verdict that claims no check it could not make.
    outcome = host.outcome.to_data()
    for w in (early, late):
        results = [m for m in w.got if isinstance(m, Result)]
        assert [r.outcome for r in results] == [outcome]
        verdict = w.client.verdict
        assert verdict is not None and not verdict.ok and not verdict.problems
        assert w.client.sealed_verdict is not None
        assert w.client.sealed_verdict.startswith("deal not checked: a spectator")


def test_the_search_names_a_hand_and_not_its_sizes() -> None:
    """The control: the search finds the cards of a hand where a hand is, and takes no size,
    day or seat for a card."""
    view = {"hand": [3, 17], "hand_sizes": [5, 40], "reshuffled_days": [9], "to_act": [1]}
    events = ({"type": "walk", "seat": 0, "card": 22}, {"type": "draw", "seat": 1})
    assert named_cards(Update(4, 0, events, view, (1,))) == {3, 17, 22}


# -- ending a sealed game that waits for a dropped player ------------------------------------


@pytest.mark.parametrize("title", TITLES)
async def test_closing_a_sealed_table_that_waits_says_the_deal_was_not_checked_and_why(
    tmp_path: Path, title: str
) -> None:
    table = Table.create(title, 3, {}, name="t", host_part=os.urandom(32), sealed=True)
    table.add_bot("random", 2)
    server = TableHost(table, IdentityKey.generate(os.urandom), settings=HostSettings(grace=0.0))
    port = await server.start()
    ann, bob = (
        TableClient(f"127.0.0.1:{port}", name, KnownHosts(tmp_path / name))
        for name in ("Ann", "Bob")
    )
    eve = TableClient(f"127.0.0.1:{port}", "Eve", KnownHosts(tmp_path / "eve"), spectator=True)
    runners = [asyncio.create_task(c.run()) for c in (ann, bob, eve)]
    try:
        await asyncio.wait_for(_dealt(ann, bob), 60)
        await bob.leave("gone")
        while not any(n.code == "waiting" for n in ann.notices):
            await asyncio.sleep(0.02)
        while not any(n.code == "waiting" for n in eve.notices):
            await asyncio.sleep(0.02)
        await server.close()
        closed = [await asyncio.wait_for(_closed(c), 30) for c in (ann, eve)]
    finally:
        for c in (ann, eve):
            await c.leave("done")
        for r in runners:
            r.cancel()
    assert bob.seat is not None
    left = f"seat {bob.seat + 1} (Bob) left before publishing its secrets"
    # Or, had Bob left while a step of his was due (the deal still under way, a card drawn by
    # the bot to open), the step the table waited for him to make: Bob is named either way.
    stalled = f"the table closed while waiting for Bob (seat {bob.seat + 1}) to "
    why = ann.sealed_verdict.removeprefix("deal not checked: ") if ann.sealed_verdict else ""
    assert why == left or why.startswith(stalled), why
    for c, notice in zip((ann, eve), closed, strict=True):
        assert notice.verdict is not None and notice.verdict.unchecked == [why]
        assert not notice.verdict.ok and not notice.verdict.problems
        assert c.sealed_verdict == f"deal not checked: {why}"
        assert notice.verdict.headline == f"deal not checked: {why}"
        assert not any(isinstance(n, DealChecked) for n in _drained(c))


async def _dealt(*clients: TableClient) -> None:
    async def one(c: TableClient) -> None:
        while c.sealed is None or c.view is None:
            notice = await c.updates.get()
            if isinstance(notice, SeatTaken):
                await c.set_ready(True)

    await asyncio.gather(*map(one, clients))


async def _closed(client: TableClient) -> TableClosed:
    while True:
        notice = await client.updates.get()
        assert not isinstance(notice, DealChecked), f"{client.name} checked a deal: {notice}"
        if isinstance(notice, TableClosed):
            return notice


def _drained(client: TableClient) -> list[Any]:
    out = []
    while not client.updates.empty():
        out.append(client.updates.get_nowait())
    return out
