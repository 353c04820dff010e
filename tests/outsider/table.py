"""Sitting at a table and playing a game to its end, from docs/protocol.md section 7 and the
game pages of docs/games/ alone: the moves are chosen from the view as those pages describe it."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.outsider.client import OutsideClient
from tests.outsider.deal import pledge

Choose = Callable[[dict[str, Any], int, list[dict[str, Any]]], dict[str, Any]]


def via_gladiola(view: dict[str, Any], seat: int, cards: list[dict[str, Any]]) -> dict[str, Any]:
    """Walk the lowest card 1 to 15 above the top; on day 4 lay a Gladiola; else rest."""
    for card in view["hand"]:
        c = cards[card]
        if c["kind"] in ("distance", "finish") and 1 <= c["value"] - view["top_value"] <= 15:
            return {"kind": "walk", "card": card}
    if view["day"] == 4:
        for card in view["hand"]:
            if cards[card]["kind"] == "gladiola":
                return {"kind": "gladiola", "card": card}
    return {"kind": "rest"}


def velonimo(view: dict[str, Any], seat: int, cards: list[dict[str, Any]]) -> dict[str, Any]:
    """Lead with the lowest card, never follow; answer every other phase with its first choice."""
    phase = view["phase"]
    holding = [s for s, n in enumerate(view["hand_sizes"]) if n]
    if phase == "play":
        if view["attack_value"] is None:
            return {"kind": "play", "cards": [view["hand"][0]], "jersey": False}
        return {"kind": "pass"}
    if phase == "victim":
        return {"kind": "victim", "seat": next(s for s in holding if s != seat)}
    if phase == "give_back":
        return {"kind": "give_back", "card": view["hand"][0]}
    if phase == "next_leader":
        return {"kind": "leader", "seat": holding[0]}
    if phase == "reward":
        return {"kind": "reward", "to_seat": seat}
    raise AssertionError(f"asked to act in phase {phase!r}")


def auf_achse(view: dict[str, Any], seat: int, cards: list[dict[str, Any]]) -> dict[str, Any]:
    """The first cards of the hand, as many as asked."""
    hand = view["hand"]
    if view["phase"] == "run":
        return {"kind": "run", "card": hand[0]}
    if view["phase"] == "odometer":
        return {"kind": "odometer", "card": hand[0]}
    return {"kind": "free_road", "cards": hand[: view["need"][seat]]}


CHOOSERS: dict[str, Choose] = {
    "via-gladiola": via_gladiola,
    "velonimo": velonimo,
    "auf-achse": auf_achse,
}


@dataclass
class Game:
    """Everything the host told one seat about one game."""

    seat: int = -1
    token: bytes = b""
    commit: bytes = b""
    sealed: bool | None = None
    """What the first lobby said of `sealed`: the deal is held to it (section 7, step 11)."""
    my_part: bytes = b""
    pledges: dict[int, bytes] = field(default_factory=dict)
    start: dict[str, Any] = field(default_factory=dict)
    first_view: dict[str, Any] = field(default_factory=dict)
    updates: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] = field(default_factory=dict)
    audit: list[dict[str, Any]] = field(default_factory=list)

    @property
    def actions(self) -> list[dict[str, Any]]:
        return [entry for chunk in self.audit for entry in chunk["actions"]]


def join(client: OutsideClient, name: str, *, ready: bool = True) -> Game:
    """Handshake, `join`, and answer `seated` with `ready` (unless told not to)."""
    client.handshake()
    client.send("join", name=name, resume=None, spectator=False)
    game = Game()
    while game.seat < 0:
        message = client.receive()
        if message["type"] == "seated":
            assert message["seat"] is not None and message["token"] is not None
            game.seat = message["seat"]
            game.token = message["token"]
            if ready:
                client.send("ready", ready=True)
        elif message["type"] == "error":
            raise AssertionError(f"refused: {message}")
    return game


def knock(
    port: int, name: str, *, spectator: bool = False, resume: bytes | None = None
) -> OutsideClient:
    """A new connection to the table at `port`, its handshake done and its `join` sent; the
    answer is left to read."""
    client = OutsideClient(port)
    client.handshake()
    client.send("join", name=name, resume=resume, spectator=spectator)
    return client


def settle(client: OutsideClient, nonce: int = 4242) -> list[dict[str, Any]]:
    """Everything the host sends `client` before its `pong` to a `ping` sent now. The host
    answers each connection in order, so this is all it had to tell it about whatever it had
    done before it read the ping (another connection's message included, once answered)."""
    client.send("ping", nonce=nonce)
    seen = []
    while (message := client.receive(timeout=5)) != {"type": "pong", "nonce": nonce}:
        seen.append(message)
    return seen


def last_word(client: OutsideClient) -> dict[str, Any]:
    """The host's `error` that ends the connection (messages before it are skipped): it must
    be followed by the end of the stream."""
    while (message := client.receive(timeout=5))["type"] != "error":
        pass
    try:
        after = client.receive(timeout=5)
    except ConnectionError:
        return message
    except TimeoutError:
        raise AssertionError(f"the host kept the connection open after {message}") from None
    raise AssertionError(f"the host went on after {message}: {after}")


def on_deal(client: OutsideClient, game: Game, message: dict[str, Any]) -> None:
    """The deal of section 7.3: keep the first `commit`; when asked, pledge a hash of a fresh
    part; reveal the part only once `pledges` holds our pledge unchanged; keep `start`. The
    table's `sealed` is what its first lobby said; no lobby, commit or start may say otherwise."""
    if message["type"] in ("lobby", "commit", "start"):
        if game.sealed is None and message["type"] == "lobby":
            game.sealed = message["sealed"]
        assert game.sealed is None or message["sealed"] == game.sealed, "not the table announced"
    if message["type"] == "commit":
        if not game.commit:
            game.commit = message["commitment"]
        assert message["commitment"] == game.commit, "the host changed its commitment"
        if game.seat in message["seats"]:
            game.my_part = os.urandom(32)
            client.send("pledge", commitment=pledge(game.seat, game.my_part))
    elif message["type"] == "pledges":
        game.pledges = {p["seat"]: p["commitment"] for p in message["pledges"]}
        if game.my_part and game.pledges.get(game.seat) == pledge(game.seat, game.my_part):
            client.send("contribute", part=game.my_part)
    elif message["type"] == "start":
        game.start = message
        assert message["seat"] == game.seat
        assert message["commitment"] == game.commit
        assert [c["id"] for c in message["cards"]] == list(range(len(message["cards"])))


def until_snapshot(client: OutsideClient, game: Game | None = None) -> dict[str, Any]:
    """Through the deal (`game`: the seat's, to take part in it) or the catch-up of one who
    joins later, to the `snapshot`."""
    while (message := client.receive(timeout=10))["type"] != "snapshot":
        assert message["type"] != "error", message
        if game is not None:
            on_deal(client, game, message)
    return message


def play(client: OutsideClient, game: Game, choose: Choose | None = None) -> Game:
    """Play until the audit is complete; every refusal is kept in `game.errors`."""
    waiting = False
    while True:
        message = client.receive()
        kind = message["type"]
        on_deal(client, game, message)
        if kind in ("snapshot", "update"):
            if kind == "snapshot" and message["seq"] == 0:
                game.first_view = message["view"]
            if kind == "update":
                game.updates.append(message)
                if message["actor"] == game.seat:
                    waiting = False
            view = message["view"]
            if game.seat in message["to_act"] and not waiting and not view["over"]:
                chooser = choose or CHOOSERS[game.start["game"]]
                action = chooser(view, game.seat, game.start["cards"])
                client.send("action", seq=message["seq"], action=action)
                waiting = True
        elif kind == "error":
            game.errors.append(message)
            assert not message["fatal"], message
            waiting = False
        elif kind == "result":
            game.result = message["outcome"]
        elif kind == "audit":
            game.audit.append(message)
            if len(game.actions) == message["total"]:
                return game
