"""docs/sealed.md against the code beyond the wire's tables: the vectors of the game layer's
hashes (the public seed, a choice's commitment, a draw, a private transfer, the transcript),
every label the sealed code hashes under, the slot numbering and the verdict's kinds. Each is
recomputed with the code, so a page that says other bytes, or code that changes them, fails."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from netcards import sealed_choices, sealed_game
from netcards.rng import Rng
from netcards.sealed_cards import SLOT_BASE
from protocol.sealed import (
    challenge,
    draws,
    group,
    rekey_proof,
    seed_stream,
    shuffle,
    shuffle_proof,
    signing,
    transcript,
    transfer,
)
from protocol.sealed.canonical import canonical
from protocol.sealed.cards import CARD_LABEL
from protocol.sealed.group import N, commit, mul
from protocol.sealed.messages import SealRound, SeatKey, encode
from protocol.sealed.moves import move_step
from protocol.sealed.signing import sign
from protocol.sealed.transcript import Transcript
from tests.docs.markdown import examples, marked_tables, unquote

ROOT = Path(__file__).parents[2]
DOC = (ROOT / "docs" / "sealed.md").read_text(encoding="utf-8")
TABLES = marked_tables(DOC)
HEX = {e.kind: bytes.fromhex("".join(e.text.split())) for e in examples(DOC, "hex")}


def vector(name: str) -> dict[str, str]:
    return {unquote(row[0]): unquote(row[1]) for row in TABLES[name]}


def scalar(label: str) -> int:
    return int.from_bytes(hashlib.sha256(label.encode()).digest(), "big") % N


def test_the_public_seed_and_its_first_player() -> None:
    v = vector("sealed-public-seed")
    commitment = bytes([0x11]) * 32
    parts = {0: bytes([0x22]) * 32, 2: bytes([0x33]) * 32}
    hashed = sealed_game.SEED_LABEL + commitment + b"\x00" + parts[0] + b"\x02" + parts[2]
    assert v["hashed"] == hashed.hex()
    seed = sealed_game.public_seed(commitment, parts)
    assert v["public seed"] == seed.hex() == hashlib.sha256(hashed).hexdigest()
    firsts = [Rng(seed).below(players) for players in (2, 3, 4, 5)]
    assert v["first player, 2 to 5 players"] == ", ".join(map(str, firsts))


def test_a_choice_s_commitment() -> None:
    v = vector("sealed-choice")
    nonce = bytes(range(32))
    hashed = bytes.fromhex(v["hashed"])
    assert hashed.startswith(b"netcards sealed choice v1\x00") == (
        sealed_choices.DOMAIN == b"netcards sealed choice v1\x00"
    )
    assert (
        hashed
        == sealed_choices.DOMAIN
        + b"".join(x.to_bytes(8, "big", signed=True) for x in (3, 1, 2, 65632, 65540))
        + nonce
    )
    digest = sealed_choices.commitment(3, 1, [65632, 65540], nonce)
    assert v["commitment"] == digest.hex() == hashlib.sha256(hashed).hexdigest()
    # The `commit` move of the Auf Achse page carries these very bytes.
    page = (ROOT / "docs" / "games" / "auf-achse.md").read_text(encoding="utf-8")
    assert f'"commitment": {list(digest)}' in page


def test_a_public_random_draw() -> None:
    v = vector("sealed-draw")
    nonces = {s: hashlib.sha256(f"draw nonce {s}".encode()).digest() for s in (0, 1)}
    for seat, nonce in nonces.items():
        assert v[f"seat {seat}'s nonce"] == nonce.hex()
        assert v[f"seat {seat}'s commitment"] == draws.draw_commitment(2, seat, nonce).hex()
    assert v["value"] == draws.draw_value(2, nonces).hex()


def test_a_private_transfer() -> None:
    v = vector("sealed-pass")
    b, e, y = scalar("pass b"), scalar("pass e"), scalar("pass y")
    assert [v["b"], v["e"], v["y"]] == [k.to_bytes(32, "big").hex() for k in (b, e, y)]
    assert (v["B"], v["E"]) == (commit(b).hex(), commit(e).hex())
    shared = mul(commit(b), e)
    assert v["shared"] == shared.hex() == mul(commit(e), b).hex()
    assert v["pad"] == transfer.pad(shared, 1, 7).hex()
    sealed = transfer.seal_scalar(y, commit(b), e, 1, 7)
    assert v["sealed scalar"] == sealed.hex()
    assert transfer.open_scalar(sealed, commit(e), b, 1, 7) == y


def test_the_transcript_chains_a_round_s_setup_then_a_move() -> None:
    v = vector("sealed-transcript")
    keys = [Ed25519PrivateKey.from_private_bytes(bytes(range(k, k + 32))) for k in (0, 32, 64)]
    raw = [k.public_key().public_bytes_raw() for k in keys]
    setup = SealRound(
        b"kitchen",
        0,
        b"netcards sealed test vector",
        (0, 1, 2),
        (0, 1, 2, 3),
        tuple(SeatKey(s, raw[s]) for s in range(3)),
    )
    chain = Transcript(b"kitchen")
    assert v["d_0"] == chain.digest.hex()
    encoded = canonical(encode(setup))
    assert HEX["sealed-setup-bytes"] == encoded and b"\xa4type\xaaseal_round" in encoded
    chain.note(encoded)
    assert v["d_1, after the round's setup"] == chain.digest.hex()
    step = move_step(b"kitchen", 0, 1, {"kind": "rest"}, [])
    assert HEX["sealed-move-bytes"] == step.signed_bytes()
    signed = sign(keys[0], step)
    assert HEX["sealed-move-signature"] == signed.signature
    chain.add(signed)
    assert v["d_2, after the move"] == chain.digest.hex()


def choice_nonce_label() -> bytes:
    """Our client's label for its choice nonces (`SealedSeat._nonce`), as its source has it."""
    source = (ROOT / "protocol" / "sealed_play" / "seat.py").read_text(encoding="utf-8")
    (label,) = re.findall(r'b"(netcards sealed choice nonce v\d)"', source)
    return label.encode()


