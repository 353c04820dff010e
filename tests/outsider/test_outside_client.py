"""A client written from the documents alone (tests/outsider: `cryptography` and `msgpack`
directly, nothing of ours) plays each title to the end against a real headless host, checks the
fingerprint, matches every numbered update to the audit and verifies the deal with the
document's algorithm. With a turn clock, its late move is refused and never applied."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import msgpack
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from tests.network.processes import host
from tests.outsider.client import OutsideClient, fingerprint
from tests.outsider.deal import check_deal
from tests.outsider.table import Game, join, on_deal, play

TABLES = [("via-gladiola", 2), ("velonimo", 3), ("velonimo", 2), ("auf-achse", 3)]


def deal_problems(game: Game) -> list[str]:
    audit = game.audit[0]
    start = game.start
    return check_deal(
        game=start["game"],
        players=start["players"],
        options=start["options"],
        seat=game.seat,
        commit=game.commit,
        pledges=game.pledges,
        contributions={c["seat"]: c["part"] for c in start["contributions"]},
        my_part=game.my_part,
        host_part=audit["host_part"],
        seed=audit["seed"],
        first_view=game.first_view,
    )


WIDE = [(*TABLES[0], True)]
"""One table again, every payload the outsider sends in msgpack's widest encoding."""


@pytest.mark.parametrize(
    ("title", "players", "wide"),
    [(t, n, False) for t, n in TABLES] + WIDE,
    ids=[f"{t}-{n}" for t, n in TABLES] + [f"{t}-{n}-wide" for t, n, _ in WIDE],
)
def test_an_outside_client_plays_a_whole_game(
    tmp_path: Path, title: str, players: int, wide: bool
) -> None:
    server, port, printed = host(
        tmp_path, "--game", title, "--players", str(players), "--bots", str(players - 1),
        "--port", "0",
    )  # fmt: skip
    try:
        client = OutsideClient(port, wide=wide)
        game = join(client, "Outsider")
        assert fingerprint(client.identity) == printed
        play(client, game)
        client.send("leave", reason="game over")
        client.close()
        assert server.wait() == 0, server.stderr()
    finally:
        server.kill()
    assert game.errors == []
    assert game.start["game"] == title and game.first_view["seat"] == game.seat
    assert [u["seq"] for u in game.updates] == list(range(1, len(game.actions) + 1))
    assert [u["actor"] for u in game.updates] == [a["seat"] for a in game.actions]
    mine = [a["action"] for a in game.actions if a["seat"] == game.seat]
    assert mine, "the outsider played its part"
    assert deal_problems(game) == []
    assert {"winners": game.result["winners"], "scores": game.result["scores"]} == server.result()


def until(client: OutsideClient, game: Game, wanted: Any) -> dict[str, Any]:
    """Messages up to the first one `wanted` accepts; an update of our own seat on the way
    is a failure (nothing of ours may be applied meanwhile)."""
    while True:
        message = client.receive()
        on_deal(client, game, message)
        if wanted(message):
            return message
        assert message["type"] != "error", message


def test_a_late_move_after_the_turn_clock_played_is_refused_and_never_applied(
    tmp_path: Path,
) -> None:
    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "2", "--bots", "1", "--port", "0",
        "--turn-clock", "1.5", "--option", "first_player=0",
    )  # fmt: skip
    try:
        client = OutsideClient(port)
        game = join(client, "Late")
        first = until(client, game, lambda m: m["type"] == "snapshot")
        assert first["seq"] == 0 and first["to_act"] == [game.seat]
        said = until(client, game, lambda m: m["type"] == "notice")
        assert said["code"] == "clock" and said["args"]["seat"] == game.seat
        played = until(client, game, lambda m: m["type"] == "update")
        assert played["actor"] == game.seat, "the clock's bot played our decision"
        again = until(client, game, lambda m: m["type"] == "update" and game.seat in m["to_act"])
        latest = again["seq"]
        client.send("action", seq=0, action={"kind": "rest"})  # our move, too late
        refused = until(client, game, lambda m: m["type"] in ("error", "update"))
        assert refused["type"] == "error", f"the late move was applied: {refused}"
        assert refused["code"] == "stale_seq" and refused["fatal"] is False
        assert refused["detail"] == {"seq": 0, "latest": latest, "asked_at": latest}
        client.send("action", seq=latest + 1, action={"kind": "rest"})
        refused = until(client, game, lambda m: m["type"] in ("error", "update"))
        assert refused["type"] == "error" and refused["code"] == "future_seq"
        client.send("action", seq=latest, action={"kind": "rest"})
        taken = until(client, game, lambda m: m["type"] == "update")
        assert (taken["seq"], taken["actor"]) == (latest + 1, game.seat)
        assert taken["events"][0] == {"kind": "rest", "seat": game.seat}
        client.send("leave", reason="done")
        client.close()
    finally:
        server.kill()


