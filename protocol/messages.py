"""Every message of the protocol, as frozen dataclasses, with the one encoder and decoder.

On the wire a message is a msgpack map: `"type"` names the message, every other key is one of
its declared fields, all of them present, nothing else. `SENDER` says which role may send it (a
connection refuses a message from the wrong side) and `PHASE` whether it is a plaintext
handshake message or an encrypted session message. Game-specific parts (an action, a view,
events, options, an outcome) are nested plain maps whose generic shape is checked here; the
game's own codec checks an action's meaning at the host.

(Longer than the other modules on purpose: every message is declared here, one after another,
so that the whole vocabulary of the protocol reads in one place beside `docs/protocol.md`.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from protocol.errors import ErrorCode, LocalProtocolError, RemoteProtocolError
from protocol.limits import MAX_SEATS
from protocol.schema import (
    COUNT,
    KEY32,
    NAME,
    SEAT,
    Blob,
    Bool,
    Choice,
    Data,
    Fault,
    Int,
    Kind,
    Opt,
    Record,
    Seq,
    Text,
    dump_fields,
    fields_of,
    load_fields,
)
from protocol.wire import kind_of

Sender = Literal["host", "client", "both"]
Phase = Literal["handshake", "session", "any"]

VERSION = Int(0, 65535)
SIGNATURE = Blob(64)
SALT = Blob(16)
LEVEL = Text(1, 32)
REASON = Text(0, 200)
CHAT_MAX = 500
"""The longest line of chat, in characters (Python's `len`, as `Text` counts), not bytes."""


class Message:
    """Base of every message. Subclasses are frozen dataclasses registered with `message`."""

    __slots__ = ()
    TYPE: ClassVar[str]
    SENDER: ClassVar[Sender]
    PHASE: ClassVar[Phase]


MESSAGE_TYPES: dict[str, type[Message]] = {}


M = TypeVar("M", bound=type[Message])


def register_in(types: dict[str, Any], cls: M) -> M:
    """Register a message class in `types` under its TYPE (and check its fields are all
    declared). Version 3's messages are one registry, a sealing round's (protocol/sealed/)
    another, so that neither end of a table speaks the other's by mistake."""
    if cls.TYPE in types:
        raise TypeError(f"two messages share the type {cls.TYPE!r}")
    fields_of(cls)
    types[cls.TYPE] = cls
    return cls


def message(cls: M) -> M:
    """Register a message class of the table's protocol."""
    return register_in(MESSAGE_TYPES, cls)


# -- handshake (plaintext) ----------------------------------------------------------------------


@message
@dataclass(frozen=True, slots=True)
class ClientHello(Message):
    """The client's first frame: its protocol version and its ephemeral X25519 public key."""

    TYPE: ClassVar[str] = "client_hello"
    SENDER: ClassVar[Sender] = "client"
    PHASE: ClassVar[Phase] = "handshake"
    version: Annotated[int, VERSION]
    key_share: Annotated[bytes, KEY32]


@message
@dataclass(frozen=True, slots=True)
class HostHello(Message):
    """The host's answer: version, long-term identity key, ephemeral key, password salt."""

    TYPE: ClassVar[str] = "host_hello"
    SENDER: ClassVar[Sender] = "host"
    PHASE: ClassVar[Phase] = "handshake"
    version: Annotated[int, VERSION]
    identity: Annotated[bytes, KEY32]
    key_share: Annotated[bytes, KEY32]
    password_salt: Annotated[bytes | None, Opt(SALT)]
    table: Annotated[str, Text(0, 64)]


@message
@dataclass(frozen=True, slots=True)
class HostAuth(Message):
    """The host's Ed25519 signature over the transcript hash so far."""

    TYPE: ClassVar[str] = "host_auth"
    SENDER: ClassVar[Sender] = "host"
    PHASE: ClassVar[Phase] = "handshake"
    signature: Annotated[bytes, SIGNATURE]


@message
@dataclass(frozen=True, slots=True)
class Confirm(Message):
    """The first encrypted frame in each direction: proof that both ends derived the same keys."""

    TYPE: ClassVar[str] = "confirm"
    SENDER: ClassVar[Sender] = "both"
    PHASE: ClassVar[Phase] = "session"


@message
@dataclass(frozen=True, slots=True)
class Error(Message):
    """A refusal. Plaintext (and always fatal) during the handshake, encrypted afterwards."""

    TYPE: ClassVar[str] = "error"
    SENDER: ClassVar[Sender] = "both"
    PHASE: ClassVar[Phase] = "any"
    code: Annotated[str, Text(1, 64)]
    text: Annotated[str, Text(0, 500)]
    fatal: Annotated[bool, Bool()]
    detail: Annotated[dict[str, Any], Data(text=True)]


# -- lobby ----------------------------------------------------------------------------------------


@message
@dataclass(frozen=True, slots=True)
class Join(Message):
    """Take a seat (or watch). `resume` is the seat token of an earlier `seated`, to rejoin it."""

    TYPE: ClassVar[str] = "join"
    SENDER: ClassVar[Sender] = "client"
    PHASE: ClassVar[Phase] = "session"
    name: Annotated[str, NAME]
    resume: Annotated[bytes | None, Opt(KEY32)]
    spectator: Annotated[bool, Bool()]


@message
@dataclass(frozen=True, slots=True)
class Seated(Message):
    """The host's answer to `join`: the seat (nil for a spectator) and the token to resume it."""

    TYPE: ClassVar[str] = "seated"
    SENDER: ClassVar[Sender] = "host"
    PHASE: ClassVar[Phase] = "session"
    seat: Annotated[int | None, Opt(SEAT)]
    token: Annotated[bytes | None, Opt(KEY32)]
    resumed: Annotated[bool, Bool()]
    owner: Annotated[bool, Bool()]


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat as the lobby shows it."""

    seat: Annotated[int, SEAT]
    kind: Annotated[str, Choice("open", "human", "bot")]
    name: Annotated[str, Text(0, 32)]
    ready: Annotated[bool, Bool()]
    connected: Annotated[bool, Bool()]
    bot_level: Annotated[str | None, Opt(LEVEL)]
    stand_in: Annotated[bool, Bool()]


@message
@dataclass(frozen=True, slots=True)
class Lobby(Message):
    """The whole lobby, sent again on every change: game, options, seats, spectators."""

    TYPE: ClassVar[str] = "lobby"
    SENDER: ClassVar[Sender] = "host"
    PHASE: ClassVar[Phase] = "session"
    table: Annotated[str, Text(0, 64)]
    game: Annotated[str, Text(1, 64)]
    players: Annotated[int, Int(1, MAX_SEATS)]
    options: Annotated[dict[str, Any], Data()]
    seats: Annotated[tuple[SeatInfo, ...], Seq(Record(SeatInfo), MAX_SEATS)]
    spectators: Annotated[int, Int(0, 1024)]
    password: Annotated[bool, Bool()]
    phase: Annotated[str, Choice("lobby", "dealing", "playing", "over")]
    note: Annotated[str, REASON]
    turn_clock_ms: Annotated[int, COUNT]
    sealed: Annotated[bool, Bool()] = False
    """Played sealed (docs/sealed.md): nobody, the host included, sees a card it may not."""


@message
@dataclass(frozen=True, slots=True)
class Ready(Message):
    """A seated player is (or is no longer) ready to start."""

    TYPE: ClassVar[str] = "ready"
    SENDER: ClassVar[Sender] = "client"
    PHASE: ClassVar[Phase] = "session"
    ready: Annotated[bool, Bool()]


@message
@dataclass(frozen=True, slots=True)
class SetOptions(Message):
    """The table owner changes the game, the player count or the game's options."""

    TYPE: ClassVar[str] = "set_options"
    SENDER: ClassVar[Sender] = "client"
    PHASE: ClassVar[Phase] = "session"
    game: Annotated[str, Text(1, 64)]
    players: Annotated[int, Int(1, MAX_SEATS)]
    options: Annotated[dict[str, Any], Data()]


@message
@dataclass(frozen=True, slots=True)
class AddBot(Message):
    """The table owner puts a bot of `level` in an open seat."""

    TYPE: ClassVar[str] = "add_bot"
    SENDER: ClassVar[Sender] = "client"
    PHASE: ClassVar[Phase] = "session"
    seat: Annotated[int, SEAT]
    level: Annotated[str, LEVEL]


@message
@dataclass(frozen=True, slots=True)
class RemoveBot(Message):
    """The table owner opens a bot's seat again."""

    TYPE: ClassVar[str] = "remove_bot"
    SENDER: ClassVar[Sender] = "client"
    PHASE: ClassVar[Phase] = "session"
    seat: Annotated[int, SEAT]


# -- the verifiable deal ------------------------------------------------------------------------


@message
@dataclass(frozen=True, slots=True)
class Commit(Message):
    """Before the deal: the hash of the host's secret seed part; `seats` are asked to pledge."""

    TYPE: ClassVar[str] = "commit"
    SENDER: ClassVar[Sender] = "host"
    PHASE: ClassVar[Phase] = "session"
    commitment: Annotated[bytes, KEY32]
    seats: Annotated[tuple[int, ...], Seq(SEAT, MAX_SEATS)]
    sealed: Annotated[bool, Bool()] = False
    """The round makes a sealed game's public seed only: no card is dealt from it. A client
    told by the lobby that the table is sealed refuses a round without it (and the reverse)."""


@message
@dataclass(frozen=True, slots=True)
class Pledge(Message):
    """A player's promise of its random seed part: the hash of the part, sent before any part
    is revealed."""

    TYPE: ClassVar[str] = "pledge"
    SENDER: ClassVar[Sender] = "client"
    PHASE: ClassVar[Phase] = "session"
    commitment: Annotated[bytes, KEY32]


@dataclass(frozen=True, slots=True)
class SeatPledge:
    """One seat's pledge, as published in `pledges`."""

    seat: Annotated[int, SEAT]
    commitment: Annotated[bytes, KEY32]


@message
@dataclass(frozen=True, slots=True)
class Pledges(Message):
    """Every pledge the deal will use, published before anyone reveals a part."""

    TYPE: ClassVar[str] = "pledges"
    SENDER: ClassVar[Sender] = "host"
    PHASE: ClassVar[Phase] = "session"
    pledges: Annotated[tuple[SeatPledge, ...], Seq(Record(SeatPledge), MAX_SEATS)]


@message
@dataclass(frozen=True, slots=True)
class Contribute(Message):
    """A player's random part of the game seed, revealed once it saw every pledge published."""

    TYPE: ClassVar[str] = "contribute"
    SENDER: ClassVar[Sender] = "client"
    PHASE: ClassVar[Phase] = "session"
    part: Annotated[bytes, KEY32]


@dataclass(frozen=True, slots=True)
class Contribution:
    """One seat's seed part, as published in `start` and `audit`."""

    seat: Annotated[int, SEAT]
    part: Annotated[bytes, KEY32]


# -- the game -------------------------------------------------------------------------------------


@message
@dataclass(frozen=True, slots=True)
class Start(Message):
    """The game begins: the table config, who sits where, every published seed part, and the
    card catalogue (every card of this table's deck, by id), so a client needs no deck file."""

    TYPE: ClassVar[str] = "start"
    SENDER: ClassVar[Sender] = "host"
    PHASE: ClassVar[Phase] = "session"
    game: Annotated[str, Text(1, 64)]
    rules_version: Annotated[str, Text(1, 64)]
    players: Annotated[int, Int(1, MAX_SEATS)]
    options: Annotated[dict[str, Any], Data()]
    names: Annotated[tuple[str, ...], Seq(Text(0, 32), MAX_SEATS)]
    seat: Annotated[int | None, Opt(SEAT)]
    commitment: Annotated[bytes, KEY32]
    contributions: Annotated[tuple[Contribution, ...], Seq(Record(Contribution), MAX_SEATS)]
    cards: Annotated[tuple[dict[str, Any], ...], Seq(Data())]
    sealed: Annotated[bool, Bool()] = False
    """The game is played sealed (the lobby said so): no `snapshot` or `update` follows."""


@message
@dataclass(frozen=True, slots=True)
class Action(Message):
    """A seat's move. `seq` is the last update the client saw, so the host can refuse stale ones."""

    TYPE: ClassVar[str] = "action"
    SENDER: ClassVar[Sender] = "client"
    PHASE: ClassVar[Phase] = "session"
    seq: Annotated[int, COUNT]
    action: Annotated[dict[str, Any], Data()]


@message
@dataclass(frozen=True, slots=True)
class Update(Message):
    """What one action did, as this seat may see it, and the seat's view afterwards."""

    TYPE: ClassVar[str] = "update"
    SENDER: ClassVar[Sender] = "host"
    PHASE: ClassVar[Phase] = "session"
    seq: Annotated[int, COUNT]
    actor: Annotated[int, SEAT]
    events: Annotated[tuple[dict[str, Any], ...], Seq(Data())]
    view: Annotated[dict[str, Any], Data()]
    to_act: Annotated[tuple[int, ...], Seq(SEAT, MAX_SEATS)]


@message
@dataclass(frozen=True, slots=True)
class Sealed(Message):
    """A message of a sealed table's game (docs/sealed.md, section 7), carried whole: `message`
    is a map of that vocabulary (`protocol.sealed.messages`), decoded by it at each end, so the
    sealed messages keep a registry of their own."""

    TYPE: ClassVar[str] = "sealed"
    SENDER: ClassVar[Sender] = "both"
    PHASE: ClassVar[Phase] = "session"
    message: Annotated[dict[str, Any], Data()]


@message
@dataclass(frozen=True, slots=True)
class Snapshot(Message):
    """The whole present for one seat, on joining or resuming mid-game."""

    TYPE: ClassVar[str] = "snapshot"
    SENDER: ClassVar[Sender] = "host"
    PHASE: ClassVar[Phase] = "session"
    seq: Annotated[int, COUNT]
    view: Annotated[dict[str, Any], Data()]
    to_act: Annotated[tuple[int, ...], Seq(SEAT, MAX_SEATS)]


@dataclass(frozen=True, slots=True)
class HistoryStep:
    """One past update, as this seat saw it: its number, who acted, the events."""

    seq: Annotated[int, COUNT]
    actor: Annotated[int, SEAT]
    events: Annotated[tuple[dict[str, Any], ...], Seq(Data())]


@message
@dataclass(frozen=True, slots=True)
class History(Message):
    """Every update so far as this seat saw it, in chunks that fit a frame; sent before the
    `snapshot` to a player who rejoins, so its log (and its end-of-game check) is whole again."""

    TYPE: ClassVar[str] = "history"
    SENDER: ClassVar[Sender] = "host"
    PHASE: ClassVar[Phase] = "session"
    offset: Annotated[int, COUNT]
    total: Annotated[int, COUNT]
    steps: Annotated[tuple[HistoryStep, ...], Seq(Record(HistoryStep))]


@message
@dataclass(frozen=True, slots=True)
class Result(Message):
    """The game's outcome (the engine's Outcome as data)."""

    TYPE: ClassVar[str] = "result"
    SENDER: ClassVar[Sender] = "host"
    PHASE: ClassVar[Phase] = "session"
    outcome: Annotated[dict[str, Any], Data()]


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One action of the finished game, in order."""

    seat: Annotated[int, SEAT]
    action: Annotated[dict[str, Any], Data()]


@message
@dataclass(frozen=True, slots=True)
class Audit(Message):
    """After the game: the host's seed part and the actions, in chunks that fit a frame.

    With the commitment and contributions from `start`, anyone can recompute the seed, replay
    the game with the engine and compare it with what they were shown.
    """

    TYPE: ClassVar[str] = "audit"
    SENDER: ClassVar[Sender] = "host"
    PHASE: ClassVar[Phase] = "session"
    host_part: Annotated[bytes, KEY32]
    seed: Annotated[bytes, KEY32]
    offset: Annotated[int, COUNT]
    total: Annotated[int, COUNT]
    actions: Annotated[tuple[AuditEntry, ...], Seq(Record(AuditEntry))]


# -- either way -----------------------------------------------------------------------------------


@message
@dataclass(frozen=True, slots=True)
class Say(Message):
    """A line of chat from a player or spectator."""

    TYPE: ClassVar[str] = "say"
    SENDER: ClassVar[Sender] = "client"
    PHASE: ClassVar[Phase] = "session"
    text: Annotated[str, Text(1, CHAT_MAX)]


@message
@dataclass(frozen=True, slots=True)
class Chat(Message):
    """A line of chat relayed to everyone, with who said it (seat nil: a spectator or the host).

    `earlier`: said before this connection joined, and sent again so that a newcomer, or a
    player coming back, can read what the table was saying."""

    TYPE: ClassVar[str] = "chat"
    SENDER: ClassVar[Sender] = "host"
    PHASE: ClassVar[Phase] = "session"
    seat: Annotated[int | None, Opt(SEAT)]
    name: Annotated[str, Text(0, 32)]
    text: Annotated[str, Text(1, CHAT_MAX)]
    earlier: Annotated[bool, Bool()] = False


@message
@dataclass(frozen=True, slots=True)
class TableNotice(Message):
    """Something the table itself says (a player is away, a bot stands in, time ran out), as a
    code and its arguments, so that every player reads it in their own language."""

    TYPE: ClassVar[str] = "notice"
    SENDER: ClassVar[Sender] = "host"
    PHASE: ClassVar[Phase] = "session"
    code: Annotated[str, Text(1, 64)]
    args: Annotated[dict[str, Any], Data(text=True)]


@dataclass(frozen=True, slots=True)
class ClockEntry:
    """Time left for one seat asked to act."""

    seat: Annotated[int, SEAT]
    ms: Annotated[int, COUNT]


@message
@dataclass(frozen=True, slots=True)
class Clock(Message):
    """The turn clock after a change: each clocked seat's time left (none when the clock is off
    or nobody it applies to must act). When a seat's time runs out a bot plays that turn."""

    TYPE: ClassVar[str] = "clock"
    SENDER: ClassVar[Sender] = "host"
    PHASE: ClassVar[Phase] = "session"
    per_turn_ms: Annotated[int, COUNT]
    left: Annotated[tuple[ClockEntry, ...], Seq(Record(ClockEntry), MAX_SEATS)]


