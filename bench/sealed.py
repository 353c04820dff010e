"""The sealed deck's computation: a sealed deal of Auf Achse for 5 seats, in one process.

The deck's 109 cards (from the game registry) are masked and shuffled by each seat in turn,
re-keyed by each seat in turn, and each seat's hand (10 cards, as Auf Achse deals at 5) is
opened to it: every other seat publishes its scalars, checked against their commitments, and
the owner unmasks. Every step is signed, and checked by the relay and every seat as a table
will. Then the audit recomputes the round from everyone's secrets. Printed: wall-clock
seconds of each phase (best of `--repeats`), and the cost of each group operation.

Then the same deal over loopback, as the round's messages (`protocol.sealed.messages`) driven by
`SeatDriver` and `RelayDriver`: the host's process runs the relay and its own seat, each other
seat is an OS process of its own with a TCP link to it on 127.0.0.1, every frame length-prefixed
msgpack sealed with ChaCha20-Poly1305 as a table's are (the link keys are drawn here and given
to both ends: the handshake is paid once per connection, not per deal). Timed from the host
sending `seal_round` until the last seat knows its hand, by the system-wide monotonic clock
each process reads. Also with the relay in a process apart from all five seats (`relay apart`).
This part is the sealing round alone, not a game.

Then a move's round trip at a table, sealed against open, in the same run: one player (a
`TableClient` over loopback, in the host's event loop or a process of its own) against the host's bot in
Via Gladiola for two, with random legal moves. Timed for each of the player's moves, from the
client sending it (at a sealed table: its `seal_act`, which carries the scalar of the card it
plays) until the
client has the host's acknowledgement applied (`seal_acted` for its move, or the open table's
`update`); p50 and p99 of each, and the ratio sealed / open. Twice: the player in the host's
event loop (the host's work after the acknowledgement, its bot's reply, then still runs before
the player reads it), and the player in a process of its own, as a player's program is. Also by kind of move (a rest
shows no card; a walk or a gladiola carries the scalars of the cards it plays), and, beside it, the
cryptography a card play cannot skip, measured in the same run, added to the open table's
round trip: how close to an open table a sealed card play could come in this runtime.

    python -m bench.sealed [--seats 5] [--repeats 3] [--plain] [--no-loopback] [--games 4]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import multiprocessing
import os
import random
import selectors
import socket
import statistics
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from netcards.registry import get_game
from netcards.table import Table
from protocol.client import Failed, SeatTaken, TableClient, ViewChanged
from protocol.crypto import Opener, Sealer
from protocol.framing import FrameReader, length_prefix
from protocol.host import HostSettings, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts
from protocol.limits import TAG_SIZE
from protocol.sealed import rekey_proof, shuffle_proof
from protocol.sealed.audit import audit
from protocol.sealed.cards import CardBook
from protocol.sealed.deck import SealedRound
from protocol.sealed.group import (
    base_times,
    commit,
    forget_remembered,
    hash_to_group,
    inverse,
    load,
    mul,
    scalar_from,
    total,
)
from protocol.sealed.messages import SealMessage, SealStep, decode, encode
from protocol.sealed.round_driver import Outgoing, RelayDriver, SeatDriver
from protocol.sealed.shuffle import SeatSecrets, mask_body, rekey, rekey_body
from protocol.sealed.signing import (
    SignedStep,
    Step,
    forget_checked,
    sign,
    table_signing_key,
    verify,
)
from protocol.wire import pack, unpack

HAND = 10
TABLE = b"bench table"


def per_call(fn: Callable[[], object], calls: int = 400) -> float:
    """Milliseconds per call, best of three batches."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - started) / calls)
    return best * 1000


