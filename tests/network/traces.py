"""Checking what one client was sent, decrypted, against the game replayed from its audit.

Every payload that names cards (an update's events and view, a snapshot's view, each step of
a `history`) is checked at the point of the game it speaks of, against what its receiver (a
seat, or None for a spectator) may know then (`tests.leaks`), and every update must be exactly
what the host's fan-out makes for that receiver.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from netcards.fairdeal import combine
from netcards.registry import get_game
from protocol.fanout import update_for
from protocol.messages import decode, encode
from protocol.wire import pack, unpack
from tests.leaks import Knowledge, unknown_cards


def payloads_by_seq(trace: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    """Every card-naming payload of the trace, under the update number it speaks of."""
    out: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for message in trace:
        kind = message["type"]
        if kind == "update":
            out[message["seq"]].append(message)
        elif kind == "snapshot":
            out[message["seq"]].append({"view": message["view"]})
        elif kind == "history":
            for step in message["steps"]:
                out[step["seq"]].append({"events": step["events"]})
    return out


def check_trace(trace: list[dict[str, Any]]) -> int:
    """Replay the revealed game and check every payload of the trace; returns how many."""
    start = next(m for m in trace if m["type"] == "start")
    audits = [m for m in trace if m["type"] == "audit"]
    assert audits, "the client never got the audit"
    seat = start["seat"]
    game = get_game(start["game"])
    config = game.make_config(start["players"], start["options"])
    assert start["cards"] == game.cards(config), "the catalogue is the table's deck"
    parts = {c["seat"]: bytes.fromhex(c["part"]) for c in start["contributions"]}
    seed = combine(bytes.fromhex(audits[0]["host_part"]), parts)
    actions = [(e["seat"], e["action"]) for a in audits for e in a["actions"]]
    payloads = payloads_by_seq(trace)
    state = game.setup(config, seed)
    knowledge = Knowledge(game, state, [seat])

    def check(seq: int) -> int:
        for payload in payloads.get(seq, ()):
            shown = unknown_cards(game, payload, knowledge, seat)
            assert not shown, f"update {seq} shows cards {seat=} may not know: {shown}"
        return len(payloads.get(seq, ()))

    checked = check(0)
    for seq, (actor, data) in enumerate(actions, 1):
        events = game.apply(state, actor, game.decode_action(data))
        knowledge.step(state, events)
        for got in payloads.get(seq, ()):
            if got.get("type") == "update":
                mine = update_for(game, state, events, seq, actor, seat)
                assert decode(got) == decode(unpack(pack(encode(mine)))), (
                    f"update {seq} differs from what {seat=} may see"
                )
        checked += check(seq)
    return checked