@message
@dataclass(frozen=True, slots=True)
class EndGame(Message):
    """A player asks to end a sealed game that waits for an absent player (one whose program
    is gone, or did not play when its time ran out): the table closes with the results so far,
    and every verdict names the absent seat. Refused while nobody is absent."""

    TYPE: ClassVar[str] = "end_game"
    SENDER: ClassVar[Sender] = "client"
    PHASE: ClassVar[Phase] = "session"


@message
@dataclass(frozen=True, slots=True)
class Ping(Message):
    """Liveness probe; the connection answers it with a `pong` by itself."""

    TYPE: ClassVar[str] = "ping"
    SENDER: ClassVar[Sender] = "both"
    PHASE: ClassVar[Phase] = "session"
    nonce: Annotated[int, COUNT]


@message
@dataclass(frozen=True, slots=True)
class Pong(Message):
    """Answer to a ping with the same nonce."""

    TYPE: ClassVar[str] = "pong"
    SENDER: ClassVar[Sender] = "both"
    PHASE: ClassVar[Phase] = "session"
    nonce: Annotated[int, COUNT]


@message
@dataclass(frozen=True, slots=True)
class Leave(Message):
    """The sender is going away on purpose (a player leaving, the host closing the table)."""

    TYPE: ClassVar[str] = "leave"
    SENDER: ClassVar[Sender] = "both"
    PHASE: ClassVar[Phase] = "session"
    reason: Annotated[str, REASON]


