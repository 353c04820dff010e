"""Online password guessing, against a real host process: slowed down per address, and no use
precomputing keys. The attacker here is as strong as it gets: it precomputes the key of every
guess for every salt it has seen, so a guess costs it no scrypt unless the salt is fresh. What
crosses the wire gives nobody a way to guess offline: the password never travels."""

from __future__ import annotations

import asyncio
import functools
import os
import time
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

import protocol.client_connection
from protocol.crypto import stretch_password
from protocol.errors import PeerError, WrongPassword
from protocol.host import TableHost
from protocol.identity import IdentityKey
from protocol.messages import Error, HostAuth, HostHello, Join, Seated, decode
from protocol.throttle import FailureThrottle
from protocol.wire import unpack
from tests.network.processes import Relay, bot, host
from tests.network.raw import connect, frame_bodies

PASSWORD = "tulip"


async def guess(port: int, password: str, source: str = "127.0.0.1") -> tuple[str, float]:
    """One attempt: 'in', 'wrong_password', or the code of the host's refusal, with the
    retry time the refusal gives (seconds; 0 otherwise)."""
    raw = await connect(port, source=source, password=password)
    try:
        await raw.handshake(20)
        return "in", 0.0
    except WrongPassword:
        return "wrong_password", 0.0
    except PeerError as exc:
        return exc.peer_code, exc.detail.get("retry_after_ms", 0) / 1000
    finally:
        raw.close()


@pytest.fixture
def precomputing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The attacker's scrypt is done once per (password, salt), like a precomputed table."""
    monkeypatch.setattr(
        protocol.client_connection, "stretch_password", functools.cache(stretch_password)
    )