def test_a_newcomer_gets_the_chat_said_before_it_came_marked_earlier(tmp_path: Path) -> None:
    server, port, _ = host(tmp_path, "--game", "via-gladiola", "--players", "3", "--port", "0")
    try:
        ann = OutsideClient(port)
        join(ann, "Ann")
        ann.send("say", text="anyone for a walk?")
        live = ann.receive()
        while live["type"] != "chat":
            live = ann.receive()
        assert live == {
            "type": "chat", "seat": 0, "name": "Ann", "text": "anyone for a walk?",
            "earlier": False,
        }  # fmt: skip
        bea = OutsideClient(port)
        join(bea, "Bea")
        said = bea.receive()
        while said["type"] != "chat":
            said = bea.receive()
        assert said == {**live, "earlier": True}
        for client in (ann, bea):
            client.send("leave", reason="done")
            client.close()
    finally:
        server.kill()


def test_a_client_of_another_version_is_told_both_versions_before_anything_else(
    tmp_path: Path,
) -> None:
    """Section 3, step 2: the version is checked before the rest of the hello, so a client of
    a later version, whose hello has fields this host does not know, still learns why."""
    server, port, _ = host(tmp_path, "--game", "via-gladiola", "--players", "2", "--port", "0")
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            hello = msgpack.packb({"type": "client_hello", "version": 6, "hello_v6": [1, 2]})
            sock.sendall(len(hello).to_bytes(4, "big") + hello)
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
    finally:
        server.kill()
    length = int.from_bytes(answer[:4], "big")
    assert len(answer) == 4 + length, "one frame, then the host closed the connection"
    error = msgpack.unpackb(answer[4:])
    assert error["type"] == "error" and error["code"] == "version_mismatch" and error["fatal"]
    assert error["detail"] == {"host_version": 5, "client_version": 6}


def test_a_sealed_table_says_so_in_its_lobby_and_never_deals_as_a_trusted_dealer(
    tmp_path: Path,
) -> None:
    """Section 7, step 11: `lobby.sealed` is true at a table hosted with --sealed, and once the
    public seed is made (`start`) its game is `sealed` messages: no `snapshot` or `update`, which
    would be a view the host made of a hand it dealt."""
    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "2", "--bots", "1", "--sealed",
        "--port", "0",
    )  # fmt: skip
    try:
        client = OutsideClient(port)
        game = join(client, "Outsider")
        lobbies, sealed = [], []
        while not game.start:
            message = client.receive(timeout=10)
            assert message["type"] not in ("snapshot", "update"), "a sealed table dealt a view"
            if message["type"] == "lobby":
                lobbies.append(message)
            on_deal(client, game, message)
        key = Ed25519PrivateKey.generate().public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        client.send("sealed", message={"type": "seal_key", "key": key})
        while not sealed:
            message = client.receive(timeout=10)
            assert message["type"] not in ("snapshot", "update"), "a sealed table dealt a view"
            if message["type"] == "sealed":
                sealed.append(message["message"])
        client.send("leave", reason="done")
        client.close()
    finally:
        server.kill()
    assert game.seat == 0
    assert lobbies[0]["sealed"] is True
    assert sealed[0]["type"] == "seal_round" and sealed[0]["seats"] == [0, 1]
