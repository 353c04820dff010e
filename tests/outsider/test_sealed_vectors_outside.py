"""The outside client's sealed cryptography (tests/outsider/curve.py, proofs.py, sealing.py,
written from docs/sealed.md and the game pages alone) gives every vector the pages print: the
cards, a whole round, both proofs byte for byte with the page's nonces, a signed step, and the
game layer's hashes (the public seed, a choice's commitment, a draw, a private transfer, the
transcript, `steal_positions`)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tests.outsider.curve import N, commit, hash_to_group, inverse, mul, u32
from tests.outsider.proofs import (
    Statement,
    check_rekey,
    check_shuffle,
    list_digest,
    prove_rekey,
    prove_shuffle,
)
from tests.outsider.sealing import (
    Chain,
    canonical,
    card_element,
    choice_commitment,
    draw_commitment,
    draw_value,
    pass_pad,
    public_seed,
    signed_bytes,
    steal_positions,
    xor,
)

DOCS = Path(__file__).parents[2] / "docs"
SEALED = (DOCS / "sealed.md").read_text(encoding="utf-8")
VELONIMO = (DOCS / "games" / "velonimo.md").read_text(encoding="utf-8")
GAME, TABLE = b"netcards sealed test vector", b"kitchen"


def table(text: str, marker: str) -> list[list[str]]:
    """The rows of the table after `<!-- marker -->`, code quotes taken off."""
    lines = text.split(f"<!-- {marker} -->\n", 1)[1].splitlines()
    rows = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip().strip("`") for c in line.strip().strip("|").split("|")])
    return rows


def pairs(marker: str) -> dict[str, str]:
    return {row[0]: row[1] for row in table(SEALED, marker)}


def hex_block(kind: str) -> bytes:
    body = SEALED.split(f"```hex {kind}\n", 1)[1].split("```", 1)[0]
    return bytes.fromhex("".join(body.split()))


def scalar(label: str) -> int:
    return int.from_bytes(hashlib.sha256(label.encode()).digest(), "big") % N


def nonces(prefix: str):  # type: ignore[no-untyped-def]
    count = [0]

    def next_nonce() -> int:
        out = int.from_bytes(hashlib.sha256(f"{prefix} {count[0]}".encode()).digest(), "big")
        count[0] += 1
        return out

    return next_nonce


def secrets() -> dict[int, tuple[int, list[int], list[int]]]:
    got: dict[int, dict[str, str]] = {}
    for seat, what, value in table(SEALED, "sealed-secrets"):
        got.setdefault(int(seat), {})[what] = value
    return {
        s: (int(v["mask"], 16), [int(p) for p in v["permutation"].split(", ")],
            [int(v[f"rekey {j}"], 16) for j in range(4)])
        for s, v in got.items()
    }  # fmt: skip


def by_seat(marker: str, column: int) -> dict[int, list[bytes]]:
    out: dict[int, list[bytes]] = {}
    for row in table(SEALED, marker):
        out.setdefault(int(row[0]), []).append(bytes.fromhex(row[column]))
    return out


def test_the_round_of_section_6_and_its_proofs() -> None:
    cards = table(SEALED, "sealed-cards")
    start = [card_element(GAME, int(c)) for c, _, _ in cards]
    assert [x.hex() for x in start] == [e for _, _, e in cards]
    assert [canonical(["netcards sealed card v5", GAME, int(c)]).hex() for c, _, _ in cards] == [
        label for _, label, _ in cards
    ]
    s = secrets()
    for seat, (mask, _, rekeys) in s.items():
        assert mask == scalar(f"mask {seat}") and rekeys == [
            scalar(f"rekey {seat} {j}") for j in range(4)
        ]
    masked, rekeyed, commitments = (
        by_seat("sealed-mask", 2),
        by_seat("sealed-rekey", 2),
        by_seat("sealed-rekey", 3),
    )
    keys = {
        int(r[0]): (bytes.fromhex(r[1]), bytes.fromhex(r[2])) for r in table(SEALED, "sealed-keys")
    }
    current = start
    for seat in (0, 1, 2):
        mask, perm, _ = s[seat]
        out = [mul(current[k], mask) for k in perm]
        assert out == masked[seat] and keys[seat] == (commit(mask), list_digest(current))
        st = Statement(TABLE, 0, seat, list_digest(current))
        proof = prove_shuffle(
            st, current, out, commit(mask), mask, perm, nonces(f"mask proof {seat}")
        )
        assert check_shuffle(st, current, out, commit(mask), proof)
        if seat == 0:
            assert canonical(proof) == hex_block("sealed-shuffle-proof-bytes")
            body = {
                "input": list_digest(current),
                "elements": out,
                "key": commit(mask),
                "proof": proof,
            }
            data = signed_bytes(TABLE, 0, "mask", 0, body)
            assert data == hex_block("sealed-signed-bytes")
            key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
            assert key.public_key().public_bytes_raw() == hex_block("sealed-public-key")
            assert key.sign(data) == hex_block("sealed-signature")
        current = out
    for seat in (0, 1, 2):
        mask, _, rekeys = s[seat]
        out = [mul(x, y * inverse(mask) % N) for x, y in zip(current, rekeys, strict=True)]
        cs = [commit(y) for y in rekeys]
        assert out == rekeyed[seat] and cs == commitments[seat]
        st = Statement(TABLE, 0, seat, list_digest(current))
        proof = prove_rekey(
            st, current, out, cs, commit(mask), mask, rekeys, nonces(f"rekey proof {seat}")
        )
        assert check_rekey(st, current, out, cs, commit(mask), proof)
        if seat == 0:
            assert list_digest(current).hex() == pairs("sealed-rekey-proof")["input"]
            assert canonical(proof) == hex_block("sealed-rekey-proof-bytes")
        current = out
    for position, owner, stripped, card in table(SEALED, "sealed-open"):
        j, o = int(position), int(owner)
        others = 1
        for seat in (0, 1, 2):
            if seat != o:
                others = others * s[seat][2][j] % N
        assert mul(current[j], inverse(others)).hex() == stripped
        assert mul(bytes.fromhex(stripped), inverse(s[o][2][j])) == start[int(card)]
    for i, element in table(SEALED, "sealed-generators"):
        assert hash_to_group(b"netcards sealed generator v5" + u32(int(i))).hex() == element


def test_the_game_layer_s_hashes() -> None:
    seed = pairs("sealed-public-seed")
    got = public_seed(bytes([0x11]) * 32, {0: bytes([0x22]) * 32, 2: bytes([0x33]) * 32})
    assert seed["public seed"] == got.hex()
    choice = pairs("sealed-choice")
    assert choice["commitment"] == choice_commitment(3, 1, [65632, 65540], bytes(range(32))).hex()
    draw = pairs("sealed-draw")
    ns = {s: bytes.fromhex(draw[f"seat {s}'s nonce"]) for s in (0, 1)}
    for s in (0, 1):
        assert draw[f"seat {s}'s commitment"] == draw_commitment(2, s, ns[s]).hex()
    assert draw["value"] == draw_value(2, ns).hex()
    transfer = pairs("sealed-pass")
    b, e, y = (int(transfer[k], 16) for k in ("b", "e", "y"))
    shared = mul(commit(b), e)
    assert shared == mul(commit(e), b) and transfer["shared"] == shared.hex()
    assert transfer["sealed scalar"] == xor(y.to_bytes(32, "big"), pass_pad(shared, 1, 7)).hex()
    chain = pairs("sealed-transcript")
    keys = [Ed25519PrivateKey.from_private_bytes(bytes(range(k, k + 32))) for k in (0, 32, 64)]
    setup = {
        "type": "seal_round", "table": TABLE, "round": 0, "game": GAME, "seats": [0, 1, 2],
        "cards": [0, 1, 2, 3],
        "keys": [{"seat": s, "key": k.public_key().public_bytes_raw()} for s, k in enumerate(keys)],
    }  # fmt: skip
    digest = Chain(TABLE)
    assert chain["d_0"] == digest.digest.hex()
    assert canonical(setup) == hex_block("sealed-setup-bytes")
    digest.add(canonical(setup))
    assert chain["d_1, after the round's setup"] == digest.digest.hex()
    move = signed_bytes(
        TABLE, 0, "move", 0, {"number": 1, "action": {"kind": "rest"}, "reveal": []}
    )
    assert move == hex_block("sealed-move-bytes")
    assert keys[0].sign(move) == hex_block("sealed-move-signature")
    digest.add(move + keys[0].sign(move))
    assert chain["d_2, after the move"] == digest.digest.hex()


def test_steal_positions_from_the_velonimo_page() -> None:
    value = bytes.fromhex(pairs("sealed-draw")["value"])
    rows = table(VELONIMO, "sealed: steal positions")
    assert rows
    for size, count, taken in rows:
        assert steal_positions(value, int(size), int(count)) == [int(x) for x in taken.split(", ")]
