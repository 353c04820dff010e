"""Per-seat messages over real encrypted connections, for every game in the registry.

Random games are played with the engine's bots; after every action the host builds one update
per seat and one for spectators, sends each through that seat's own connection, and the seat's
client decrypts it. We then check that nothing in seat i's message comes from another seat's
private parts or hand, and that seat i's frames cannot be read with any other seat's keys.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import protocol.crypto
from netcards.bots.registry import make_bot
from netcards.event import Event
from netcards.game import Game
from netcards.registry import all_games
from netcards.rng import make_seed
from protocol.connection import packed
from protocol.crypto import nonce
from protocol.events import MessageReceived
from protocol.fanout import (
    SPECTATOR,
    audit_messages,
    history_messages,
    snapshot_for,
    updates_by_seat,
)
from protocol.limits import MAX_PLAINTEXT
from protocol.messages import Update, decode, encode
from protocol.wire import pack, unpack
from tests.leaks import Knowledge, unknown_cards
from tests.protocol.support import ConnectionPair, drain

GAMES = sorted(all_games().values(), key=lambda g: g.id)
IDS = [g.id for g in GAMES]


def check_private_parts(events: list[Event], seat: int | None, shown: list[dict[str, Any]]) -> None:
    """No key of another seat's private part reaches `seat`, unless it is public or its own."""
    assert len(shown) == len(events)
    for event, seen in zip(events, shown, strict=True):
        assert seen == unpack(pack(event.for_seat(seat)))  # tuples arrive as lists
        own = event.private.get(seat, {}) if seat is not None else {}
        for other, part in event.private.items():
            if other == seat:
                continue
            for key in part:
                if key in event.public or key in own:
                    continue
                assert key not in seen, f"seat {seat} sees {key!r} of seat {other}'s private part"
        for key in event.secret:
            if key not in event.public and key not in own:
                assert key not in seen, f"secret {key!r} reached seat {seat}"


def check_known(game: Game[Any], message: Update, knowledge: Knowledge, seat: int | None) -> None:
    """Every card anywhere in the message is one `seat` may know (see tests/leaks.py)."""
    shown = unknown_cards(game, unpack(pack(encode(message))), knowledge, seat)
    assert not shown, f"seat {seat}'s update {message.seq} shows cards it may not know: {shown}"


def play_over_the_wire(game: Game[Any], players: int, seed: int, levels: list[str]) -> int:
    config = game.make_config(players)
    state = game.setup(config, make_seed(seed))
    bots = [make_bot(levels[s], game, config, s, make_seed(seed * 7 + s)) for s in range(players)]
    keys: list[tuple[bytes, bytes]] = []
    real = protocol.crypto.session_keys

    def capture(*args: Any) -> tuple[bytes, bytes]:
        out = real(*args)
        keys.append(out)
        return out

    pairs = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("protocol.host_connection.session_keys", capture)
        for s in range(players):
            pair = ConnectionPair(seed=seed * 10 + s)
            pair.handshake()
            pairs.append(pair)
    host_keys = [k[1] for k in keys]  # host-to-client key of each seat, in seat order
    assert len(set(host_keys)) == players, "two seats share a key"
    sessions = {p.host.handshake.session_id for p in pairs if p.host.handshake is not None}
    assert len(sessions) == players

    ciphers = [ChaCha20Poly1305(k) for k in host_keys]
    knowledge = Knowledge(game, state, [*range(players), None])
    sent = [1] * players  # each host has sent its confirm
    seq = 0
    for _ in range(100_000):
        acting = game.to_act(state)
        if not acting:
            break
        for actor in sorted(acting):
            action = bots[actor].choose(game.view(state, actor), game.legal_actions(state, actor))
            events = game.apply(state, actor, action)
            seq += 1
            knowledge.step(state, events)
            updates = updates_by_seat(game, state, events, seq, actor, range(players))
            public = updates[SPECTATOR]
            check_private_parts(events, None, [dict(e) for e in public.events])
            check_known(game, public, knowledge, None)
            for s in [*range(players), SPECTATOR]:
                # The host packs updates without walking them (encode_unchecked): the engine's
                # views and events must be plain data, packed exactly as the checked way would.
                fast = packed(updates[s], check=False)
                assert fast.payload == packed(updates[s]).payload
                updates[s] = fast.message  # type: ignore[assignment]
            for s in range(players):
                raw = pairs[s].host.send(packed(updates[s], check=False))
                # Nobody else's key opens it (same counter, so only the key differs).
                for other in range(players):
                    if other != s:
                        with pytest.raises(InvalidTag):
                            ciphers[other].decrypt(nonce(sent[s]), raw[4:], raw[:4])
                sent[s] += 1
                client = pairs[s].client
                client.receive_data(raw)
                (event,) = drain(client)
                assert isinstance(event, MessageReceived)
                received = event.message
                assert isinstance(received, Update) and received == updates[s]
                check_private_parts(events, s, [dict(e) for e in received.events])
                check_known(game, received, knowledge, s)
    assert game.outcome(state) is not None
    return seq


def examples(n: int) -> settings:
    return settings(max_examples=n, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@examples(30)
@given(data=st.data())
def test_each_seat_gets_only_its_own_private_parts(game: Game[Any], data: st.DataObject) -> None:
    players = data.draw(st.integers(game.min_players, game.max_players))
    seed = data.draw(st.integers(0, 2**31))
    levels = [data.draw(st.sampled_from(["random", "heuristic"])) for _ in range(players)]
    assert play_over_the_wire(game, players, seed, levels) > 0


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_snapshots_and_audit_fit_and_round_trip(game: Game[Any]) -> None:
    rng = random.Random(5)
    config = game.make_config(game.max_players)
    state = game.setup(config, make_seed(5))
    actions = []
    while game.to_act(state):
        seat = min(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        actions.append((seat, game.encode_action(action)))
        game.apply(state, seat, action)
        for s in [*range(config.players), None]:
            snap = snapshot_for(game, state, len(actions), s)
            assert decode(unpack(pack(encode(snap)))) == snap
    audits = audit_messages(b"\x01" * 32, b"\x02" * 32, actions * 200)
    entries = [e for a in audits for e in a.actions]
    assert len(entries) == len(actions) * 200 and len(audits) > 1
    assert [a.offset for a in audits] == sorted({a.offset for a in audits})
    for a in audits:
        assert len(pack(encode(a))) <= MAX_PLAINTEXT
        assert a.total == len(entries)
    assert [e.action for e in entries[: len(actions)]] == [a for _, a in actions]
    steps = [(n, n % 3, [{"kind": "walk", "seat": 1, "card": n % 49}]) for n in range(1, 9001)]
    chunks = history_messages(steps)
    got = [(s.seq, s.actor, list(s.events)) for h in chunks for s in h.steps]
    assert len(chunks) > 1 and got == steps
    assert [h.offset for h in chunks] == [
        sum(len(c.steps) for c in chunks[:i]) for i in range(len(chunks))
    ]
    assert all(len(pack(encode(h))) <= MAX_PLAINTEXT and h.total == 9000 for h in chunks)