def deal(seats: int) -> dict[str, float]:
    """One sealed deal of Auf Achse in this process, each program's work counted once: a
    seat's step made and proved by its seat, then checked by the relay and by every other seat
    (its signature and its proof, as a program that never saw it does)."""
    game = get_game("auf-achse")
    deck = [card["id"] for card in game.cards(game.make_config(seats))]
    times: dict[str, float] = {}
    started = time.perf_counter()
    book = CardBook.of(os.urandom(16), deck)
    times["card elements"] = time.perf_counter() - started
    order = tuple(range(seats))
    secrets = {s: SeatSecrets.draw(len(deck), os.urandom) for s in order}
    keys = {s: table_signing_key(os.urandom) for s in order}
    public = {s: k.public_key() for s, k in keys.items()}
    r = SealedRound.of_cards(book, order, deck, TABLE, 0)
    checkers = [SealedRound.of_cards(book, order, deck, TABLE, 0) for _ in order]
    """The relay's and every other seat's copy of the round (the author's own is `r`)."""

    def publish(seat: int, kind: str, body: dict[str, object]) -> Step:
        signed = sign(keys[seat], Step(TABLE, 0, kind, seat, body))
        for _ in range(seats):  # the relay and every other seat check it, each in its program
            forget_checked()
            verify(SignedStep(Step(TABLE, 0, kind, seat, body), signed.signature), public, 0)
        return signed.step

    def checked_by_all(seat: int, take: Callable[[SealedRound], None]) -> float:
        """Seconds for the relay and every other seat to check a step, proof included."""
        started = time.perf_counter()
        for other in checkers:
            forget_remembered()
            shuffle_proof.forget_verified()
            rekey_proof.forget_verified()
            take(other)
        return time.perf_counter() - started

    phases: list[tuple[str, Any, Any]] = [
        ("mask", mask_body, SealedRound.on_mask),
        ("rekey", rekey_body, SealedRound.on_rekey),
    ]
    for kind, make, take in phases:
        phase = "mask and shuffle" if kind == "mask" else "re-key"
        made = checked = 0.0
        for s in order:
            forget_remembered()
            started = time.perf_counter()
            body: dict[str, Any] = make(r.context(s), r.current, secrets[s], os.urandom)
            made += time.perf_counter() - started
            step = publish(s, kind, body)

            def check(other: SealedRound, s: int = s, step: Step = step, take: Any = take) -> None:
                take(other, s, step.body)

            checked += checked_by_all(s, check)
            take(r, s, step.body)
        times[f"{phase}: made and proved, {seats} steps"] = made
        times[f"{phase}: checked by {seats} programs each"] = checked
    forget_remembered()
    started = time.perf_counter()
    for owner in order:
        positions = range(owner * HAND, (owner + 1) * HAND)
        for s in order:
            if s != owner:
                ys = [[p, secrets[s].rekeys[p].to_bytes(32, "big")] for p in positions]
                opened = publish(s, "scalars", {"scalars": ys}).body
                r.on_scalars(s, {p: int.from_bytes(y, "big") for p, y in opened["scalars"]})
        hand = [r.open_for(owner, p, secrets[owner].rekeys[p]) for p in positions]
        assert len(set(hand)) == HAND
    times[f"open {HAND} cards to each seat"] = time.perf_counter() - started
    forget_remembered()  # an audit recomputes the other seats' steps: none in its memory
    started = time.perf_counter()
    assert audit(r, secrets) is None
    times["audit (recompute every step)"] = time.perf_counter() - started
    return times


def auf_achse_deck(seats: int) -> list[int]:
    game = get_game("auf-achse")
    return [card["id"] for card in game.cards(game.make_config(seats))]


class Link:
    """One end of a TCP link carrying sealed-round messages in frames, each sealed with
    ChaCha20-Poly1305 under its direction's key (or plain msgpack with `keys` None)."""

    def __init__(self, sock: socket.socket, keys: tuple[bytes, bytes] | None) -> None:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock = sock
        self.sealer = Sealer(keys[0]) if keys else None
        self.opener = Opener(keys[1]) if keys else None
        self.reader = FrameReader()

    def send_payload(self, payload: bytes) -> None:
        if self.sealer is None:
            self.sock.sendall(length_prefix(len(payload)) + payload)
            return
        prefix = length_prefix(len(payload) + TAG_SIZE)
        self.sock.sendall(prefix + self.sealer.seal(prefix, payload))

    def send(self, msg: SealMessage) -> None:
        self.send_payload(pack(encode(msg)))

    def receive(self) -> tuple[list[SealMessage], bool]:
        """The messages the bytes waiting on the socket complete, and whether it closed."""
        data = self.sock.recv(1 << 18)
        self.reader.feed(data)
        out = []
        while (body := self.reader.next_body()) is not None:
            if self.opener is not None:
                body = self.opener.open(length_prefix(len(body)), body)
            out.append(decode(unpack(body)))
        return out, not data


