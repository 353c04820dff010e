"""docs/sealed.md's test vectors, read from the page and recomputed: the card labels and
elements, each seat's lists, keys and commitments, the openings, both proofs with every value
on their way, and a signed step.

The proofs' values are recomputed here from the page's formulas (section 3.1 and 3.2) with the
group's operations alone, then the code's prover is run with the page's nonces and must give
the same bytes, and the code's verifier must accept them: page, formulas and code agree."""

from __future__ import annotations

import hashlib
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from protocol.sealed import rekey_proof, shuffle_proof
from protocol.sealed.canonical import canonical
from protocol.sealed.cards import CardBook, card_label
from protocol.sealed.challenge import list_digest
from protocol.sealed.deck import SealedRound
from protocol.sealed.group import (
    N,
    Point,
    base_times,
    commit,
    encode,
    hash_to_group,
    inverse,
    load,
    mul,
    product,
    times,
    total,
)
from protocol.sealed.rekey_proof import RekeyProof
from protocol.sealed.shuffle import SeatSecrets, mask_and_shuffle, mask_body, rekey, rekey_body
from protocol.sealed.shuffle_proof import Context, ShuffleProof
from protocol.sealed.signing import Step, sign
from tests.docs.markdown import examples, marked_tables, unquote

DOC = (Path(__file__).parents[2] / "docs" / "sealed.md").read_text(encoding="utf-8")
TABLES = marked_tables(DOC)
HEX = {e.kind: bytes.fromhex("".join(e.text.split())) for e in examples(DOC, "hex")}
GAME = b"netcards sealed test vector"
TABLE = b"kitchen"
SEATS = (0, 1, 2)
SIZE = 4


def rows(name: str) -> list[list[str]]:
    table = TABLES[name]
    assert table, f"the table {name} is empty"
    return [[unquote(c) for c in row] for row in table]


def values(name: str) -> dict[str, bytes]:
    return {row[0]: bytes.fromhex(row[1]) for row in rows(name)}


def secrets() -> dict[int, SeatSecrets]:
    got: dict[int, dict[str, str]] = {}
    for seat, what, value in rows("sealed-secrets"):
        got.setdefault(int(seat), {})[what] = value
    out = {}
    for seat, s in got.items():
        out[seat] = SeatSecrets(
            int(s["mask"], 16),
            tuple(int(p) for p in s["permutation"].split(", ")),
            tuple(int(s[f"rekey {j}"], 16) for j in range(SIZE)),
        )
        # The page says how the scalars were chosen: SHA-256 of a label, mod n.
        assert out[seat].mask == scalar(f"mask {seat}")
        assert out[seat].rekeys == tuple(scalar(f"rekey {seat} {j}") for j in range(SIZE))
    return out


def scalar(label: str) -> int:
    return int.from_bytes(hashlib.sha256(label.encode()).digest(), "big") % N


def labelled(prefix: str):  # type: ignore[no-untyped-def]
    """The page's nonces: the k-th draw is SHA-256 of `prefix k`."""
    count = [0]

    def draw(n: int) -> bytes:
        assert n == 32
        out = hashlib.sha256(f"{prefix} {count[0]}".encode()).digest()
        count[0] += 1
        return out

    return draw


def by_seat(name: str, column: int) -> dict[int, list[bytes]]:
    out: dict[int, list[bytes]] = {}
    for row in rows(name):
        seat, position = int(row[0]), int(row[1])
        assert position == len(out.setdefault(seat, []))
        out[seat].append(bytes.fromhex(row[column]))
    return out


def as_scalar(digest: bytes) -> int:
    return 1 + int.from_bytes(digest, "big") % (N - 1)


def u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def h(k: int) -> bytes:
    return k.to_bytes(32, "big")


def lin(terms: list[tuple[int, Point | None]], base: int = 0) -> bytes:
    return encode(total([base_times(base), *(times(p, k) for k, p in terms)]))


def test_card_labels_and_elements() -> None:
    book = CardBook.of(GAME, [0, 1, 2, 3])
    table = rows("sealed-cards")
    assert [int(r[0]) for r in table] == [0, 1, 2, 3]
    for card, label, element in table:
        assert card_label(GAME, int(card)).hex() == label
        assert book.element(int(card)).hex() == element


