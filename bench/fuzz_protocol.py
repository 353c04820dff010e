"""The protocol fuzzer at full size: at least 100,000 inputs, counts per outcome.

Five kinds of input: random bytes and mutated valid messages to the decoder; random streams
to fresh host and client connections; mutated real handshakes; mutated encrypted session
streams to open connections. Every outcome must be a documented error code (or ok, need_data,
closed); any other exception stops the run with the input that caused it. The slowest single
input is reported so that a near-hang shows too.

Run: .venv/bin/python -m bench.fuzz_protocol [--inputs N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Callable

from protocol.connection import Connection
from protocol.errors import ErrorCode
from protocol.messages import encode
from protocol.wire import pack
from tests.protocol.fuzzing import (
    decode_outcome,
    feed_outcome,
    fresh_client,
    fresh_host,
    handshake_transcript,
    mutate,
    open_client,
    open_host,
    split,
)
from tests.protocol.support import one_of_each

ALLOWED = {c.value for c in ErrorCode} | {"ok", "need_data", "closed"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    valid = [pack(encode(m)) for m in one_of_each()]
    transcripts = [handshake_transcript(s) for s in range(4)]

    def random_bytes() -> str:
        return decode_outcome(rng.randbytes(rng.randint(0, 200)))

    def mutated_message() -> str:
        return decode_outcome(mutate(rng.choice(valid), rng))

    def random_stream() -> str:
        data = rng.randbytes(rng.randint(0, 300))
        conn = (
            fresh_host(rng.randrange(4)) if rng.random() < 0.5 else fresh_client(rng.randrange(4))
        )
        return feed_outcome(conn, split(data, rng), rng.random() < 0.5)

    def mutated_handshake() -> str:
        seed = rng.randrange(4)
        to_host, to_client = transcripts[seed]
        if rng.random() < 0.5:
            return feed_outcome(
                fresh_host(seed), split(mutate(to_host, rng), rng), rng.random() < 0.5
            )
        return feed_outcome(
            fresh_client(seed), split(mutate(to_client, rng), rng), rng.random() < 0.5
        )

    def mutated_session() -> str:
        conn: Connection
        if rng.random() < 0.5:
            pair, frames = open_client(rng.randrange(1000))
            conn = pair.client
        else:
            pair, frames = open_host(rng.randrange(1000))
            conn = pair.host
        return feed_outcome(conn, split(mutate(b"".join(frames), rng), rng), rng.random() < 0.5)

    kinds: list[tuple[str, float, Callable[[], str]]] = [
        ("decoder: random bytes", 0.35, random_bytes),
        ("decoder: mutated messages", 0.35, mutated_message),
        ("connection: random streams", 0.12, random_stream),
        ("connection: mutated handshakes", 0.12, mutated_handshake),
        ("connection: mutated sessions", 0.06, mutated_session),
    ]
    counts: dict[str, Counter[str]] = {name: Counter() for name, _, _ in kinds}
    slowest = 0.0
    started = time.perf_counter()
    for name, share, run in kinds:
        for _ in range(max(1, round(args.inputs * share))):
            t = time.perf_counter()
            outcome = run()
            slowest = max(slowest, time.perf_counter() - t)
            if outcome not in ALLOWED:
                raise SystemExit(f"undocumented outcome {outcome!r} from {name}")
            counts[name][outcome] += 1
    elapsed = time.perf_counter() - started
    total = Counter[str]()
    for name, _, _ in kinds:
        c = counts[name]
        total += c
        print(f"{name}: {sum(c.values()):,} inputs")
        for outcome, n in c.most_common():
            print(f"    {outcome:<24} {n:>8,}")
    print(
        f"all: {sum(total.values()):,} inputs in {elapsed:.1f} s, slowest single input "
        f"{slowest * 1000:.1f} ms; only documented outcomes"
    )
    for outcome, n in total.most_common():
        print(f"    {outcome:<24} {n:>8,}")


if __name__ == "__main__":
    main()