def _seat_process(
    port: int, seat: int, relay: int, keys: tuple[bytes, bytes] | None, results: Any
) -> None:
    link = Link(socket.create_connection(("127.0.0.1", port)), keys)
    link.sock.sendall(bytes([seat]))  # a table knows a link's seat from its join
    driver = SeatDriver(seat, relay, os.urandom)
    link.send(driver.hello())
    reported = False
    while True:
        messages, closed = link.receive()
        for msg in messages:
            for reply in driver.receive(msg):
                link.send(reply)
        if not reported and driver.hand_known and len(driver.hand) == HAND:
            results.put((seat, time.monotonic(), sorted(driver.hand.values())))
            reported = True
        if closed:
            return


def swapped(keys: tuple[bytes, bytes] | None) -> tuple[bytes, bytes] | None:
    """The other end's (sending, receiving) keys."""
    return (keys[1], keys[0]) if keys else None


def loopback(seats: int, relay_apart: bool, encrypted: bool) -> dict[str, float]:
    """One sealed deal over loopback; seconds from `seal_round` sent to each milestone."""
    context = multiprocessing.get_context("fork")
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    host_seat = 0
    remote = list(range(seats)) if relay_apart else list(range(1, seats))
    keys = {s: (os.urandom(32), os.urandom(32)) if encrypted else None for s in remote}
    """Each link's (host-to-seat, seat-to-host) keys."""
    results = context.Queue()
    processes = [
        context.Process(
            target=_seat_process,
            args=(port, s, host_seat, swapped(keys[s]), results),
        )
        for s in remote
    ]
    for process in processes:
        process.start()
    links: dict[int, Link] = {}
    selector = selectors.DefaultSelector()
    for _ in remote:
        sock, _ = listener.accept()
        seat = sock.recv(1)[0]
        links[seat] = Link(sock, keys[seat])
        selector.register(sock, selectors.EVENT_READ, seat)
    listener.close()
    relay = RelayDriver(TABLE, host_seat, later_proofs=True)  # as a table's host does
    local = None if relay_apart else SeatDriver(host_seat, host_seat, os.urandom)
    if local is not None:
        relay.receive(host_seat, local.hello())
    marks: dict[str, float] = {}

    def from_seat(seat: int, msg: SealMessage, made_here: bool = False) -> list[Outgoing]:
        out = relay.receive(seat, msg, made_here)
        if isinstance(msg, SealStep) and msg.kind == "mask":
            marks.setdefault("first mask step relayed", time.monotonic())
        return out

    def dispatch(outgoing: Iterable[Outgoing]) -> None:
        queue = deque(outgoing)
        payloads: dict[int, bytes] = {}
        while queue:
            to, msg = queue.popleft()
            if local is not None and to == host_seat:
                for reply in local.receive(msg):
                    queue.extend(from_seat(host_seat, reply, made_here=True))
            else:
                if id(msg) not in payloads:  # relayed as is: one encoding for every seat
                    payloads[id(msg)] = pack(encode(msg))
                links[to].send_payload(payloads[id(msg)])

    def pump() -> None:
        for key, _ in selector.select():
            seat = key.data
            messages, closed = links[seat].receive()
            if closed:
                raise RuntimeError(f"seat {seat} left")
            for msg in messages:
                dispatch(from_seat(seat, msg))
                if relay.check_proofs() is not None:  # after relaying, as a table's host does
                    raise RuntimeError(f"a proof failed: {relay.proved}")

    while len(relay.keys) < seats:
        pump()
    deck = auf_achse_deck(seats)
    order = tuple(range(seats))
    started = time.monotonic()
    dispatch(relay.begin(0, os.urandom(16), order, deck))
    steps = 2 * seats + seats * (seats - 1)
    opened = False
    while len(relay.transcript.steps) < steps:
        if relay.sealed and not opened:
            marks["sealed at the relay"] = time.monotonic()
            opened = True
            for k, owner in enumerate(order):
                dispatch(relay.open(owner, range(k * HAND, (k + 1) * HAND)))
            continue
        pump()
    done: dict[int, tuple[float, list[int]]] = {}
    if local is not None:
        assert local.hand_known and len(local.hand) == HAND
        done[host_seat] = (time.monotonic(), sorted(local.hand.values()))
    for _ in remote:
        seat, at, hand = results.get(timeout=60)
        done[seat] = (at, hand)
    for link in links.values():
        link.sock.close()
    for process in processes:
        process.join(timeout=30)
    dealt = [card for _, hand in done.values() for card in hand]
    assert len(set(dealt)) == seats * HAND and set(dealt) <= set(deck)
    marks["every seat knows its hand"] = max(at for at, _ in done.values())
    return {what: at - started for what, at in marks.items()}


