"""Every map a game sends or takes has the shape its docs/games page declares.

Whole games of every title (the duel too) are played with bots; every card of the catalogue,
every action, every seat's and the spectators' view after every action, every event (its public,
private and secret parts, and as each seat receives it), the deal and the outcome detail are
checked against the game's declared shapes. Every declared event kind and every optional field
must turn up at least once, so a declaration cannot outlive the code.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterator
from typing import Any

import pytest

from netcards.bots.registry import make_bot
from netcards.game import Game, TableConfig
from netcards.registry import all_games
from netcards.rng import make_seed
from netcards.shape import Field, GameShapes, parse

GAMES = sorted(all_games().values(), key=lambda g: g.id)
IDS = [g.id for g in GAMES]

TABLES = {
    "via-gladiola": [(2, 1, False), (3, 2, False), (5, 3, False), (4, 4, False), (3, 5, True)],
    "velonimo": [(2, 1, False), (2, 2, False), (3, 3, False), (5, 4, False), (4, 5, False)],
    "auf-achse": [(2, 1, False), (3, 2, False), (5, 3, False), (4, 4, True)],
}


def starve(game: Game[Any], state: Any) -> None:
    """Empty the draw pile at once (its cards kept in play), so that what happens only when
    it runs out (a stalemate, a reshuffle of the discards) happens in these few games."""
    if game.id == "via-gladiola":
        state.hands[0].extend(state.draw)
        state.draw.clear()
    elif game.id == "auf-achse":
        state.discard.extend(state.draw)
        state.draw.clear()


def played(
    game: Game[Any], config: TableConfig, seed: int, starved: bool = False
) -> Iterator[tuple[Any, int, Any, list[Any]]]:
    """(state after, actor, action, events) for each action of one game between bots; a
    starved game's seats rest whenever they may (Via Gladiola's stalemate needs it)."""
    state = game.setup(config, make_seed(seed))
    if starved:
        starve(game, state)
    levels = ["random", "random"] if starved else ["heuristic", "random"]
    bots = [
        make_bot(levels[s % 2], game, config, s, make_seed(seed * 17 + s))
        for s in range(config.players)
    ]
    while game.to_act(state):
        for seat in sorted(game.to_act(state)):
            legal = game.legal_actions(state, seat)
            rests = [a for a in legal if a.KIND == "rest"] if starved else []
            action = rests[0] if rests else bots[seat].choose(game.view(state, seat), legal)
            events = game.apply(state, seat, action)
            yield state, seat, action, events


class Seen:
    """Which event kinds and optional fields turned up."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def note(self, where: str, data: dict[str, Any]) -> None:
        self.names.add(where)
        self.names.update(f"{where}.{k}" for k in data)


def optional_names(shapes: GameShapes) -> set[str]:
    out = {f"event:{kind}" for kind in shapes.events}
    out |= {f"view.{f.name}" for f in shapes.view if f.optional}
    for kind, event in shapes.events.items():
        out |= {f"event:{kind}.{f.name}" for f in event.public if f.optional}
    return out


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_map_of_whole_games_has_its_declared_shape(game: Game[Any]) -> None:
    shapes = game.shapes
    seen = Seen()
    for players, seed, starved in TABLES[game.id]:
        config = game.make_config(players)
        catalogue = game.cards(config)
        cards = len(catalogue)
        assert [c["id"] for c in catalogue] == list(range(cards))
        for card in catalogue:
            shapes.check(card, shapes.card, cards, "card")
        state0 = game.setup(config, make_seed(seed))
        shapes.check(game.deal_record(state0), shapes.deal, cards, "deal")
        for state, _actor, action, events in played(game, config, seed, starved):
            data = game.encode_action(action)
            kind = data.pop("kind")
            shapes.check(data, shapes.actions[kind], cards, f"action {kind}")
            for event in events:
                where = f"event:{event.kind}"
                shape = shapes.events[event.kind]
                shapes.check(event.public, shape.public, cards, where)
                seen.note(where, event.public)
                for part in event.private.values():
                    shapes.check(part, shape.private, cards, f"{where} private")
                shapes.check(event.secret, shape.secret, cards, f"{where} secret")
                for seat in [*range(players), None]:
                    wire = event.for_seat(seat)
                    assert wire.pop("kind") == event.kind
                    shapes.check(wire, shape.wire(), cards, f"{where} to seat {seat}")
            for seat in [*range(players), None]:
                view = game.public_view(state) if seat is None else game.view(state, seat)
                shapes.check(view, shapes.view, cards, f"view of seat {seat}")
                seen.note("view", view)
        outcome = game.outcome(state)
        assert outcome is not None
        shapes.check(outcome.detail, shapes.outcome_detail, cards, "outcome detail")
    missing = optional_names(shapes) - seen.names
    assert not missing, f"declared but never seen in these games: {sorted(missing)}"


def _codec_type(tp: Any) -> set[str]:
    """What the action codec's Python type allows, in the shapes' words."""
    if tp is bool:
        return {"bool"}
    if tp is int:
        return {"int", "card", "seat"}
    if tp == tuple[int, ...]:
        return {"[int]", "[card]", "[seat]"}
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(tp) if a is not type(None)]
        return {f"{t} or nil" for t in _codec_type(inner[0])}
    raise AssertionError(f"no shape for {tp!r}")


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_declared_actions_are_exactly_the_codec_s(game: Game[Any]) -> None:
    declared = game.shapes.actions
    assert set(declared) == set(game.codec.kinds)
    for kind, types_ in game.codec.field_types.items():
        fields: tuple[Field, ...] = declared[kind]
        assert [f.name for f in fields] == list(types_), kind
        for f in fields:
            assert not f.optional, f"every field of an action is required ({kind}.{f.name})"
            assert f.type in _codec_type(types_[f.name]), (kind, f.name, f.type)
            parse(f.type)
