"""A sealed round played out in one process, honest unless a test changes a step, with every
step signed, relayed and recorded the way a table will do it."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from protocol.sealed.cards import CardBook
from protocol.sealed.deck import SealedRound
from protocol.sealed.group import SCALAR_BYTES
from protocol.sealed.shuffle import SeatSecrets, mask_body, rekey_body
from protocol.sealed.signing import SignedStep, Step, sign, table_signing_key, verify
from protocol.sealed.transcript import Transcript

TABLE = b"kitchen table 1"


def stream(seed: bytes) -> Callable[[int], bytes]:
    """Deterministic random bytes: SHA-256 in counter mode."""
    counter = 0

    def draw(n: int) -> bytes:
        nonlocal counter
        out = b""
        while len(out) < n:
            out += hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
            counter += 1
        return out[:n]

    return draw


def y_bytes(y: int) -> bytes:
    return y.to_bytes(SCALAR_BYTES, "big")


@dataclass
class Table:
    book: CardBook
    seats: tuple[int, ...]
    secrets: dict[int, SeatSecrets]
    keys: dict[int, Ed25519PrivateKey]
    round_no: int = 0
    relay: int = 0
    """The seat that hosts: it relays every step."""
    public: dict[int, Ed25519PublicKey] = field(default_factory=dict)
    transcripts: dict[int, Transcript] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.public = {s: k.public_key() for s, k in self.keys.items()}
        self.transcripts = {s: Transcript(TABLE) for s in self.seats}

    def publish(self, seat: int, kind: str, body: dict[str, object]) -> Step:
        """Seat signs a step; the relay checks it and shows it to every seat, which checks it
        again and records it."""
        signed = sign(self.keys[seat], Step(TABLE, self.round_no, kind, seat, body))
        return self.deliver(signed)

    def deliver(self, signed: SignedStep, to: Sequence[int] | None = None) -> Step:
        step = verify(signed, self.public, self.relay)
        for s in self.seats if to is None else to:
            self.transcripts[s].add(signed)
        return step


def new_table(book: CardBook, seats: Sequence[int], seed: bytes, size: int) -> Table:
    draw = stream(seed)
    secrets = {s: SeatSecrets.draw(size, draw) for s in seats}
    keys = {s: table_signing_key(draw) for s in seats}
    return Table(book, tuple(seats), secrets, keys)


def seal(
    table: Table,
    cards: Sequence[int],
    tamper: Callable[[str, int, list[bytes]], list[bytes]] | None = None,
    proved: bool = True,
) -> SealedRound:
    """Both passes by every seat in turn, each published through the relay with its proof;
    `tamper` may change the list a seat publishes (pass name, seat, list) to play a cheat,
    after the seat proved the honest list. With `proved`, every party's round takes each step
    as a table does, checking its proof (a tampered step is refused: `Caught`); without, the
    round records the steps unchecked, as they would stand had nobody checked them (what the
    end-of-game audit, the second check, is tested on)."""
    r = SealedRound.of_cards(table.book, table.seats, cards, TABLE, table.round_no)
    for phase in ("mask", "rekey"):
        for seat in table.seats:
            s = table.secrets[seat]
            make = mask_body if phase == "mask" else rekey_body
            body = make(r.context(seat), r.current, s, stream(b"nonces %d" % seat))
            if tamper:
                body["elements"] = tamper(phase, seat, list(body["elements"]))
            step = table.publish(seat, phase, body)
            if proved:
                (r.on_mask if phase == "mask" else r.on_rekey)(seat, step.body)
            elif phase == "mask":
                r.masked.append(tuple(step.body["elements"]))
                r.keys[seat] = step.body["key"]
            else:
                r.rekeyed.append(tuple(step.body["elements"]))
                r.commitments[seat] = tuple(step.body["commitments"])
    return r


def open_to(table: Table, r: SealedRound, owner: int, positions: Sequence[int]) -> list[int]:
    """Every other seat publishes its scalars for `positions`; the owner reads its cards."""
    for seat in table.seats:
        if seat == owner:
            continue
        ys = {p: table.secrets[seat].rekeys[p] for p in positions}
        step = table.publish(seat, "scalars", {"scalars": [[p, y_bytes(y)] for p, y in ys.items()]})
        r.on_scalars(seat, {p: int.from_bytes(y, "big") for p, y in step.body["scalars"]})
    mine = table.secrets[owner].rekeys
    return [r.open_for(owner, p, mine[p]) for p in positions]


def reveal(table: Table, r: SealedRound, owner: int, position: int) -> int:
    y = table.secrets[owner].rekeys[position]
    step = table.publish(owner, "scalars", {"scalars": [[position, y_bytes(y)]]})
    r.on_scalars(owner, {p: int.from_bytes(b, "big") for p, b in step.body["scalars"]})
    return r.revealed(position)
