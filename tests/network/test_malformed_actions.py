"""docs/protocol.md section 13, from outside: on its turn, a player's move that is not one of
the game's actions (a missing, extra or mistyped field, an unknown kind) or one the rules do
not allow now is refused with a non-fatal `illegal_action` and changes nothing: nobody is sent
an update, the table is where it was, and the player's next legal move is taken."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.network.processes import host
from tests.outsider.client import OutsideClient
from tests.outsider.table import join, knock, settle, until_snapshot

MALFORMED: list[tuple[str, dict[str, Any]]] = [
    ("a missing field", {"kind": "walk"}),
    ("an extra field", {"kind": "rest", "card": 0}),
    ("a str for an int", {"kind": "walk", "card": "0"}),
    ("a bool for an int", {"kind": "walk", "card": True}),
    ("a float for an int", {"kind": "walk", "card": 0.0}),
    ("a nil for an int", {"kind": "walk", "card": None}),
    ("an unknown kind", {"kind": "fly"}),
    ("no kind", {"card": 0}),
    ("a kind that is not a str", {"kind": 1}),
    ("a card that is no card", {"kind": "walk", "card": 10_000}),
]


def test_a_malformed_or_illegal_action_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """Ann plays against the host's bot while a spectator watches: neither she nor the
    spectator is sent anything but her refusals."""
    server, port, _ = host(
        tmp_path, "--game", "via-gladiola", "--players", "2", "--bots", "1", "--port", "0",
        "--bind", "127.0.0.1", "--option", "first_player=0",
    )  # fmt: skip
    try:
        ann = OutsideClient(port)
        game = join(ann, "Ann")
        first = until_snapshot(ann, game)
        assert first["seq"] == 0 and first["to_act"] == [game.seat] == [0], first
        hand = first["view"]["hand"]
        watcher = knock(port, "Watcher", spectator=True)
        until_snapshot(watcher)
        for client in (ann, watcher):
            settle(client)  # the lobby after the start, and after the watcher came

        # Moves the rules refuse now: no Gladiola on day 1, no walk with another's card.
        elsewhere = next(c for c in range(len(game.start["cards"])) if c not in hand)
        illegal = [
            ("a Gladiola on day 1", {"kind": "gladiola", "card": hand[0]}),
            ("a card not in hand", {"kind": "walk", "card": elsewhere}),
        ]
        for what, action in MALFORMED + illegal:
            ann.send("action", seq=0, action=action)
            answer = settle(ann)
            assert [(m["type"], m.get("code"), m.get("fatal")) for m in answer] == [
                ("error", "illegal_action", False)
            ], f"{what}: {answer}"
        assert settle(watcher) == [], "nobody was sent anything"

        # Ann comes back on a new connection with her seat token: the table shows her the very
        # state of the start, still at update 0, still her turn.
        again = knock(port, "Ann", resume=game.token)
        now = until_snapshot(again)
        assert (now["seq"], now["view"], now["to_act"]) == (0, first["view"], [game.seat])
        ann.close()

        again.send("action", seq=0, action={"kind": "rest"})
        for client in (again, watcher):
            update = client.receive(timeout=5)
            while update["type"] != "update":
                update = client.receive(timeout=5)
            assert (update["seq"], update["actor"]) == (1, game.seat), update
            assert update["events"][0] == {"kind": "rest", "seat": game.seat}
    finally:
        server.kill()
