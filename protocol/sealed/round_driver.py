"""A sealing round as each party runs it: messages in, messages out, nothing else.

The two halves of one exchange: `seat_driver.py` and `relay_driver.py`, and the checks they
make alike in `round_steps.py`; this module gathers them for whoever drives a round.

Like h11, these drivers never touch a socket, a clock or a random source: the caller feeds
them the messages that arrived and sends the ones they return, and a seat's secrets come
from the `random_bytes` it was given (`os.urandom` at a table, a fixed stream in tests).

- `SeatDriver` is one seat. It learns the round from `seal_round`, makes its mask step and
  later its re-key step when its turn comes, answers each `seal_open` for another seat with
  its scalars of those positions, and unmasks the positions opened to it once every other
  seat's scalars are in.
  A card is shown to everyone by a `reveal` step (asked by `seal_reveal`: every seat's scalars,
  the hands shown at the end) or inside the move that plays it (its owner's scalar).
- `RelayDriver` is the host as relay. Every step goes through it: it checks the signature, the
  round, the turn and the step itself (a step's proof: before, or right after, docs/sealed.md
  section 3) before it sends the very message on to every seat of the
  round (its author too, so that every seat records the steps in the one order the relay
  chose), and keeps the transcript. The host is also a seat: it runs a `SeatDriver` beside
  its relay, wired in memory.

Both keep every round by its number, not only the latest: a card of round 0 is played, and a
slot of round 0 opened, after round 1 (a reshuffle) has been sealed. Mask and re-key steps
belong to the latest round only; scalars and reveals to any round once it is sealed.

Who is named. The relay names the seat whose link a refused step came from: it is the first
to see it, so a bad signature, a step for another round, a replay or a step signed as
someone else is that sender's doing. A seat names the relay for everything the relay had to
refuse before relaying (a failing signature, another round, a replay, a step out of turn or
opening a position nobody asked for: an honest seat never signs that, and only the relay
orders the steps), and names the signer for what its own signature proves against it (a
malformed list, a repeated element, a proof that fails, a scalar that fails its commitment).
"""

from protocol.sealed.relay_driver import RelayDriver
from protocol.sealed.round_steps import (
    DRAW_KINDS,
    EVIDENT,
    PASS_KINDS,
    RELAY_CHECKS,
    SEALING_KINDS,
    WRONG_PASS,
    Outgoing,
    RelayRound,
    SeatRound,
    load_key,
    public_bytes,
    setup_bytes,
    shown_steps,
)
from protocol.sealed.seat_driver import SeatDriver

__all__ = [
    "DRAW_KINDS",
    "EVIDENT",
    "PASS_KINDS",
    "RELAY_CHECKS",
    "SEALING_KINDS",
    "WRONG_PASS",
    "Outgoing",
    "RelayDriver",
    "RelayRound",
    "SeatDriver",
    "SeatRound",
    "load_key",
    "public_bytes",
    "setup_bytes",
    "shown_steps",
]