async def test_a_thousand_wrong_passwords_are_slowed_down_and_a_friend_still_joins(
    tmp_path: Path, precomputing: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NETCARDS_PASSWORD", PASSWORD)  # not on the command line (ps)
    server, port, _ = host(tmp_path, "--game", "via-gladiola", "--players", "2", "--port", "0")
    try:
        started = time.monotonic()
        outcomes: Counter[str] = Counter()
        waits = []
        for n in range(1000):
            outcome, wait = await guess(port, f"guess-{n % 7}")
            outcomes[outcome] += 1
            if wait:
                waits.append(wait)
        spent = time.monotonic() - started
        # After the free attempts, a guess is judged only once its wait is over: in the time
        # these 1000 attempts took, only a handful were judged at all.
        judged = outcomes["wrong_password"]
        assert outcomes["in"] == 0
        assert judged <= 4 + int(spent).bit_length(), (outcomes, spent)
        assert outcomes["throttled"] >= 990 and min(waits) > 0, outcomes
        # Waiting it out buys one more guess, and then a longer wait (twice as long, up to a
        # minute): each guess after the first few costs the attacker seconds.
        await asyncio.sleep(waits[-1] + 0.05)
        assert (await guess(port, "guess-again"))[0] == "wrong_password"
        outcome, next_wait = await guess(port, "guess-again")
        expected = FailureThrottle().penalty(judged + 1)
        assert expected >= 2 and outcome == "throttled"
        assert expected - 0.5 < next_wait <= expected, (next_wait, expected)

        # A friend at another address is not slowed down at all.
        before = time.monotonic()
        friend = await connect(port, source="127.0.0.2", password=PASSWORD)
        await friend.handshake()
        await friend.send(Join("Friend", None, False))
        while not isinstance(await friend.message(), Seated):
            pass
        assert time.monotonic() - before < 3
        friend.close()
    finally:
        server.kill()
    assert "wrong password" in server.stderr()


async def test_precomputed_keys_for_a_salt_already_seen_do_not_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table_host = await _host_in_process(PASSWORD)
    port = table_host.port
    try:
        # A capture of an honest player's handshake gives the salt...
        seen = await connect(port, source="127.0.0.3", password=PASSWORD)
        await seen.handshake()
        salt = seen.host_hello().password_salt
        seen.close()
        assert salt is not None
        # ... and the attacker even knows the right password: its key for that salt is
        # precomputed. Used on a new connection, it does not open the table.
        known = stretch_password(PASSWORD, salt)
        with monkeypatch.context() as patch:
            patch.setattr(protocol.client_connection, "stretch_password", lambda pw, s: known)
            replay = await connect(port, source="127.0.0.4", password=PASSWORD)
            with pytest.raises(WrongPassword):
                await replay.handshake()
            assert replay.host_hello().password_salt != salt, "every handshake has its own salt"
            replay.close()
        again = await connect(port, source="127.0.0.5", password=PASSWORD)
        await again.handshake()  # the password itself still works, of course
        again.close()
    finally:
        await table_host.close()


async def test_many_failures_get_an_address_refused_for_a_while(tmp_path: Path) -> None:
    throttle = FailureThrottle(free=1, base=0.05, cap=0.05, refuse_after=3, refuse_for=600)
    table_host = await _host_in_process(PASSWORD, throttle)
    port = table_host.port
    try:
        results = []
        for _ in range(6):
            results.append(await guess(port, "nope", "127.0.0.6"))
            await asyncio.sleep(0.06)
        assert [r[0] for r in results] == ["wrong_password"] * 3 + ["throttled"] * 3, results
        assert all(r[1] > 500 for r in results[3:]), "refused for minutes, not seconds"
        assert (await guess(port, PASSWORD, "127.0.0.6"))[0] == "throttled", "even the right one"
        assert (await guess(port, PASSWORD, "127.0.0.7"))[0] == "in", "another address"
    finally:
        await table_host.close()


async def _host_in_process(password: str, throttle: FailureThrottle | None = None) -> TableHost:
    from netcards.table import Table

    table = Table.create("via-gladiola", 2, {}, name="t", host_part=os.urandom(32))
    server = TableHost(
        table, IdentityKey.generate(os.urandom), password=password, throttle=throttle
    )
    await server.start()
    return server


async def test_three_wrong_passwords_are_free_and_the_fourth_must_wait_a_second() -> None:
    """docs/protocol.md's numbers, from outside: a fresh address has three guesses judged at
    once; the fourth, straight after, is refused with the one second it must wait."""
    table_host = await _host_in_process(PASSWORD)
    try:
        results = [await guess(table_host.port, f"nope-{n}", "127.0.0.9") for n in range(4)]
        assert [r[0] for r in results] == ["wrong_password"] * 3 + ["throttled"], results
        assert 0.5 < results[3][1] <= 1.0, results
        assert (await guess(table_host.port, PASSWORD, "127.0.0.10"))[0] == "in"
    finally:
        await table_host.close()


async def test_guesses_arriving_together_are_judged_one_after_the_other() -> None:
    """Opening many connections at once buys no more guesses than opening them in turn: three
    are judged, the others wait their turn and find the address must wait."""
    table_host = await _host_in_process(PASSWORD)
    try:
        results = await asyncio.gather(
            *(guess(table_host.port, f"nope-{n}", "127.0.0.11") for n in range(8))
        )
        assert Counter(r[0] for r in results) == {"wrong_password": 3, "throttled": 5}, results
    finally:
        await table_host.close()


async def test_the_right_password_forgets_the_wrong_ones_before_it() -> None:
    """A friend who mistyped three times, waited, then got it right starts afresh."""
    table_host = await _host_in_process(PASSWORD)
    port = table_host.port
    try:
        for n in range(3):
            assert (await guess(port, f"typo-{n}", "127.0.0.12"))[0] == "wrong_password"
        await asyncio.sleep(1.05)  # the one second the fourth attempt must wait
        assert (await guess(port, PASSWORD, "127.0.0.12"))[0] == "in"
        again = [(await guess(port, f"typo-{n}", "127.0.0.12"))[0] for n in range(3)]
        assert again == ["wrong_password"] * 3, "three free guesses again, judged at once"
    finally:
        await table_host.close()


async def test_the_documented_waits_a_minute_at_most_then_ten_minutes_refused(
    precomputing: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/security.md's numbers with the default throttle, from outside: the wait doubles
    up to a minute, and the twentieth wrong guess gets the address refused for ten minutes.
    The host's clock is moved on between guesses instead of waiting for it."""
    import types

    import protocol.host
    import protocol.host_links

    clock = [time.monotonic()]
    moved = types.SimpleNamespace(monotonic=lambda: clock[0])
    monkeypatch.setattr(protocol.host, "time", moved)
    monkeypatch.setattr(protocol.host_links, "time", moved)  # where connections read the clock
    table_host = await _host_in_process(PASSWORD)
    try:
        failures, waits = 0, []
        for _ in range(60):  # 20 judged, and a wait after each judged past the third
            if waits and waits[-1] >= 600:
                break
            outcome, wait = await guess(table_host.port, f"nope-{failures}", "127.0.0.13")
            if outcome == "throttled":  # not judged: what it says is how long to wait
                waits.append(round(wait))
                clock[0] += wait + 0.01
            else:
                assert outcome == "wrong_password"
                failures += 1
        assert failures == 20
        assert waits == [1, 2, 4, 8, 16, 32] + [60] * 11 + [600], waits
        assert (await guess(table_host.port, PASSWORD, "127.0.0.13"))[0] == "in", "then let in"
    finally:
        await table_host.close()


async def test_the_password_never_travels_and_a_wrong_guess_gets_nothing_to_test_offline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Behind a relay that keeps every byte, a player who knows the password plays a whole game
    and a guesser tries a wrong one. Neither the password nor its stretched key for any salt
    crosses the wire; the guesser is sent the host's hello, its signature and a plaintext
    refusal, and no frame encrypted under a key from the password to try guesses against."""
    secret = "Glockenblüme-Ärger-7193"  # its NFC and NFD spellings differ
    monkeypatch.setenv("NETCARDS_PASSWORD", secret)
    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "2", "--bots", "1", "--port", "0",
        "--bind", "127.0.0.1",
    )  # fmt: skip
    relay = Relay(port)
    try:
        guesser = await connect(relay.port, password="Glockenblume")
        with pytest.raises(WrongPassword):
            await guesser.handshake()
        await asyncio.wait_for(guesser.reader.read(), 5)  # to the host's close: all is captured
        guesser.close()
        ann = bot(tmp_path, relay.port, "Ann")  # NETCARDS_PASSWORD, like the host
        assert await asyncio.to_thread(ann.wait) == 0, ann.stderr()
        assert await asyncio.to_thread(server.wait) == 0, server.stderr()
    finally:
        server.kill()
        relay.close()
    assert relay.connections == 2, "the guess, then Ann's one connection"
    wire = bytes(relay.captured)
    for form in ("NFC", "NFD"):
        assert unicodedata.normalize(form, secret).encode() not in wire
    for connection in range(relay.connections):
        hello = decode(unpack(frame_bodies(bytes(relay.flows[connection, False]))[0]))
        assert isinstance(hello, HostHello) and hello.password_salt is not None
        assert stretch_password(secret, hello.password_salt) not in wire
    told = bytes(relay.flows[0, False])
    bodies = frame_bodies(told)
    assert sum(4 + len(body) for body in bodies) == len(told), "whole frames, nothing else"
    said = [decode(unpack(body)) for body in bodies]  # each one plaintext
    assert [type(message) for message in said] == [HostHello, HostAuth, Error], said
    assert isinstance(said[2], Error) and (said[2].code, said[2].fatal) == ("wrong_password", True)