# -- the one encoder and decoder --------------------------------------------------------------------


Finish = Callable[[type[Message], dict[str, Any], Fault, bool], None]
"""A registry's last check of a message's values, given its class (may rewrite them)."""


def encode_in(
    types: Mapping[str, type[Message]],
    msg: Message,
    *,
    kind: str = "registered",
    finish: Finish | None = None,
) -> dict[str, Any]:
    """`msg`, of the registry `types`, as the plain map that goes on the wire; invalid fields
    raise LocalProtocolError."""
    cls = types.get(getattr(msg, "TYPE", ""))
    if cls is None or type(msg) is not cls:
        raise LocalProtocolError(ErrorCode.UNKNOWN_TYPE, f"{msg!r} is not a {kind} message")
    try:
        values = dump_fields(fields_of(cls), msg, "")
        if finish is not None:
            finish(cls, values, LocalProtocolError, False)
    except LocalProtocolError as exc:
        raise LocalProtocolError(exc.code, f"message '{cls.TYPE}': {exc.text}") from None
    return {"type": cls.TYPE, **values}


def decode_in(
    types: Mapping[str, type[Message]],
    data: Any,
    *,
    kind: str = "",
    finish: Finish | None = None,
) -> Message:
    """A received plain map as its message of the registry `types`; every problem is a
    RemoteProtocolError naming it."""
    if type(data) is not dict:
        raise RemoteProtocolError(
            ErrorCode.NOT_A_MAP, f"a message must be a map, not {kind_of(data)}"
        )
    name = data.get("type")
    if type(name) is not str:
        raise RemoteProtocolError(
            ErrorCode.MISSING_FIELD if name is None else ErrorCode.WRONG_TYPE,
            "a message needs a string field 'type'",
        )
    cls = types.get(name)
    if cls is None:
        raise RemoteProtocolError(
            ErrorCode.UNKNOWN_TYPE, f"unknown {kind}message type {name[:64]!r}"
        )
    try:
        values = load_fields(fields_of(cls), data, "", skip="type")
        if finish is not None:
            finish(cls, values, RemoteProtocolError, True)
    except RemoteProtocolError as exc:
        raise RemoteProtocolError(exc.code, f"message '{name}': {exc.text}") from None
    return cls(**values)


