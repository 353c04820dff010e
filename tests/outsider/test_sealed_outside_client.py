"""A client written from the documents alone plays and audits a sealed game against a real
headless host and its bot, over loopback: sealed Auf Achse (simultaneous choices committed and
opened, odometer cards turned, Level crossings and Free roads, five stages, reshuffles) and the
Velonimo duel (public random draws, steals and give-backs passed privately, rewards shown).

The client (tests/outsider: curve.py, proofs.py, sealing.py, formats.py, sealed_titles.py,
sealed_seat.py) imports nothing of ours: it makes and checks every proof as docs/sealed.md
writes it, reads the messages' formats off the page's tables, works out from the game pages'
rules what each move asks for and whose turn it is, recomputes every commitment, draw and steal
from the pages' definitions, and at the end audits every round from the published secrets."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from tests.network.processes import host
from tests.outsider.client import OutsideClient, fingerprint
from tests.outsider.deal import Generator
from tests.outsider.sealed_seat import SealedSeat
from tests.outsider.sealed_titles import AufAchse, Model, VelonimoDuel
from tests.outsider.sealing import public_seed
from tests.outsider.table import Game, join, on_deal

FAST_DECK = """game = "auf-achse"

[km]
10 = 1
20 = 1
30 = 1
40 = 1
50 = 1
60 = 1
70 = 1
80 = 1
90 = 1
100 = 1
110 = 1
120 = 66

[action]
lost_freight = 6
level_crossing = 6
free_road = 5
completely_free_road = 3

[rest]
count = 12
"""
"""A deck file (docs/games/auf-achse.md: `deck`) in which nearly every km card is worth 120:
a stage reaches its distance in a round or two, so the five stages take seconds."""


def model_for(game: Game) -> Model:
    start = game.start
    players, options = start["players"], start["options"]
    seed = public_seed(start["commitment"], {c["seat"]: c["part"] for c in start["contributions"]})
    first = options.get("first_player")
    if first is None:
        first = Generator(seed).below(players)
    if start["game"] == "auf-achse":
        return AufAchse(players, game.seat, start["cards"], first)
    assert start["game"] == "velonimo" and players == 2
    return VelonimoDuel(game.seat, start["cards"], options, first)


def play_sealed(client: OutsideClient, game: Game) -> tuple[SealedSeat, dict[str, Any]]:
    """Through the deal to `start`, then the sealed game to its audit and the host's results."""
    while not game.start:
        on_deal(client, game, client.receive(timeout=30))
    assert game.start["sealed"] is True
    seat = SealedSeat(
        game.seat,
        game.start["players"],
        model_for(game),
        game.start["game"],
        lambda msg: client.send("sealed", message=msg),
    )
    seat.hello()
    result: dict[str, Any] = {}
    while seat.verdict is None or not result:
        message = client.receive(timeout=60)
        kind = message["type"]
        assert kind not in ("snapshot", "update", "history", "audit"), f"a seat was sent {kind}"
        assert kind != "error", f"the host refused this client: {message}"
        if kind == "sealed":
            seat.receive(message["message"])
        elif kind == "result":
            result = message["outcome"]
    return seat, result


@pytest.mark.parametrize("title", ["auf-achse", "velonimo"])
def test_an_outside_client_plays_and_audits_a_sealed_game(tmp_path: Path, title: str) -> None:
    extra: tuple[str, ...] = ("--option", "difficulties=1,2,3")
    if title == "auf-achse":
        deck = tmp_path / "fast.toml"
        deck.write_text(FAST_DECK, encoding="utf-8")
        extra = ("--deck", str(deck))
    server, port, printed = host(
        tmp_path, "--game", title, "--players", "2", "--bots", "1", "--sealed", "--port", "0",
        *extra,
    )  # fmt: skip
    try:
        client = OutsideClient(port)
        game = join(client, "Outsider")
        assert fingerprint(client.identity) == printed
        seat, result = play_sealed(client, game)
        client.send("leave", reason="game over")
        client.close()
    finally:
        server.kill()
    model = seat.model
    assert seat.verdict == "deal verified" and model.over
    assert len(seat.secrets) == 2 and set(seat.digests.values()) == {seat.chain.digest}  # type: ignore[union-attr]
    mine = [a for s, a in seat.applied if s == game.seat]
    theirs = [a for s, a in seat.applied if s != game.seat]
    assert mine and theirs, "both seats played"
    received = seat.formats.seen
    for kind in ("seal_round", "seal_open", "seal_reveal", "seal_step", "seal_acted"):
        assert received.get(f"received {kind}"), f"no {kind} seen"
    if isinstance(model, AufAchse):
        assert model.stage == 5 and len(model.rounds) >= 5
        assert model.openings_checked >= 2 * 5, "every opening recomputed from its commitment"
    else:
        assert isinstance(model, VelonimoDuel)
        assert result["scores"] == model.totals, "the results are the ones the moves make"
        assert len(model.rounds) == len(model.round_scores) == 3
        assert seat.values and model.steals == len(seat.values), "every steal drawn"


CLIENT = ["curve", "proofs", "sealing", "formats", "sealed_titles", "sealed_seat", "client", "deal"]


@pytest.mark.parametrize("module", CLIENT)
def test_the_client_imports_nothing_of_ours(module: str) -> None:
    """Written from the documents alone: no module of the client imports netcards or protocol
    (tests.outsider's own modules only, and the libraries the page names)."""
    source = (Path(__file__).parent / f"{module}.py").read_text(encoding="utf-8")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            assert name.split(".")[0] not in ("netcards", "protocol", "ui"), f"{module}: {name}"
            assert not name.startswith("tests.") or name.startswith("tests.outsider."), name
