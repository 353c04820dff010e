"""Helpers for the protocol tests: deterministic randomness, a connected pair, one of each message.

`ConnectionPair` follows h11's test helper of the same name: two connections joined in memory,
with every byte one side writes handed to the other, so a whole handshake or conversation is a
few plain function calls.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from protocol.client_connection import ClientConnection
from protocol.connection import Connection
from protocol.crypto import TablePassword
from protocol.events import ConnectionEvent, NeedData, PasswordKeyNeeded
from protocol.host_connection import HostConnection
from protocol.identity import IdentityKey
from protocol.messages import (
    MESSAGE_TYPES,
    Action,
    AddBot,
    Audit,
    AuditEntry,
    Chat,
    Clock,
    ClockEntry,
    Commit,
    Contribute,
    Contribution,
    EndGame,
    Error,
    History,
    HistoryStep,
    Join,
    Leave,
    Lobby,
    Message,
    Ping,
    Pledge,
    Pledges,
    Pong,
    Ready,
    RemoveBot,
    Result,
    Say,
    Sealed,
    Seated,
    SeatInfo,
    SeatPledge,
    SetOptions,
    Snapshot,
    Start,
    TableNotice,
    Update,
)


def randomness(seed: int) -> Callable[[int], bytes]:
    rng = random.Random(seed)
    return rng.randbytes


IDENTITY = IdentityKey(bytes(range(32)))
OTHER_IDENTITY = IdentityKey(bytes(range(1, 33)))


def table_password(text: str) -> TablePassword:
    return TablePassword(text)


def drain(conn: Connection, limit: int = 10_000) -> list[ConnectionEvent]:
    """Every event up to NeedData (or a close); never loops forever. A host's request for its
    password key is answered at once, as an adapter without throttling would."""
    out: list[ConnectionEvent] = []
    for _ in range(limit):
        event = conn.next_event()
        if isinstance(event, PasswordKeyNeeded):
            assert isinstance(conn, HostConnection) and conn.password is not None
            conn.supply_password_key(conn.password.stretch(event.salt))
            continue
        if isinstance(event, NeedData):
            return out
        out.append(event)
        if type(event).__name__ == "ConnectionClosed":
            return out
    raise AssertionError("next_event() never asked for more data")


class ConnectionPair:
    def __init__(
        self,
        seed: int = 0,
        *,
        password: str | None = None,
        client_password: str | None = None,
        pinned: bytes | None = None,
        identity: IdentityKey = IDENTITY,
    ) -> None:
        rand = randomness(seed)
        self.host = HostConnection(
            identity,
            rand,
            password=table_password(password) if password is not None else None,
            table="kitchen table",
        )
        self.client = ClientConnection(
            rand,
            password=client_password if client_password is not None else password,
            pinned_host_key=pinned,
        )
        self.events: dict[str, list[ConnectionEvent]] = {"host": [], "client": []}

    def peer(self, conn: Connection) -> Connection:
        return self.client if conn is self.host else self.host

    def flow(self, rounds: int = 4) -> None:
        """Exchange queued bytes both ways until nothing moves."""
        for _ in range(rounds):
            moved = False
            for side, conn in (("host", self.client), ("client", self.host)):
                receiver = self.peer(conn)
                data = conn.data_to_send()
                if data:
                    moved = True
                    receiver.receive_data(data)
                self.events[side] += drain(receiver)
            if not moved:
                return

    def handshake(self) -> None:
        self.flow()
        assert self.host.handshake is not None and self.client.handshake is not None

    def send(self, sender: Connection, message: Message) -> list[ConnectionEvent]:
        receiver = self.peer(sender)
        receiver.receive_data(sender.send(message))
        events = drain(receiver)
        back = receiver.data_to_send()
        if back:
            sender.receive_data(back)
            drain(sender)
        return events


VIEW: dict[str, Any] = {
    "game": "via-gladiola",
    "seat": 1,
    "players": 3,
    "day": 2,
    "walk_pile": [65, 3, 11],
    "hand": [4, 17, 29, 40, 56],
    "finished_days": [{"day": 1, "cards": [64, 2, 9, 30]}],
    "hand_sizes": [8, 5, 7],
    "current": 1,
    "over": False,
    "end_reason": None,
    "ratio": 0.5,
    "blob": b"\x00\x01",
}
EVENTS = (
    {"kind": "walk", "seat": 0, "card": 11, "cadence_draws": 1},
    {"kind": "draw", "seat": 0, "count": 1},
)


def one_of_each() -> list[Message]:
    """A valid instance of every session message type (handshake ones are exercised live)."""
    seat = SeatInfo(0, "human", "Ann", True, True, None, False)
    bot = SeatInfo(1, "bot", "Bot 1", True, True, "heuristic", False)
    empty = SeatInfo(2, "open", "", False, False, None, False)
    part = Contribution(0, b"\x07" * 32)
    messages: list[Message] = [
        Error("illegal_action", "that card is not in your hand", False, {"kind": "walk"}),
        Join("Ann", None, False),
        Join("Bea", b"\x01" * 32, False),
        Join("Watcher", None, True),
        Seated(0, b"\x02" * 32, False, True),
        Seated(None, None, False, False),
        Lobby(
            "kitchen table",
            "via-gladiola",
            3,
            {"variant_last_card": False},
            (seat, bot, empty),
            1,
            True,
            "lobby",
            "waiting for Cy to be ready",
            30,
        ),
        TableNotice("stand_in", {"seat": 1, "name": "Bea", "level": "heuristic"}),
        Clock(30, (ClockEntry(0, 12_500),)),
        Ready(True),
        SetOptions("via-gladiola", 4, {"first_player": None}),
        AddBot(1, "heuristic"),
        RemoveBot(1),
        Commit(b"\x03" * 32, (0, 2)),
        Pledge(b"\x08" * 32),
        Pledges((SeatPledge(0, b"\x08" * 32), SeatPledge(2, b"\x09" * 32))),
        Contribute(b"\x04" * 32),
        Start(
            "via-gladiola",
            "via-gladiola/1",
            3,
            {},
            ("Ann", "Bot 1", "Cy"),
            0,
            b"\x03" * 32,
            (part,),
            ({"id": 0, "kind": "distance", "value": 1, "blisters": 3},),
        ),
        Action(12, {"kind": "walk", "card": 17}),
        Update(13, 0, EVENTS, VIEW, (2,)),
        Update(14, 0, (), VIEW, (1,)),
        History(0, 2, (HistoryStep(13, 0, EVENTS), HistoryStep(14, 0, ()))),
        Snapshot(14, VIEW, (1,)),
        Sealed({"type": "seal_open", "round": 0, "to": 1, "positions": [0, 1]}),
        Result(
            {
                "scores": [3, 5, 0],
                "winners": [2],
                "places": [2, 3, 1],
                "lower_is_better": True,
                "detail": {},
            }
        ),
        Audit(
            b"\x05" * 32,
            b"\x06" * 32,
            0,
            2,
            (AuditEntry(0, {"kind": "rest"}), AuditEntry(1, {"kind": "walk", "card": 3})),
        ),
        Say("good luck"),
        Chat(0, "Ann", "good luck"),
        Chat(None, "Watcher", "hello"),
        Chat(1, "Bea", "said before you came", earlier=True),
        EndGame(),
        Ping(7),
        Pong(7),
        Leave("bye"),
    ]
    return messages


HANDSHAKE_TYPES = {"client_hello", "host_hello", "host_auth", "confirm"}
assert {m.TYPE for m in one_of_each()} | HANDSHAKE_TYPES == set(MESSAGE_TYPES)
