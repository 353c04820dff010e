"""How fast can a stranger guess a table's password online? A host on loopback with a password,
and an attacker that precomputes the key of each guess for every salt it sees (so a guess costs
it nothing but the connection, unless the salt is fresh), guessing as fast as the host lets it
from one address for a while.

Run: .venv/bin/python -m bench.guessing [--seconds N] [--no-throttle]

`--no-throttle` gives the host a throttle so lax that it never acts: the rate then shows what
the salt alone costs the attacker (and the host).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import time
from collections import Counter

import protocol.client_connection
from netcards.table import Table
from protocol.crypto import stretch_password
from protocol.errors import PeerError, WrongPassword
from protocol.host import TableHost
from protocol.identity import IdentityKey
from protocol.throttle import FailureThrottle


async def attempt(port: int, guess: str) -> str:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    conn = protocol.client_connection.ClientConnection(os.urandom, password=guess)
    writer.write(conn.data_to_send())
    try:
        while conn.handshake is None:
            data = await reader.read(65536)
            conn.receive_data(data)
            while type(conn.next_event()).__name__ != "NeedData":
                pass
            writer.write(conn.data_to_send())
        return "in"
    except WrongPassword:
        return "judged"
    except PeerError as exc:
        return exc.peer_code
    finally:
        writer.close()


async def main(seconds: float, throttled: bool) -> None:
    protocol.client_connection.stretch_password = functools.cache(stretch_password)  # type: ignore[attr-defined]
    lax = FailureThrottle(free=10**9, refuse_after=10**9 + 1)
    table = Table.create("via-gladiola", 2, {}, name="bench", host_part=os.urandom(32))
    host = TableHost(
        table,
        IdentityKey.generate(os.urandom),
        password="the right one",
        throttle=None if throttled else lax,
    )
    port = await host.start()
    outcomes: Counter[str] = Counter()
    start = time.perf_counter()
    n = 0
    while time.perf_counter() - start < seconds:
        outcomes[await attempt(port, f"guess {n % 10}")] += 1
        n += 1
    spent = time.perf_counter() - start
    await host.close()
    print(
        f"throttle {'on' if throttled else 'off'}: {n} attempts in {spent:.1f} s from one address"
    )
    print(f"  guesses judged:  {outcomes['judged']:>6}  ({outcomes['judged'] / spent:.2f}/s)")
    print(f"  turned away:     {outcomes['throttled']:>6}  (told to wait, no guess judged)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--no-throttle", action="store_true")
    args = parser.parse_args()
    asyncio.run(main(args.seconds, not args.no_throttle))
