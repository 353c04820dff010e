"""What a seat was told, so that the host cannot tell a seat that comes back something else.

A player whose link drops comes back by itself (its client reconnects with its seat token) and
rebuilds its seat from its kept seed and the history the host sends it: the same seed draws
the same secrets, so the seat signs again what it signed before. A modified host can drop the
link on purpose and send back a history that goes otherwise from some point on: its own bot's
mask step replaced by elements whose logarithms it knows (the seat then masks them with the
very mask and permutation that shuffled the real deck, and the host reads the permutation off
its answer, hence every card of the player's hand), another move of its bot so that a card the
player drew goes to the bot (the seat then opens it to the bot with its real scalar), another
draw or a game that ends early (the seat then shows its hand). Then it drops the link again,
sends the true history, and nobody's transcript shows anything.

So a seat remembers, by the place each takes, every message the host told it: each round's
setup, each step by its signer's slot (`Step.slot`: what a seat says once only), each move by
its number in the game. A seat rebuilt in the same program takes over its predecessor's record
(`SealedSeat.remember`), and a message that takes a remembered place with other content names
the host (`rewritten`): an honest host sends the history it sent, and the same steps after it.
A signed step or move is remembered by its signature, which its content's check binds; a setup,
which nobody signs, by its bytes; each by their SHA-256 digest.

A program restarted during the game (the user quit, the battery ran out) has no predecessor in
memory, so the record is also kept on the disk beside the seat's seed, one line per new place,
and read back before the history is replayed. The lines are what `Told.fresh_lines` gives after
each message; `read` takes them back. The file's first line names the game and seat the record
is for (as the seed's note does): a record of another game is never read. A line is whole once
its newline is written, so a line cut short (a crash while writing) is left out, and cut off
before any other is appended. Appending them is not synced: a program that is killed loses nothing the
system already holds, and only a machine that loses power can lose the record's last places,
so a rewind to before them would go unnoticed then.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from protocol.sealed.canonical import canonical
from protocol.sealed.errors import Caught
from protocol.sealed.messages import SealActed, SealMessage, SealRound, SealStep, encode
from protocol.sealed.signing import Step


def place(msg: SealMessage) -> tuple[tuple[object, ...], bytes] | None:
    """Where `msg` stands in a game and what stands there: None for a message that takes no
    place of its own (an opening or a reveal the game asks for, which `check_asked` holds to
    the game)."""
    if isinstance(msg, SealRound):
        return ("round", msg.round), hashlib.sha256(canonical(encode(msg))).digest()
    if isinstance(msg, SealStep):
        slot = Step(b"", msg.round, msg.kind, msg.seat, msg.body).slot
        return ("step", *slot), hashlib.sha256(msg.signature).digest()
    if isinstance(msg, SealActed):
        return ("acted", msg.seq), hashlib.sha256(
            msg.seat.to_bytes(1, "big") + msg.signature
        ).digest()
    return None


VERSION = 1


def header(game: Mapping[str, Any]) -> bytes:
    """The first line of a told file: which game and seat its record is for."""
    return _line({"told": VERSION, **game})


def line(where: tuple[object, ...], what: bytes) -> bytes | None:
    """One place as a line of a told file (None for a place a line cannot hold, which only a
    message no check passed could take: it stays in memory alone)."""
    try:
        return _line([*where, what.hex()])
    except (TypeError, ValueError):
        return None


def read(
    data: bytes, game: Mapping[str, Any]
) -> tuple[dict[tuple[object, ...], bytes], int] | None:
    """The places a told file holds for `game`, and how many of its bytes are whole lines (what
    follows the last newline is a line cut short); None for a file of another game, or none."""
    end = data.rfind(b"\n") + 1
    lines = data[:end].split(b"\n")[:-1]
    if not lines or _parse(lines[0]) != {"told": VERSION, **game}:
        return None
    places: dict[tuple[object, ...], bytes] = {}
    for text in lines[1:]:
        item = _parse(text)
        if not isinstance(item, list) or len(item) < 2 or not isinstance(item[-1], str):
            continue  # damaged: left out, as a place never told
        try:
            what = bytes.fromhex(item[-1])
        except ValueError:
            continue
        places.setdefault(_frozen(item[:-1]), what)
    return places, end


def _line(value: object) -> bytes:
    return json.dumps(value, separators=(",", ":"), sort_keys=True).encode() + b"\n"


def _parse(text: bytes) -> Any:
    try:
        return json.loads(text)
    except ValueError:  # UnicodeDecodeError included
        return None


def _frozen(item: list[Any]) -> tuple[object, ...]:
    """A place as `place` makes it: JSON gives its tuples back as lists."""
    return tuple(_frozen(x) if isinstance(x, list) else x for x in item)


@dataclass
class Told:
    """Every place of the game this seat (and any seat it was rebuilt from) was told of."""

    places: dict[tuple[object, ...], bytes] = field(default_factory=dict)
    fresh: list[tuple[tuple[object, ...], bytes]] = field(default_factory=list)
    """Places kept since `fresh_lines` last gave them, for the file that outlives the program."""

    def check(self, msg: SealMessage, host: int) -> tuple[tuple[object, ...], bytes] | None:
        """`Caught` naming `host` if `msg` says otherwise than what this seat was told at its
        place; the place, to keep once the message is taken."""
        found = place(msg)
        if found is not None:
            where, what = found
            before = self.places.get(where)
            if before is not None and before != what:
                raise Caught(
                    host,
                    "rewritten",
                    f"told this seat otherwise at {where[0]} {list(where[1:])} than before",
                )
        return found

    def keep(self, found: tuple[tuple[object, ...], bytes] | None) -> None:
        if found is not None and found[0] not in self.places:
            self.places[found[0]] = found[1]
            self.fresh.append(found)

    def fresh_lines(self) -> bytes:
        """The lines of the places kept since last asked, to append to the told file."""
        out = b"".join(filter(None, (line(*found) for found in self.fresh)))
        self.fresh.clear()
        return out