def test_every_label_the_sealed_code_hashes_under_is_on_the_page() -> None:
    """A label the page gives otherwise (a version left behind) fails here."""
    labels = [
        group.HASH_LABEL,
        challenge.LIST_LABEL,
        shuffle_proof.LABEL,
        shuffle_proof.GENERATOR_LABEL,
        rekey_proof.LABEL,
        shuffle.NONCE_LABEL,
        shuffle.PROOF_KEY_LABEL,
        transcript.DIGEST_LABEL,
        transfer.PAD_LABEL,
        draws.COMMIT_LABEL,
        draws.VALUE_LABEL,
        seed_stream.LABEL,
        sealed_game.SEED_LABEL,
        sealed_choices.DOMAIN.rstrip(b"\x00"),
        choice_nonce_label(),
    ]
    text = " ".join(DOC.split())  # a label may be cut at a line's end
    for label in labels:
        assert f"`{label.decode()}`" in text, label
    for quoted in (CARD_LABEL, signing.STEP_LABEL):  # inside a map or an array the page shows
        assert f'"{quoted}"' in text, quoted
    for named in re.findall(r"`(netcards sealed [a-z -]+ v\d)`", text):
        assert named.encode() in labels, f"the page names a label no code uses: {named}"


def test_slots_start_where_the_page_says() -> None:
    assert SLOT_BASE == 65536
    assert "integer of 65536\n(2^16, above every card id) or more" in DOC


def test_no_step_kind_is_named_that_no_step_has() -> None:
    """Section 5 lists the kinds a seat signs under: the step kinds and `move`, no other."""
    section = DOC.split("## 5. Signed steps and the transcript", 1)[1].split("\n## 6.", 1)[0]
    named = set(re.findall(r"`([a-z_]+)`", section.split("or `move`", 1)[0]))
    assert named - {"kind"} == set(signing.KINDS) - {"move"}


KIND = re.compile(
    r'(?:(?:Caught|Finding)\(\s*[\w.]+(?:\s*[+-]\s*\d+)?,|_refuse\()\s*"([a-z_]+)"', re.S
)


def test_the_verdict_s_kinds_are_the_code_s() -> None:
    """Every kind of finding the sealed code can name is in the verdict's table, and the table
    names no other."""
    found: set[str] = set()
    for folder in ("protocol/sealed", "protocol/sealed_play"):
        for path in (ROOT / folder).glob("*.py"):
            found.update(KIND.findall(path.read_text(encoding="utf-8")))
    client = (ROOT / "protocol" / "client_sealed.py").read_text(encoding="utf-8")
    found.update(KIND.findall(client))
    found.update({"wrong_mask", "wrong_rekey"})  # named by a variable (protocol/sealed/audit.py)
    documented = {unquote(row[0]) for row in TABLES["sealed-verdict-kinds"]}
    assert documented == found