def encode(msg: Message) -> dict[str, Any]:
    """A message as the plain map that goes on the wire; invalid fields raise LocalProtocolError.

    The insides of game payloads are checked by `wire.pack`, once for the whole message.
    """
    return encode_in(MESSAGE_TYPES, msg)


def encode_unchecked(msg: Message) -> dict[str, Any]:
    """`msg` as the same map `encode` gives, without checking its fields.

    For the updates the host makes from the engine for every seat at every move: their fields
    come from the table's own counters and the game's views and events, whose plain shape every
    game is held to by tests (tests/protocol/test_fanout.py), so checking them again
    at every send only costs each seat its share of the wait. A message that nests records is
    encoded by `encode`, which turns them into maps."""
    cls = type(msg)
    if not _flat(cls):
        return encode(msg)
    return {"type": cls.TYPE, **{name: getattr(msg, name) for name, _ in fields_of(cls)}}


_FLAT: dict[type[Any], bool] = {}


def _flat(cls: type[Any]) -> bool:
    """Whether every field of `cls` goes on the wire as it is (no record to turn into a map)."""
    flat = _FLAT.get(cls)
    if flat is None:
        flat = _FLAT[cls] = cls in MESSAGE_TYPES.values() and not any(
            _nests_record(kind) for _, kind in fields_of(cls)
        )
    return flat


def _nests_record(kind: Kind) -> bool:
    if isinstance(kind, Record):
        return True
    if isinstance(kind, Seq):
        return _nests_record(kind.item)
    if isinstance(kind, Opt):
        return _nests_record(kind.inner)
    return False


def decode(data: Any) -> Message:
    """A received plain map as its message; every problem is a RemoteProtocolError naming it."""
    return decode_in(MESSAGE_TYPES, data)