def test_the_round_step_by_step() -> None:
    """Every list, key, input digest, commitment and opening of the page, made by the code
    with the page's secrets and nonces, each step's proof checked as every party checks it."""
    book = CardBook.of(GAME, [0, 1, 2, 3])
    s = secrets()
    masked, rekeyed = by_seat("sealed-mask", 2), by_seat("sealed-rekey", 2)
    commitments = by_seat("sealed-rekey", 3)
    keys = {int(seat): (bytes.fromhex(k), bytes.fromhex(i)) for seat, k, i in rows("sealed-keys")}
    r = SealedRound.of_cards(book, SEATS, [0, 1, 2, 3], TABLE, 0)
    assert keys[0][1] == list_digest(book.elements)
    for seat in SEATS:
        body = mask_body(r.context(seat), r.current, s[seat], labelled(f"mask proof {seat}"))
        assert body["elements"] == masked[seat], f"seat {seat}'s mask and shuffle"
        assert (
            (body["key"], body["input"])
            == keys[seat]
            == (commit(s[seat].mask), list_digest(r.current))
        )
        r.on_mask(seat, body)
    for seat in SEATS:
        body = rekey_body(r.context(seat), r.current, s[seat], labelled(f"rekey proof {seat}"))
        out, cs = rekey(r.current, s[seat].mask, s[seat].rekeys)
        assert body["elements"] == out == rekeyed[seat], f"seat {seat}'s re-key"
        assert body["commitments"] == cs == commitments[seat], f"seat {seat}'s commitments"
        r.on_rekey(seat, body)
    opened = rows("sealed-open")
    assert len(opened) == 4
    for position, owner, stripped, card in opened:
        j, o = int(position), int(owner)
        for seat in SEATS:
            if seat != o:
                r.on_scalars(seat, {j: s[seat].rekeys[j]})
        assert r.stripped(j, o).hex() == stripped
        assert r.open_for(o, j, s[o].rekeys[j]) == int(card)
        others = product(s[t].rekeys[j] for t in SEATS if t != o)
        assert mul(r.current[j], inverse(others * s[o].rekeys[j] % N)) == book.element(int(card))


def test_the_generators() -> None:
    for i, element in rows("sealed-generators"):
        label = b"netcards sealed generator v5" + u32(int(i))
        assert hash_to_group(label).hex() == element == shuffle_proof.generator(int(i)).hex()


def test_the_proof_of_shuffle_value_by_value() -> None:
    """Section 3.1, step by step, from the page's numbers."""
    book = CardBook.of(GAME, [0, 1, 2, 3])
    s = secrets()[0]
    page = values("sealed-shuffle-proof")
    xs_bytes = list(book.elements)
    ys_bytes = by_seat("sealed-mask", 2)[0]
    key = commit(s.mask)
    xs, ys = [load(x) for x in xs_bytes], [load(y) for y in ys_bytes]
    hs = [load(hash_to_group(b"netcards sealed generator v5" + u32(i))) for i in range(SIZE)]
    draw = labelled("mask proof 0")
    names = [
        *(f"r {i}" for i in range(SIZE)),
        *(f"b {j}" for j in range(SIZE)),
        "alpha",
        *(f"beta {j}" for j in range(SIZE)),
        "gamma",
        "delta",
        *(f"eta {j}" for j in range(SIZE)),
        "phi",
    ]
    nonce = {}
    for name in names:
        nonce[name] = int.from_bytes(draw(32), "big")
        assert page[name] == h(nonce[name]), name
    sigma = [s.permutation.index(i) for i in range(SIZE)]
    u = [lin([(1, hs[sigma[i]])], nonce[f"r {i}"]) for i in range(SIZE)]
    assert [page[f"u {i}"] for i in range(SIZE)] == u
    head = hashlib.sha256(
        b"netcards sealed shuffle proof v5"
        + u32(len(TABLE))
        + TABLE
        + u32(0)
        + u32(0)
        + list_digest(xs_bytes)
        + u32(SIZE)
        + b"".join(ys_bytes)
        + key
        + b"".join(u)
    ).digest()
    assert page["S"] == head
    e = [as_scalar(hashlib.sha256(head + u32(i)).digest()) for i in range(SIZE)]
    assert [page[f"e {i}"] for i in range(SIZE)] == [h(x) for x in e]
    eps = [e[s.permutation[j]] for j in range(SIZE)]
    chain: list[Point | None] = []
    previous: Point | None = hs[0]
    d = 0
    for j in range(SIZE):
        previous = total([base_times(nonce[f"b {j}"]), times(previous, eps[j])])
        chain.append(previous)
        d = (nonce[f"b {j}"] + eps[j] * d) % N
    assert [page[f"B {j}"] for j in range(SIZE)] == [encode(p) for p in chain]
    eta = [nonce[f"eta {j}"] for j in range(SIZE)]
    f = total([times(x, ei) for x, ei in zip(xs, e, strict=True)])
    commitments = [
        lin(list(zip(eta, hs, strict=True)), nonce["alpha"]),
        *(
            lin([(eta[j], hs[0] if j == 0 else chain[j - 1])], nonce[f"beta {j}"])
            for j in range(SIZE)
        ),
        lin([], nonce["gamma"]),
        lin([], nonce["delta"]),
        lin([*zip(eta, ys, strict=True), (-nonce["phi"], f)]),
        lin([], nonce["phi"]),
    ]
    named = ["A'", *(f"B' {j}" for j in range(SIZE)), "C'", "D'", "F'", "M'"]
    assert [page[n] for n in named] == commitments
    assert page["F"] == encode(f)
    v = as_scalar(
        hashlib.sha256(head + b"".join(encode(p) for p in chain) + b"".join(commitments)).digest()
    )
    assert page["v"] == h(v)
    k = sum(nonce[f"r {i}"] * e[i] for i in range(SIZE))
    r_sum = sum(nonce[f"r {i}"] for i in range(SIZE))
    assert page["k_A"] == h((nonce["alpha"] + v * k) % N)
    assert page["k_C"] == h((nonce["gamma"] + v * r_sum) % N)
    assert page["k_D"] == h((nonce["delta"] + v * d) % N)
    assert page["k_a"] == h((nonce["phi"] + v * s.mask) % N)
    for j in range(SIZE):
        assert page[f"k_B {j}"] == h((nonce[f"beta {j}"] + v * nonce[f"b {j}"]) % N)
        assert page[f"k_E {j}"] == h((eta[j] + v * eps[j]) % N)
    # The code's prover, with the page's nonces, makes the page's bytes; its verifier takes them.
    ctx = Context(TABLE, 0, 0, list_digest(xs_bytes))
    proof = shuffle_proof.prove(
        ctx, xs_bytes, ys_bytes, s.mask, s.permutation, key, labelled("mask proof 0")
    )
    assert canonical(proof.to_body()) == HEX["sealed-shuffle-proof-bytes"]
    shuffle_proof.verify(ctx, xs_bytes, ys_bytes, key, ShuffleProof.of_body(proof.to_body()))