def print_loopback(seats: int, repeats: int, encrypted: bool) -> None:
    links = "ChaCha20-Poly1305 per link" if encrypted else "plain msgpack frames, no encryption"
    for relay_apart in (False, True):
        where = (
            f"a relay process and {seats} seat processes"
            if relay_apart
            else f"the host's process (relay + seat 0) and {seats - 1} seat processes"
        )
        runs = [loopback(seats, relay_apart, encrypted) for _ in range(repeats)]
        print(f"Over loopback, TCP on 127.0.0.1, {links}; {where} (best and median of {repeats}):")
        print(f"  {'from seal_round sent to':<34} {'best':>8}    {'median':>8}")
        for what in runs[0]:
            times = [run[what] for run in runs]
            best, median = min(times), statistics.median(times)
            print(f"  {what:<34} {best * 1000:8.1f} ms {median * 1000:8.1f} ms")


Timed = tuple[str, float]
"""A move's kind (its action's class: a Via Gladiola walk or gladiola shows cards, a rest does
not) and the seconds it took to be acknowledged."""


async def _play(port: int, sealed: bool, seed: int) -> list[Timed]:
    """The player's side of one game: each of its moves, timed."""
    times: list[Timed] = []
    with tempfile.TemporaryDirectory() as tmp:
        client = TableClient(f"127.0.0.1:{port}", "P", KnownHosts(Path(tmp) / "hosts"))
        runner = asyncio.create_task(client.run())
        rng = random.Random(seed)
        sent: float | None = None
        kind = ""
        try:
            while (client.sealed_verdict if sealed else client.outcome) is None:
                notice = await asyncio.wait_for(client.updates.get(), 60)
                if isinstance(notice, Failed):
                    raise RuntimeError(notice.reason)
                if isinstance(notice, SeatTaken):
                    await client.set_ready(True)
                if not isinstance(notice, ViewChanged):
                    continue
                if sent is not None and not client.awaiting:
                    times.append((kind, time.perf_counter() - sent))
                    sent = None
                if sent is None and client.my_turn and client.legal_actions():
                    action = rng.choice(client.legal_actions())
                    kind = type(action).__name__
                    sent = time.perf_counter()
                    await client.act(action)
        finally:
            await client.leave("done")
            runner.cancel()
    return times


def _player_process(sealed: bool, seed: int, ports: Any, results: Any) -> None:
    results.put(asyncio.run(_play(ports.get(timeout=60), sealed, seed)))


async def _one_game(sealed: bool, seed: int, apart: tuple[Any, Any] | None) -> list[Timed]:
    """One game against the host's bot; the player in this event loop, or (`apart`: the queues
    to give it the port and take its times) in a process of its own."""
    table = Table.create(
        "via-gladiola", 2, {}, name="bench", host_part=os.urandom(32), sealed=sealed
    )
    table.add_bot("random", 1)
    server = TableHost(table, IdentityKey.generate(os.urandom), settings=HostSettings())
    port = await server.start()
    try:
        if apart is None:
            return await _play(port, sealed, seed)
        ports, results = apart
        ports.put(port)
        times: list[Timed] = await asyncio.to_thread(results.get, True, 120)
        return times
    finally:
        await server.close()


def _game_apart(sealed: bool, seed: int) -> list[Timed]:
    """One game, the player's program a process of its own (forked before the host's loop
    starts), as a player's is: the host's work after it sent an acknowledgement runs beside
    the player's, not before it."""
    context = multiprocessing.get_context("fork")
    ports, results = context.Queue(), context.Queue()
    process = context.Process(target=_player_process, args=(sealed, seed, ports, results))
    process.start()
    try:
        return asyncio.run(_one_game(sealed, seed, (ports, results)))
    finally:
        process.join(timeout=30)


