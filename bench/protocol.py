"""Throughput of the protocol path against bare msgpack, and the handshake's cost.

Messages are realistic: the updates a 4-player Via Gladiola game sends (a seat's view and the
events of one action), plus chat and pings. The protocol path is everything a real message
goes through: validate, encode, pack, encrypt, frame on the host; unframe, decrypt, unpack,
check the shape, validate and decode on the client. The bare path is msgpack.packb and
unpackb of the same maps, in the same run.

Run: .venv/bin/python -m bench.protocol [--seconds N]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Any

import msgpack
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from netcards.bots.registry import make_bot
from netcards.registry import get_game
from netcards.rng import make_seed
from protocol.client_connection import ClientConnection
from protocol.connection import packed
from protocol.crypto import TablePassword
from protocol.events import HandshakeDone, NeedData, PasswordKeyNeeded
from protocol.fanout import update_for, updates_by_seat
from protocol.host_connection import HostConnection
from protocol.identity import IdentityKey
from protocol.messages import Chat, Message, Ping, Update, decode, encode
from protocol.wire import unpack


def realistic_messages(players: int = 4, seed: int = 1) -> list[Message]:
    game = get_game("via-gladiola")
    config = game.make_config(players)
    state = game.setup(config, make_seed(seed))
    bots = [make_bot("heuristic", game, config, s, make_seed(seed + s)) for s in range(players)]
    out: list[Message] = []
    seq = 0
    while game.to_act(state):
        for seat in sorted(game.to_act(state)):
            action = bots[seat].choose(game.view(state, seat), game.legal_actions(state, seat))
            events = game.apply(state, seat, action)
            seq += 1
            out.extend(updates_by_seat(game, state, events, seq, seat, range(players)).values())
            if seq % 10 == 0:
                out.append(Chat(seat, f"Player {seat}", "nice walk, see you at the finish"))
    return out


def update_pieces(seconds: float, players: int = 5) -> None:
    """What one seat's update costs, piece by piece, from the state to the decoded message:
    the parts of an action's round trip that the bare echo of `bench.latency` does not pay."""
    game = get_game("via-gladiola")
    config = game.make_config(players)
    state = game.setup(config, make_seed(3))
    bots = [make_bot("heuristic", game, config, s, make_seed(3 + s)) for s in range(players)]
    steps: list[tuple[Any, list[Any], int, int]] = []  # (state, events, actor, seq)
    seq = 0
    while game.to_act(state) and seq < 60:
        seat = min(game.to_act(state))
        action = bots[seat].choose(game.view(state, seat), game.legal_actions(state, seat))
        events = game.apply(state, seat, action)
        seq += 1
        steps.append((game.copy_state(state), events, seat, seq))
    seats = list(range(players))
    messages = [
        update_for(game, st, ev, sq, actor, seat) for st, ev, actor, sq in steps for seat in seats
    ]
    payloads = [packed(m, check=False).payload for m in messages]
    aead = ChaCha20Poly1305(os.urandom(32))
    nonce = bytes(12)
    sealed = [aead.encrypt(nonce, p, None) for p in payloads]
    unpacked = [unpack(p) for p in payloads]
    pieces = [
        ("the view and events from the state", lambda i: update_for(game, *steps_for(i))),
        ("packed (unchecked, as the host does)", lambda i: packed(messages[i], check=False)),
        ("sealed (ChaCha20-Poly1305)", lambda i: aead.encrypt(nonce, payloads[i], None)),
        ("opened", lambda i: aead.decrypt(nonce, sealed[i], None)),
        ("unpacked with the checks (wire.unpack)", lambda i: unpack(payloads[i])),
        ("unpacked bare (msgpack.unpackb)", lambda i: msgpack.unpackb(payloads[i])),
        ("decoded into a message (fields, types)", lambda i: decode(unpacked[i])),
    ]

    def steps_for(i: int) -> tuple[Any, list[Any], int, int, int]:
        st, ev, actor, sq = steps[i // players]
        return st, ev, sq, actor, seats[i % players]

    indexes = list(range(len(messages)))
    print(f"one seat's update, {players}-player Via Gladiola, {len(messages)} updates "
          f"(median {statistics.median(map(len, payloads)):.0f} bytes): microseconds each")  # fmt: skip
    for label, piece in pieces:
        print(f"  {label:<42}{1e6 / rate(piece, indexes, seconds / len(pieces)):>8.1f}")


def handshake(host: HostConnection, client: ClientConnection) -> None:
    for _ in range(4):
        for sender, receiver in ((client, host), (host, client)):
            data = sender.data_to_send()
            if data:
                receiver.receive_data(data)
            while not isinstance(event := receiver.next_event(), NeedData):
                if isinstance(event, PasswordKeyNeeded):  # the host's scrypt, for this salt
                    assert host.password is not None
                    host.supply_password_key(host.password.stretch(event.salt))
    assert isinstance(host.handshake, HandshakeDone) and isinstance(client.handshake, HandshakeDone)


def rate(fn: Any, items: list[Any], seconds: float) -> float:
    """Items per second, over as many passes through `items` as fit in `seconds`."""
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for item in items:
            fn(item)
        done += len(items)
    return done / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()

    messages = realistic_messages()
    messages.append(Ping(1))
    maps = [encode(m) for m in messages]
    sizes = [len(msgpack.packb(m)) for m in maps]
    updates = [m for m in messages if isinstance(m, Update)]
    print(
        f"messages: {len(messages)} ({len(updates)} updates); msgpack size bytes: "
        f"median {statistics.median(sizes):.0f}, max {max(sizes)}"
    )

    packed = [msgpack.packb(m) for m in maps]

    def bare(i: int) -> None:
        msgpack.unpackb(msgpack.packb(maps[i]))

    bare_rate = rate(bare, list(range(len(maps))), args.seconds)

    identity = IdentityKey.generate(os.urandom)
    host = HostConnection(identity, os.urandom)
    client = ClientConnection(os.urandom)
    handshake(host, client)

    def wire(message: Message) -> None:
        client.receive_data(host.send(message))
        client.next_event()
        client.next_event()

    wire_rate = rate(wire, messages, args.seconds)
    assert len(packed) == len(messages)
    print(f"bare msgpack pack+unpack:                       {bare_rate:>10,.0f} messages/s")
    print(f"protocol validate+encrypt+frame+decrypt+decode: {wire_rate:>10,.0f} messages/s")
    print(f"protocol cost relative to bare msgpack:          {bare_rate / wire_rate:>10.1f}x")

    rng = random.Random(7)
    salt = rng.randbytes(16)
    password = TablePassword("tulip fields")
    t = time.perf_counter()
    password.stretch(salt)
    stretch = time.perf_counter() - t
    for label, table_password, client_password in (
        ("no password", None, None),
        ("with password", password, "tulip fields"),
    ):
        times = []
        for _ in range(20 if table_password is None else 8):
            t = time.perf_counter()
            h = HostConnection(identity, os.urandom, password=table_password)
            c = ClientConnection(os.urandom, password=client_password)
            handshake(h, c)
            times.append(time.perf_counter() - t)
        print(
            f"handshake, {label:<14} median {statistics.median(times) * 1000:7.2f} ms "
            f"(both ends, in one process; with a password each end runs scrypt once)"
        )
    print(f"one password stretch (scrypt n=2^15, r=8, p=1): {stretch * 1000:.1f} ms")
    update_pieces(args.seconds)


if __name__ == "__main__":
    main()