def test_the_proof_of_a_rekey_value_by_value() -> None:
    """Section 3.2, step by step, from the page's numbers."""
    s = secrets()[0]
    page = values("sealed-rekey-proof")
    inputs = by_seat("sealed-mask", 2)[2]
    outputs = by_seat("sealed-rekey", 2)[0]
    cs = by_seat("sealed-rekey", 3)[0]
    key = commit(s.mask)
    assert page["input"] == list_digest(inputs)
    draw = labelled("rekey proof 0")
    phi = int.from_bytes(draw(32), "big")
    rho = [int.from_bytes(draw(32), "big") for _ in range(SIZE)]
    assert page["phi"] == h(phi)
    assert [page[f"rho {j}"] for j in range(SIZE)] == [h(x) for x in rho]
    head = hashlib.sha256(
        b"netcards sealed rekey proof v5"
        + u32(len(TABLE))
        + TABLE
        + u32(0)
        + u32(0)
        + list_digest(inputs)
        + u32(SIZE)
        + b"".join(outputs)
        + b"".join(cs)
        + key
    ).digest()
    assert page["S"] == head
    t_a = lin([], phi)
    ts = [lin([], r) for r in rho]
    us = [
        lin([(phi, load(y)), (-r, load(x))]) for x, y, r in zip(inputs, outputs, rho, strict=True)
    ]
    assert page["T_a"] == t_a
    assert [page[f"T {j}"] for j in range(SIZE)] == ts
    assert [page[f"U {j}"] for j in range(SIZE)] == us
    v = as_scalar(hashlib.sha256(head + t_a + b"".join(ts) + b"".join(us)).digest())
    assert page["v"] == h(v)
    assert page["s_a"] == h((phi + v * s.mask) % N)
    for j in range(SIZE):
        assert page[f"s {j}"] == h((rho[j] + v * s.rekeys[j]) % N)
    ctx = Context(TABLE, 0, 0, list_digest(inputs))
    proof = rekey_proof.prove(
        ctx, inputs, outputs, cs, key, s.mask, s.rekeys, labelled("rekey proof 0")
    )
    assert canonical(proof.to_body()) == HEX["sealed-rekey-proof-bytes"]
    rekey_proof.verify(ctx, inputs, outputs, cs, key, RekeyProof.of_body(proof.to_body()))


def test_a_signed_step() -> None:
    key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    public = key.public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw
    )
    assert public == HEX["sealed-public-key"]
    book = CardBook.of(GAME, [0, 1, 2, 3])
    r = SealedRound.of_cards(book, SEATS, [0, 1, 2, 3], TABLE, 0)
    body = mask_body(r.context(0), r.current, secrets()[0], labelled("mask proof 0"))
    assert body["elements"] == mask_and_shuffle(
        r.current, secrets()[0].mask, secrets()[0].permutation
    )
    step = Step(TABLE, 0, "mask", 0, body)
    assert step.signed_bytes() == HEX["sealed-signed-bytes"]
    assert canonical(body["proof"]) == HEX["sealed-shuffle-proof-bytes"]
    assert sign(key, step).signature == HEX["sealed-signature"]
    key.public_key().verify(HEX["sealed-signature"], HEX["sealed-signed-bytes"])
