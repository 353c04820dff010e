"""docs/sealed.md's test vectors, read from the page and recomputed with our code: the card
labels and elements, each seat's lists and commitments, the openings and a signed step."""

from __future__ import annotations

import hashlib
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from protocol.sealed.cards import CardBook, card_label
from protocol.sealed.deck import SealedRound
from protocol.sealed.group import N, inverse, mul, product
from protocol.sealed.shuffle import SeatSecrets, mask_and_shuffle, rekey
from protocol.sealed.signing import Step, sign
from tests.docs.markdown import examples, marked_tables, unquote

DOC = (Path(__file__).parents[2] / "docs" / "sealed.md").read_text(encoding="utf-8")
TABLES = marked_tables(DOC)
HEX = {e.kind: bytes.fromhex("".join(e.text.split())) for e in examples(DOC, "hex")}
GAME = b"netcards sealed test vector"
SEATS = (0, 1, 2)


def rows(name: str) -> list[list[str]]:
    table = TABLES[name]
    assert table, f"the table {name} is empty"
    return [[unquote(c) for c in row] for row in table]


def secrets() -> dict[int, SeatSecrets]:
    got: dict[int, dict[str, str]] = {}
    for seat, what, value in rows("sealed-secrets"):
        got.setdefault(int(seat), {})[what] = value
    out = {}
    for seat, s in got.items():
        out[seat] = SeatSecrets(
            int(s["mask"], 16),
            tuple(int(p) for p in s["permutation"].split(", ")),
            tuple(int(s[f"rekey {j}"], 16) for j in range(4)),
        )
        # The page says how the scalars were chosen: SHA-256 of a label, mod n.
        assert out[seat].mask == scalar(f"mask {seat}")
        assert out[seat].rekeys == tuple(scalar(f"rekey {seat} {j}") for j in range(4))
    return out


def scalar(label: str) -> int:
    return int.from_bytes(hashlib.sha256(label.encode()).digest(), "big") % N


def by_seat(name: str, column: int) -> dict[int, list[bytes]]:
    out: dict[int, list[bytes]] = {}
    for row in rows(name):
        seat, position = int(row[0]), int(row[1])
        assert position == len(out.setdefault(seat, []))
        out[seat].append(bytes.fromhex(row[column]))
    return out


def test_card_labels_and_elements() -> None:
    book = CardBook.of(GAME, [0, 1, 2, 3])
    table = rows("sealed-cards")
    assert [int(r[0]) for r in table] == [0, 1, 2, 3]
    for card, label, element in table:
        assert card_label(GAME, int(card)).hex() == label
        assert book.element(int(card)).hex() == element


def test_the_round_step_by_step() -> None:
    book = CardBook.of(GAME, [0, 1, 2, 3])
    s = secrets()
    masked, rekeyed = by_seat("sealed-mask", 2), by_seat("sealed-rekey", 2)
    commitments = by_seat("sealed-rekey", 3)
    r = SealedRound.of_cards(book, SEATS, [0, 1, 2, 3])
    for seat in SEATS:
        out = mask_and_shuffle(r.current, s[seat].mask, s[seat].permutation)
        assert out == masked[seat], f"seat {seat}'s mask and shuffle"
        r.on_mask(seat, out)
    for seat in SEATS:
        out, cs = rekey(r.current, s[seat].mask, s[seat].rekeys)
        assert out == rekeyed[seat], f"seat {seat}'s re-key"
        assert cs == commitments[seat], f"seat {seat}'s commitments"
        r.on_rekey(seat, out, cs)
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


def test_a_signed_step() -> None:
    key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    public = key.public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw
    )
    assert public == HEX["sealed-public-key"]
    first = by_seat("sealed-mask", 2)[0]
    step = Step(b"kitchen", 0, "mask", 0, {"elements": first})
    assert step.signed_bytes() == HEX["sealed-signed-bytes"]
    assert sign(key, step).signature == HEX["sealed-signature"]
    key.public_key().verify(HEX["sealed-signature"], HEX["sealed-signed-bytes"])
