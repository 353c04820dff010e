"""What the table session asks its adapter to do: its outputs, plain records the adapter performs.

The session never sends, sleeps, writes a file or starts a thread itself; every call into it
returns a list of these, in the order they must be carried out (a `Send` before a `Close` of the
same peer means the last word reaches it first).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from protocol.connection import Packed
from protocol.messages import Message

TimerKey = tuple[str, int]
"""A timer's name and the seat it is for (-1 when it is the table's): ("grace", 2), ("clock",
0), ("deal", -1), ("game_over", -1)."""

DEAL_TIMER: TimerKey = ("deal", -1)
GAME_OVER_TIMER: TimerKey = ("game_over", -1)


def grace_timer(seat: int) -> TimerKey:
    return ("grace", seat)


def clock_timer(seat: int) -> TimerKey:
    return ("clock", seat)


def answer_timer(seat: int) -> TimerKey:
    """How long a sealed seat's program has to play its stand-in's move once its time ran out."""
    return ("answer", seat)


@dataclass(frozen=True, slots=True)
class Send:
    """Seal `message` for peer `to` and queue it (skipped if that peer is closed by then)."""

    to: int
    message: Message | Packed


@dataclass(frozen=True, slots=True)
class Close:
    """Hang up on peer `to` once what is queued for it has gone."""

    to: int


@dataclass(frozen=True, slots=True)
class Drop:
    """Peer `to` must go for a reason of the session's (logged as `dropped ...: why`);
    `at_once`: hung up now, without waiting for what is queued for it."""

    to: int
    why: str
    at_once: bool = False


@dataclass(frozen=True, slots=True)
class SetTimer:
    """Call `timer_fired(key)` after `delay` seconds, replacing a timer of the same key."""

    key: TimerKey
    delay: float


@dataclass(frozen=True, slots=True)
class CancelTimer:
    key: TimerKey


@dataclass(frozen=True, slots=True)
class Journal:
    """Write `record` to the journal before anything after it is performed. `durable`: synced to
    the disk now (the start of a game, the close); otherwise flushed now and synced soon."""

    record: dict[str, Any]
    durable: bool = False


@dataclass(frozen=True, slots=True)
class BotQuestion:
    """A bot's move to think out for `seat`, asked at update `seq`; `think` runs anywhere (a
    worker thread) and its answer goes back through `bot_answered`. `stand_in`: asked of the
    bot standing in for an absent player (dropped if the player is back before it answers)."""

    seat: int
    seq: int
    think: Callable[[], dict[str, Any]]
    stand_in: bool = False


@dataclass(frozen=True, slots=True)
class WakeBots:
    """Bots may have turns now: run the bots' loop (`next_bot_question`) unless it runs."""


@dataclass(frozen=True, slots=True)
class AskBot:
    """Think out `question` beside the bots' loop (a player's clock ran out)."""

    question: BotQuestion


@dataclass(frozen=True, slots=True)
class BotFailed:
    """The bot's answer was refused by the rules: the bots' loop stops (a bot bug must not spin)."""

    seat: int


@dataclass(frozen=True, slots=True)
class SealedBots:
    """The host's bots at a sealed table have work left by the last sealed message (steps
    to answer, a reply to play): call `sealed_bots` once what comes before this effect is on
    its way, so that a player's move is acknowledged before the bots think and sign."""


@dataclass(frozen=True, slots=True)
class Log:
    line: str


@dataclass(frozen=True, slots=True)
class Finished:
    """The game is over and everyone still here has the results."""


Effect = (
    Send
    | Close
    | Drop
    | SetTimer
    | CancelTimer
    | Journal
    | WakeBots
    | AskBot
    | BotFailed
    | SealedBots
    | Log
    | Finished
)
