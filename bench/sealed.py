"""The sealed deck's computation: a sealed deal of Auf Achse for 5 seats, in one process.

The deck's 109 cards (from the game registry) are masked and shuffled by each seat in turn,
re-keyed by each seat in turn, and each seat's hand (10 cards, as Auf Achse deals at 5) is
opened to it: every other seat publishes its scalars, checked against their commitments, and
the owner unmasks. Every step is signed, and checked by the relay and every seat as a table
will. Then the audit recomputes the round from everyone's secrets. Printed: wall-clock
seconds of each phase (best of `--repeats`), and the cost of each group operation. No network
yet: once sealed tables are wired in, the same deal will be measured over loopback.

    python -m bench.sealed [--seats 5] [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

from cryptography.hazmat.primitives.asymmetric import ec

from netcards.registry import get_game
from protocol.sealed.audit import audit
from protocol.sealed.cards import CardBook
from protocol.sealed.deck import SealedRound
from protocol.sealed.group import commit, hash_to_group, load, mul, scalar_from
from protocol.sealed.shuffle import SeatSecrets, mask_and_shuffle, rekey
from protocol.sealed.signing import Step, sign, table_signing_key, verify

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

    def publish(seat: int, kind: str, body: dict[str, object]) -> Step:
        signed = sign(keys[seat], Step(TABLE, 0, kind, seat, body))
        for _ in range(seats):  # the relay and every other seat check it
            verify(signed, public, 0)
        return signed.step

    r = SealedRound.of_cards(book, order, deck)
    started = time.perf_counter()
    for s in order:
        out = mask_and_shuffle(r.current, secrets[s].mask, secrets[s].permutation)
        r.on_mask(s, publish(s, "mask", {"elements": out}).body["elements"])
    times["mask and shuffle, every seat"] = time.perf_counter() - started
    started = time.perf_counter()
    for s in order:
        out, cs = rekey(r.current, secrets[s].mask, secrets[s].rekeys)
        body = publish(s, "rekey", {"elements": out, "commitments": cs}).body
        r.on_rekey(s, body["elements"], body["commitments"])
    times["re-key, every seat"] = time.perf_counter() - started
    started = time.perf_counter()
    for owner in order:
        positions = range(owner * HAND, (owner + 1) * HAND)
        for s in order:
            if s != owner:
                ys = [[p, secrets[s].rekeys[p].to_bytes(32, "big")] for p in positions]
                body = publish(s, "scalars", {"scalars": ys}).body
                r.on_scalars(s, {p: int.from_bytes(y, "big") for p, y in body["scalars"]})
        hand = [r.open_for(owner, p, secrets[owner].rekeys[p]) for p in positions]
        assert len(set(hand)) == HAND
    times[f"open {HAND} cards to each seat"] = time.perf_counter() - started
    started = time.perf_counter()
    assert audit(r, secrets) is None
    times["audit (recompute every step)"] = time.perf_counter() - started
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3)
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

    k = scalar_from(os.urandom)
    x = hash_to_group(b"bench")
    key = ec.derive_private_key(k, ec.SECP256R1())
    point = load(x)
    signing = table_signing_key(os.urandom)
    step = Step(TABLE, 0, "mask", 0, {"elements": [x] * 109})
    signed = sign(signing, step)
    public = {0: signing.public_key()}
    print("Per operation:")
    for what, fn in (
        ("derive a private key from a scalar", lambda: ec.derive_private_key(k, ec.SECP256R1())),
        ("load an element (point decode)", lambda: load(x)),
        ("exchange (x(k*P))", lambda: key.exchange(ec.ECDH(), point)),
        ("mul: derive + load + exchange", lambda: mul(x, k)),
        ("commit(y)", lambda: commit(k)),
        ("hash_to_group", lambda: hash_to_group(b"bench card")),
        ("sign a 109-element step", lambda: sign(signing, step)),
        ("verify a 109-element step", lambda: verify(signed, public, 0)),
    ):
        print(f"  {what:<36} {per_call(fn):7.3f} ms")


if __name__ == "__main__":
    main()
