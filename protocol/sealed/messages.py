"""The messages that carry a sealing round between the seats, through the host (version 4).

They are declared like the version-3 messages (`protocol.messages`: frozen dataclasses whose
fields say their wire kind, a strict decoder refusing a missing or extra field) but registered
here, in a vocabulary of their own, so that a version-3 table neither sends nor accepts them:
`protocol.messages.decode` does not know these types and this `decode` knows no other.

A step travels as the seat signed it: `seal_step` holds the round, kind, seat and body of the
signed map (docs/sealed.md, section 5) and the signature, and the host relays the very message
it received. The table id is not repeated in every step: each party signs and checks with the
one it learnt from `seal_round`, so a step signed for another table fails its signature.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, TypeVar

from protocol.errors import ErrorCode, LocalProtocolError
from protocol.limits import MAX_SEATS
from protocol.messages import Message, Phase, Sender, decode_in, encode_in, register_in
from protocol.schema import (
    COUNT,
    KEY32,
    SEAT,
    Blob,
    Choice,
    Data,
    Fault,
    Int,
    Kind,
    Record,
    Seq,
    load_fields,
)
from protocol.sealed.group import ELEMENT_BYTES, SCALAR_BYTES
from protocol.sealed.signing import SignedStep, Step
from protocol.wire import kind_of

MAX_SEALED_CARDS = 256
"""Most cards one round seals. The biggest deck (Auf Achse) has 109; at this limit a mask step
(an element, a permutation commitment, a chain link and two responses per position, with its
proof) is about 44 KiB, inside one frame, so no step is ever cut into chunks
(tests/protocol/test_sealed_messages.py holds it)."""

ELEMENT = Blob(ELEMENT_BYTES)
SCALAR = Blob(SCALAR_BYTES)
SIGNATURE = Blob(64)
POSITION = Int(0, MAX_SEALED_CARDS - 1)
CARD = Int(0, 2**32 - 1)
ELEMENTS = Seq(ELEMENT, MAX_SEALED_CARDS)
STEP_KINDS = (
    "mask",
    "rekey",
    "scalars",
    "reveal",
    "secrets",
    # private transfers (protocol/sealed/transfer.py)
    "pass_key",
    "pass",
    # public random draws (protocol/sealed/draws.py)
    "draw_commit",
    "draw_open",
    # simultaneous choices opened (netcards/sealed_choices.py)
    "choice",
    # the deck found tampered with: every seat publishes its secrets (docs/sealed.md, 3)
    "broken",
    # a private transfer that failed its commitment, proved by its receiver (transfer.py)
    "wrong_pass",
)
MAX_ROUNDS = 64
"""Most sealing rounds one game runs (every deal and every reshuffle: Auf Achse seals five
deals and reshuffles small discard piles, 24 rounds in a game whose players hold the total
down); a `secrets` step of that many must still fit one frame."""
"""The kinds of step a sealed table sends (section 5 names one more, `digest`, which travels
inside `secrets`)."""


@dataclasses.dataclass(frozen=True)
class Bin(Kind):
    """Binary of a bounded length (an id chosen by the table)."""

    min_len: int
    max_len: int

    def check(self, value: Any, where: str, fault: Fault, loading: bool) -> Any:
        if type(value) is not bytes:
            raise fault(
                ErrorCode.WRONG_TYPE, f"field '{where}' must be binary, not {kind_of(value)}"
            )
        if not self.min_len <= len(value) <= self.max_len:
            raise fault(
                ErrorCode.OUT_OF_RANGE,
                f"field '{where}' must be {self.min_len} to {self.max_len} bytes, not {len(value)}",
            )
        return value

    def describe(self) -> str:
        return f"bin, {self.min_len} to {self.max_len} bytes"


@dataclasses.dataclass(frozen=True)
class Items(Kind):
    """An array of exactly as many items as `kinds`, each of its kind (a position and its
    scalar; a round, a position and a scalar)."""

    kinds: tuple[Kind, ...]

    def check(self, value: Any, where: str, fault: Fault, loading: bool) -> Any:
        if not (type(value) is list or (not loading and type(value) is tuple)):
            raise fault(
                ErrorCode.WRONG_TYPE, f"field '{where}' must be an array, not {kind_of(value)}"
            )
        if len(value) != len(self.kinds):
            raise fault(
                ErrorCode.OUT_OF_RANGE,
                f"field '{where}' must have {len(self.kinds)} items, not {len(value)}",
            )
        out = [
            kind.check(item, f"{where}[{i}]", fault, loading)
            for i, (kind, item) in enumerate(zip(self.kinds, value, strict=True))
        ]
        return tuple(out) if loading else out

    def describe(self) -> str:
        return f"array [{', '.join(kind.describe() for kind in self.kinds)}]"


@dataclasses.dataclass(frozen=True)
class Fields(Kind):
    """A nested map of exactly the declared fields (a step's proof), kept as a map: what a
    step carries is signed as it came."""

    name: str
    fields: tuple[tuple[str, Kind], ...]

    def check(self, value: Any, where: str, fault: Fault, loading: bool) -> Any:
        if type(value) is not dict:
            raise fault(
                ErrorCode.WRONG_TYPE, f"field '{where}' must be a map, not {kind_of(value)}"
            )
        if loading:
            return load_fields(self.fields, value, where)
        names = {name for name, _ in self.fields}
        if set(value) != names:
            raise fault(
                ErrorCode.MISSING_FIELD,
                f"field '{where}' has the fields {sorted(names)}, not {sorted(value)}",
            )
        return {name: kind.dump(value[name], f"{where}.{name}") for name, kind in self.fields}

    def describe(self) -> str:
        return f"map {self.name}"


SCALARS = Seq(SCALAR, MAX_SEALED_CARDS)
SHOWN = Seq(Items((COUNT, POSITION, SCALAR)), MAX_SEALED_CARDS)
"""A card play's reveal, inside its signed move: [round, position, y] for each card it plays
face up (`seal_act`, `seal_acted`)."""
SHUFFLE_PROOF = Fields(
    "ShuffleProof",
    (
        ("u", ELEMENTS),
        ("B", ELEMENTS),
        ("v", SCALAR),
        ("k_A", SCALAR),
        ("k_B", SCALARS),
        ("k_C", SCALAR),
        ("k_D", SCALAR),
        ("k_E", SCALARS),
        ("k_a", SCALAR),
    ),
)
"""A mask step's proof (`protocol.sealed.shuffle_proof`; docs/sealed.md, section 3)."""
REKEY_PROOF = Fields("RekeyProof", (("v", SCALAR), ("s_a", SCALAR), ("s", SCALARS)))
"""A re-key step's proof (`protocol.sealed.rekey_proof`)."""
NESTED_MAPS = (SHUFFLE_PROOF, REKEY_PROOF)

BODY_FIELDS: dict[str, tuple[tuple[str, Kind], ...]] = {
    "mask": (
        ("input", Blob(32)),
        ("elements", ELEMENTS),
        ("key", ELEMENT),
        ("proof", SHUFFLE_PROOF),
    ),
    "rekey": (
        ("input", Blob(32)),
        ("elements", ELEMENTS),
        ("commitments", ELEMENTS),
        ("proof", REKEY_PROOF),
    ),
    "scalars": (("to", SEAT), ("scalars", Seq(Items((POSITION, SCALAR)), MAX_SEALED_CARDS))),
    "reveal": (("scalars", Seq(Items((POSITION, SCALAR)), MAX_SEALED_CARDS)),),
    "secrets": (
        ("digest", Blob(32)),
        ("masks", Seq(SCALAR, MAX_ROUNDS)),
        ("permutations", Seq(Seq(POSITION, MAX_SEALED_CARDS), MAX_ROUNDS)),
        ("rekeys", Seq(Seq(SCALAR, MAX_SEALED_CARDS), MAX_ROUNDS)),
    ),
    "pass_key": (("positions", Seq(POSITION, MAX_SEALED_CARDS)), ("key", ELEMENT)),
    "pass": (
        ("to", SEAT),
        ("key", ELEMENT),
        ("scalars", Seq(Items((POSITION, SCALAR)), MAX_SEALED_CARDS)),
    ),
    "draw_commit": (("draw", COUNT), ("digest", Blob(32))),
    "draw_open": (("draw", COUNT), ("nonce", Blob(32))),
    # A simultaneous choice opened (netcards/sealed_choices.py): the step's number, the slots
    # chosen, the commitment's nonce. Signed as round 0, as `secrets`: it belongs to no round.
    "choice": (
        ("step", COUNT),
        ("slots", Seq(CARD, MAX_SEALED_CARDS)),
        ("nonce", Blob(32)),
    ),
    # The signer found the deck tampered with. Signed as round 0: it ends the game, not a round.
    "broken": (),
    # The receiver of a `pass` whose scalar fails its commitment: its secret b of the `pass_key`
    # those positions answered, so that every program can open the pass and check it.
    "wrong_pass": (("positions", Seq(POSITION, MAX_SEALED_CARDS)), ("secret", SCALAR)),
}
"""A step's body, by its kind: exactly these fields. `scalars` opens its positions to seat `to`
(the seat that will hold those cards), each as [position, y_ij as 32-byte big-endian]. `reveal`
publishes the signer's scalars of its positions to everyone: its own card played, or, asked by
`seal_reveal`, the positions every seat shows at the end. `secrets`, once the game is scored
(or once a seat said the deck was broken):
the digest of the signer's transcript and its secrets of every round, by round number.
`pass_key` and `pass` hand cards already opened to one seat to another alone (`to`, the seat
that sent the `pass_key`), each scalar sealed to it. `draw_commit` and `draw_open` make a public
random draw (its number, then a commitment to 32 random bytes, then the bytes).
`choice` opens the signer's committed simultaneous choice once every asked seat committed.
`broken`, empty: the signer found the deck tampered with (a card unmasked to no card of its
round, or to one found at another position); every seat then publishes its `secrets` at once.
`wrong_pass`: the receiver of a `pass` whose scalar failed its commitment proves it with its
`pass_key` secret b of those positions (the game stops there)."""


@dataclasses.dataclass(frozen=True)
class Body(Kind):
    """A step's body: a map whose fields depend on the step's kind (`BODY_FIELDS`); the
    message checks them once its kind is known."""

    def check(self, value: Any, where: str, fault: Fault, loading: bool) -> Any:
        if type(value) is not dict:
            raise fault(
                ErrorCode.WRONG_TYPE, f"field '{where}' must be a map, not {kind_of(value)}"
            )
        return value

    def describe(self) -> str:
        return "map, its fields set by kind (see the step bodies)"


class SealMessage(Message):
    """Base of the sealing round's messages, registered with `seal_message`."""

    __slots__ = ()


SEAL_MESSAGE_TYPES: dict[str, type[SealMessage]] = {}


SM = TypeVar("SM", bound=type[SealMessage])


def seal_message(cls: SM) -> SM:
    """Register a sealing round's message (their own registry: a table speaks them only inside
    its `sealed` carrier)."""
    return register_in(SEAL_MESSAGE_TYPES, cls)


@seal_message
@dataclass(frozen=True, slots=True)
class SealKey(SealMessage):
    """A seat's Ed25519 public key for this table, which checks every step it signs. Sent once,
    before the first round; the host hands every seat's key to all in `seal_round`."""

    TYPE: ClassVar[str] = "seal_key"
    SENDER: ClassVar[Sender] = "client"
    PHASE: ClassVar[Phase] = "session"
    key: Annotated[bytes, KEY32]


@dataclass(frozen=True, slots=True)
class SeatKey:
    """One seat's signing key, as `seal_round` lists it."""

    seat: Annotated[int, SEAT]
    key: Annotated[bytes, KEY32]


@seal_message
@dataclass(frozen=True, slots=True)
class SealRound(SealMessage):
    """A sealing round begins: which table and game, its number, the order in which the seats
    mask and then re-key, the cards it seals (their elements, in this order, are the starting
    list) and every seat's signing key. Each seat records it in its transcript, so a host that
    tells two seats different things is found when the digests are compared."""

    TYPE: ClassVar[str] = "seal_round"
    SENDER: ClassVar[Sender] = "host"
    PHASE: ClassVar[Phase] = "session"
    table: Annotated[bytes, Bin(1, 64)]
    round: Annotated[int, COUNT]
    game: Annotated[bytes, Bin(1, 64)]
    seats: Annotated[tuple[int, ...], Seq(SEAT, MAX_SEATS)]
    cards: Annotated[tuple[int, ...], Seq(CARD, MAX_SEALED_CARDS)]
    keys: Annotated[tuple[SeatKey, ...], Seq(Record(SeatKey), MAX_SEATS)]


@seal_message
@dataclass(frozen=True, slots=True)
class SealOpen(SealMessage):
    """The host asks every seat but `to` for its scalars of `positions`: those cards are dealt
    to `to`, which alone can then unmask them."""

    TYPE: ClassVar[str] = "seal_open"
    SENDER: ClassVar[Sender] = "host"
    PHASE: ClassVar[Phase] = "session"
    round: Annotated[int, COUNT]
    to: Annotated[int, SEAT]
    positions: Annotated[tuple[int, ...], Seq(POSITION, MAX_SEALED_CARDS)]


@seal_message
@dataclass(frozen=True, slots=True)
class SealReveal(SealMessage):
    """The host asks every seat of round `round` for its scalars of `positions`, to everyone:
    those cards are shown to the whole table (the hands scored at the end)."""

    TYPE: ClassVar[str] = "seal_reveal"
    SENDER: ClassVar[Sender] = "host"
    PHASE: ClassVar[Phase] = "session"
    round: Annotated[int, COUNT]
    positions: Annotated[tuple[int, ...], Seq(POSITION, MAX_SEALED_CARDS)]


@seal_message
@dataclass(frozen=True, slots=True)
class SealAct(SealMessage):
    """A seat's move, as its sealed engine names it (a played card names its slot and the card),
    the `number`-th move of that seat, with its reveal of the cards it plays face up (each
    card's round, position and the seat's scalar of it), all signed by it in one signature
    (`protocol/sealed/moves.py`) so that no host can play, change or repeat it."""

    TYPE: ClassVar[str] = "seal_act"
    SENDER: ClassVar[Sender] = "client"
    PHASE: ClassVar[Phase] = "session"
    action: Annotated[dict[str, Any], Data()]
    number: Annotated[int, COUNT]
    reveal: Annotated[tuple[tuple[int, int, bytes], ...], SHOWN]
    signature: Annotated[bytes, SIGNATURE]


@seal_message
@dataclass(frozen=True, slots=True)
class SealActed(SealMessage):
    """The host applied seat `seat`'s move, the `seq`-th of the game: every seat checks the
    seat's signature of it (its `number`-th move, its action as the seat sent it) and applies it
    to its own engine."""

    TYPE: ClassVar[str] = "seal_acted"
    SENDER: ClassVar[Sender] = "host"
    PHASE: ClassVar[Phase] = "session"
    seq: Annotated[int, COUNT]
    seat: Annotated[int, SEAT]
    action: Annotated[dict[str, Any], Data()]
    number: Annotated[int, COUNT]
    reveal: Annotated[tuple[tuple[int, int, bytes], ...], SHOWN]
    signature: Annotated[bytes, SIGNATURE]


@seal_message
@dataclass(frozen=True, slots=True)
class SealStep(SealMessage):
    """A signed step, from its seat to the host and, unchanged, from the host to every seat."""

    TYPE: ClassVar[str] = "seal_step"
    SENDER: ClassVar[Sender] = "both"
    PHASE: ClassVar[Phase] = "session"
    round: Annotated[int, COUNT]
    kind: Annotated[str, Choice(*STEP_KINDS)]
    seat: Annotated[int, SEAT]
    body: Annotated[dict[str, Any], Body()]
    signature: Annotated[bytes, SIGNATURE]

    @classmethod
    def of(cls, signed: SignedStep) -> SealStep:
        s = signed.step
        return cls(s.round, s.kind, s.seat, dict(s.body), signed.signature)

    def signed(self, table: bytes) -> SignedStep:
        """The signed step this message carries, at `table`."""
        return SignedStep(Step(table, self.round, self.kind, self.seat, self.body), self.signature)


def _check_body(cls: type[Message], values: dict[str, Any], fault: Fault, loading: bool) -> None:
    """A step's body, checked once its kind is known (`BODY_FIELDS`)."""
    if cls is not SealStep:
        return
    body = values["body"]
    fields = BODY_FIELDS[values["kind"]]
    if loading:
        values["body"] = load_fields(fields, body, "body")
        return
    names = {name for name, _ in fields}
    if set(body) != names:
        raise LocalProtocolError(
            ErrorCode.MISSING_FIELD,
            f"a {values['kind']} step's body has the fields {sorted(names)}, not {sorted(body)}",
        )
    values["body"] = {name: kind.dump(body[name], f"body.{name}") for name, kind in fields}


def encode(msg: SealMessage) -> dict[str, Any]:
    """A message as the map that goes on the wire; invalid fields raise LocalProtocolError."""
    return encode_in(SEAL_MESSAGE_TYPES, msg, kind="sealed", finish=_check_body)


def decode(data: Any) -> SealMessage:
    """A received map as its sealed message; every problem is a RemoteProtocolError naming it."""
    msg = decode_in(SEAL_MESSAGE_TYPES, data, kind="sealed ", finish=_check_body)
    assert isinstance(msg, SealMessage)
    return msg