def _quantile(times: list[float], q: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def print_round_trip(games: int) -> None:
    for apart in (False, True):
        measured: dict[str, list[Timed]] = {"open": [], "sealed": []}
        for n in range(games):  # alternated, so that a busy machine weighs on both alike
            for kind in ("open", "sealed"):
                sealed = kind == "sealed"
                measured[kind] += (
                    _game_apart(sealed, n) if apart else asyncio.run(_one_game(sealed, n, None))
                )
        where = "the player in a process of its own" if apart else "one process"
        print(
            f"A move's round trip at a Via Gladiola table for two (player vs the host's bot, "
            f"loopback, {where}), {games} games each:"
        )
        print(f"  {'':<8} {'moves':>6} {'p50':>9}    {'p99':>9}")
        for kind, timed in measured.items():
            times = [t for _, t in timed]
            p50, p99 = _quantile(times, 0.5), _quantile(times, 0.99)
            print(f"  {kind:<8} {len(times):>6} {p50 * 1000:9.2f} ms {p99 * 1000:9.2f} ms")
        opened, sealed_ = ([t for _, t in measured[k]] for k in ("open", "sealed"))
        open_p50 = _quantile(opened, 0.5)
        ratio = _quantile(sealed_, 0.5) / _quantile(opened, 0.5)
        ratio99 = _quantile(sealed_, 0.99) / _quantile(opened, 0.99)
        print(f"  sealed / open: p50 x{ratio:.2f} (target x2 at most), p99 x{ratio99:.2f}")
        print("  p50 by kind of move (a card played face up carries its scalar at a sealed table):")
        for move in sorted({m for timed in measured.values() for m, _ in timed}):
            by = {k: [t for m, t in timed if m == move] for k, timed in measured.items()}
            if all(by.values()):
                o, c = (_quantile(by[k], 0.5) for k in ("open", "sealed"))
                print(
                    f"    {move:<14} open {o * 1000:6.2f} ms ({len(by['open'])}), "
                    f"sealed {c * 1000:6.2f} ms ({len(by['sealed'])}), x{c / o:.2f}"
                )
        if apart:
            print_floor(open_p50)


def card_play_floor() -> dict[str, float]:
    """Milliseconds of the cryptography a sealed card play cannot skip, on its way from the
    player to the host's acknowledgement, with the operations this program uses: the player
    signs its move (the card's scalar inside it); the host checks that one signature, and for
    each card checks the owner's scalar against its commitment and unmasks the card."""
    signing = table_signing_key(os.urandom)
    body = {
        "number": 7,
        "action": {"kind": "walk", "slot": 65539, "card": 12},
        "reveal": [[0, 3, os.urandom(32)]],
    }
    move = Step(TABLE, 0, "move", 0, body)
    public = {0: signing.public_key()}
    y, x = scalar_from(os.urandom), hash_to_group(b"bench floor")
    signed = sign(signing, move)

    def commitment() -> object:
        forget_remembered()
        return commit(y)

    def unmask() -> object:
        forget_remembered()
        return mul(x, inverse(y))

    return {
        "sign the move": per_call(lambda: signing.sign(move.signed_bytes()), 2000),
        "check its signature": per_call(
            lambda: public[0].verify(signed.signature, move.signed_bytes()), 2000
        ),
        "per card: its commitment": per_call(commitment, 2000),
        "per card: unmask it": per_call(unmask, 2000),
    }


def print_floor(open_p50: float) -> None:
    """How close to an open table a card play could come, this protocol's cryptography alone
    added to the open table's round trip measured in the same run."""
    floor = card_play_floor()
    print("  The cryptography a card play cannot skip (measured now, one core):")
    for what, ms in floor.items():
        print(f"    {what:<30} {ms:6.3f} ms")
    fixed = floor["sign the move"] + floor["check its signature"]
    card = floor["per card: its commitment"] + floor["per card: unmask it"]
    for cards in (1, 2):
        best = open_p50 * 1000 + fixed + cards * card
        print(
            f"    one card play of {cards} card(s) at best: open p50 + {fixed + cards * card:.2f} ms"
            f" = {best:.2f} ms, x{best / (open_p50 * 1000):.2f}"
        )


def print_operations(seats: int) -> None:
    k = scalar_from(os.urandom)
    x = hash_to_group(b"bench")
    point = load(x)
    other = load(hash_to_group(b"bench 2"))
    raw = k.to_bytes(32, "big")
    signing = table_signing_key(os.urandom)
    step = Step(TABLE, 0, "rekey", 0, {"elements": [x] * 109})
    signed = sign(signing, step)
    public = {0: signing.public_key()}

    def afresh(operation: Callable[[], object]) -> Callable[[], object]:
        """The operation as a program does it the first time (and forgetting takes no time
        worth counting beside it: a few empty caches)."""

        def run() -> object:
            forget_remembered()
            return operation()

        return run

    def verify_afresh() -> object:
        """A step received anew: its signed bytes computed, its signature checked."""
        forget_checked()
        return verify(SignedStep(dataclasses.replace(step), signed.signature), public, 0)

    size = 109
    book = CardBook.of(os.urandom(16), list(range(size)))
    secrets = SeatSecrets.draw(size, os.urandom)
    r = SealedRound.of_cards(book, (0, 1), list(range(size)), TABLE, 0)
    ctx = r.context(0)
    masked = mask_body(ctx, r.current, secrets, os.urandom)
    r.on_mask(0, masked)
    key = masked["key"]
    rekey_ctx = r.context(0)
    proof = shuffle_proof.ShuffleProof.of_body(masked["proof"])
    rekeyed, commitments = rekey(r.current, secrets.mask, secrets.rekeys)

    def prove_shuffle() -> object:
        return shuffle_proof.prove(
            ctx, r.start, masked["elements"], secrets.mask, secrets.permutation, key, os.urandom
        )

    def prove_rekey() -> rekey_proof.RekeyProof:
        return rekey_proof.prove(
            rekey_ctx, r.current, rekeyed, commitments, key, secrets.mask, secrets.rekeys,
            os.urandom,
        )  # fmt: skip

    rproof = prove_rekey()

    def check_shuffle() -> object:
        shuffle_proof.forget_verified()
        shuffle_proof.verify(ctx, r.start, masked["elements"], key, proof)
        return None

    def check_rekey() -> object:
        rekey_proof.forget_verified()
        rekey_proof.verify(rekey_ctx, r.current, rekeyed, commitments, key, rproof)
        return None

    print("Per operation (not remembered: each as a program does it the first time):")
    timed = {
        "multiply an element (k*P)": per_call(lambda: point.multiply(raw)),
        "multiply the generator (k*G)": per_call(lambda: base_times(k)),
        "add two points": per_call(lambda: total([point, other])),
        "mul: load + multiply + encode": per_call(afresh(lambda: mul(x, k))),
        "commit(y)": per_call(afresh(lambda: commit(k))),
        "hash_to_group": per_call(lambda: hash_to_group.__wrapped__(b"bench card")),
        "sign a 109-element step": per_call(lambda: sign(signing, dataclasses.replace(step))),
        "verify a 109-element step": per_call(verify_afresh),
        "prove a shuffle": per_call(prove_shuffle, 20),
        "check a shuffle's proof": per_call(check_shuffle, 20),
        "prove a re-key": per_call(prove_rekey, 20),
        "check a re-key's proof": per_call(check_rekey, 20),
    }
    for what, ms in timed.items():
        cards = f" ({size} cards)" if "proof" in what or what.startswith("prove") else ""
        print(f"  {what + cards:<36} {ms:7.3f} ms")
    mul_ms = timed["multiply an element (k*P)"]
    print(
        f"  (a cut-and-choose proof with 40 shadow shuffles, soundness 2^-40, would cost about "
        f"{40 * size * mul_ms:.0f} ms to make and as much to check, at {mul_ms:.3f} ms a "
        "multiplication)"
    )
    proving = timed["prove a shuffle"] + timed["prove a re-key"]
    checking = timed["check a shuffle's proof"] + timed["check a re-key's proof"]
    print(
        f"  a {seats}-seat round of {size} cards: each seat proves its 2 steps "
        f"({proving:.0f} ms) and checks the {2 * (seats - 1)} others' "
        f"({(seats - 1) * checking:.0f} ms); the relay checks all {2 * seats} "
        f"({seats * checking:.0f} ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--plain", action="store_true", help="loopback links without encryption")
    parser.add_argument("--no-loopback", action="store_true")
    parser.add_argument("--games", type=int, default=4, help="games per kind of table, timed")
    args = parser.parse_args()

    runs = [deal(args.seats) for _ in range(args.repeats)]
    print(
        f"Sealed deal of Auf Achse, 109 cards, {args.seats} seats, one process (best of {args.repeats}):"
    )
    total = 0.0
    for what in runs[0]:
        best = min(run[what] for run in runs)
        total += best if what != "audit (recompute every step)" else 0
        print(f"  {what:<34} {best * 1000:8.1f} ms")
    print(f"  {'the deal, audit left out':<34} {total * 1000:8.1f} ms")

    print_operations(args.seats)
    if not args.no_loopback:
        print_loopback(args.seats, args.repeats, not args.plain)
    if args.games:
        print_round_trip(args.games)


if __name__ == "__main__":
    main()
