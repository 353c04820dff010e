"""What the host keeps of a sealed game so that nobody's absence ends it (docs/sealed.md, 8).

- For each seat, every sealed message the host sent it, in order: a player who comes back
  with its seat token is sent them again, and rebuilds its seat from its kept seed and them.
  Bounded by the game (its rounds, openings, moves and end), like the transcript.
- For each seat, every key and step the host accepted from it, as canonical bytes: the seat
  that replays its history signs the same steps again, byte for byte, and such an exact
  repeat is ignored (not relayed again, nobody named). A *different* step for the same round,
  kind and positions is still the relay's `replayed`, naming the seat.
- For the journal, the records a resumed host rebuilds the game from: the table and game ids
  and the seed of the host's bots (`game_record`), then every message it accepted from a seat,
  in order (`message_record`). Replaying them through a fresh `SealedHost` makes the same
  rounds, the same bots' steps and moves, and the same messages to each seat.

Nothing here knows a title: it keeps messages, whatever their kind.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from protocol.sealed.canonical import canonical
from protocol.sealed.messages import SealKey, SealMessage, SealStep, decode, encode
from protocol.sealed.round_driver import Outgoing
from protocol.wire import pack, unpack

GAME_RECORD = "sealed_game"
MESSAGE_RECORD = "sealed"


def wire_bytes(msg: SealMessage) -> bytes:
    return canonical(encode(msg))


class SealedMemory:
    def __init__(self) -> None:
        self._sent: dict[int, list[SealMessage]] = defaultdict(list)
        self._accepted: dict[int, set[bytes]] = defaultdict(set)
        self._last: tuple[SealMessage, bytes] | None = None
        """The last message encoded, and its bytes: a message is asked about (`repeat`), then
        recorded (`accepted`), and its encoding is not cheap."""

    def _wire(self, msg: SealMessage) -> bytes:
        if self._last is None or self._last[0] is not msg:
            self._last = (msg, wire_bytes(msg))
        return self._last[1]

    def sent(self, out: Iterable[Outgoing]) -> None:
        """Messages the host sends (or would send, to a seat that is away)."""
        for seat, msg in out:
            self._sent[seat].append(msg)

    def history(self, seat: int) -> list[SealMessage]:
        """Every sealed message sent to `seat` so far, in order."""
        return list(self._sent.get(seat, ()))

    def repeat(self, seat: int, msg: SealMessage) -> bool:
        """`msg` is a key or a step the host already accepted from `seat`, byte for byte."""
        return isinstance(msg, SealKey | SealStep) and self._wire(msg) in self._accepted[seat]

    def accepted(self, seat: int, msg: SealMessage) -> dict[str, Any]:
        """`msg` from `seat` was accepted: its journal record. A key or a step is kept in its
        canonical bytes, which a repeat is known by; a move (which is never repeated: its
        number says which it is) in its plain msgpack encoding, cheaper to make."""
        if isinstance(msg, SealKey | SealStep):
            raw = self._wire(msg)
            self._accepted[seat].add(raw)
        else:
            raw = pack(encode(msg))
        return {"type": MESSAGE_RECORD, "seat": seat, "message": raw.hex()}


@dataclass(frozen=True)
class KeptGame:
    """A sealed game as its journal holds it."""

    table: bytes
    game: bytes
    seed: bytes
    """The seed of the host's own bots' randomness (the host may know its bots' cards)."""
    messages: Sequence[tuple[int, SealMessage]]


def game_record(table: bytes, game: bytes, seed: bytes) -> dict[str, Any]:
    return {"type": GAME_RECORD, "table": table.hex(), "game": game.hex(), "seed": seed.hex()}


def kept_game(records: Sequence[Mapping[str, Any]]) -> KeptGame | None:
    """The sealed game of a journal (None: its host never got so far). A record that cannot be
    read raises ValueError naming it."""
    heads = [r for r in records if r.get("type") == GAME_RECORD]
    if not heads:
        return None
    head = heads[-1]
    messages: list[tuple[int, SealMessage]] = []
    for number, record in enumerate(records, 1):
        if record.get("type") != MESSAGE_RECORD:
            continue
        try:
            seat = record["seat"]
            data = unpack(bytes.fromhex(record["message"]))
            if type(seat) is not int:
                raise TypeError("no seat")
            messages.append((seat, decode(data)))
        except Exception as exc:
            raise ValueError(f"journal record {number} is no sealed message ({exc})") from None
    try:
        return KeptGame(
            bytes.fromhex(head["table"]),
            bytes.fromhex(head["game"]),
            bytes.fromhex(head["seed"]),
            messages,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"the sealed game's journal record is damaged ({exc})") from None
