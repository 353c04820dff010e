"""The search bot: always a legal move, the same move for the same seed and playout budget,
levels and budgets checked where a bot is named, and a stand-in that searches."""

from __future__ import annotations

from typing import Any

import pytest

import netcards.bots.search.bot as search_bot
from netcards.bots.registry import check_level, make_bot
from netcards.bots.search import SearchBot
from netcards.bots.search.playout import Result
from netcards.errors import BadConfig
from netcards.game import Game
from netcards.games.via_gladiola.actions import Walk
from netcards.registry import all_games
from netcards.rng import make_seed
from netcards.simulate import play_game
from netcards.table import Table

GAMES = sorted(all_games().values(), key=lambda g: g.id)
IDS = [g.id for g in GAMES]


class Checked(SearchBot):
    """A search bot that records every choice against the legal moves it was given."""

    choices: list[bool]

    def choose(self, view: dict[str, Any], legal: list[Any], history: Any = ()) -> Any:
        action = super().choose(view, legal, history)
        self.choices.append(action in legal)
        return action


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_choice_is_legal_through_a_whole_game(game: Game[Any]) -> None:
    players = 3
    config = game.make_config(players)
    bots: list[Any] = [make_bot("heuristic", game, config, s, make_seed(s)) for s in range(3)]
    searcher = make_bot("search:6", game, config, 1, make_seed(9))
    assert isinstance(searcher, SearchBot)
    checked = Checked(game, config, 1, make_seed(9), searcher.budget)
    checked.choices = []
    bots[1] = checked
    outcome = play_game(game, config, make_seed(5), bots)
    assert outcome is not None
    assert len(checked.choices) > 10 and all(checked.choices)


def decision(
    game: Game[Any], players: int, skip: int
) -> tuple[Any, int, dict[str, Any], list[Any]]:
    """A state some way into a game, and a seat with a real choice there."""
    config = game.make_config(players)
    state = game.setup(config, make_seed(11))
    seen = 0
    while True:
        for seat in sorted(game.to_act(state)):
            legal = game.legal_actions(state, seat)
            if len(legal) > 2:
                seen += 1
                if seen > skip:
                    return config, seat, game.view(state, seat), legal
            game.apply(state, seat, legal[0])


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_fixed_seed_and_playout_budget_give_the_same_search(game: Game[Any]) -> None:
    config, seat, view, legal = decision(game, 3, skip=3)

    def analyse(seed: int) -> Any:
        bot = make_bot("search:40", game, config, seat, make_seed(seed))
        assert isinstance(bot, SearchBot)
        return bot.analyse(view, legal)

    first, again = analyse(1), analyse(1)
    assert first.action == again.action and first.action in legal
    assert [(m.action, m.playouts, m.reward) for m in first.moves] == [
        (m.action, m.playouts, m.reward) for m in again.moves
    ]
    assert first.playouts >= 40 and 0 <= first.win_chance <= 1


def test_sequential_halving_spends_the_budget_on_the_better_moves() -> None:
    game = all_games()["velonimo"]
    config, seat, view, legal = decision(game, 4, skip=2)
    bot = make_bot("search:200", game, config, seat, make_seed(3))
    assert isinstance(bot, SearchBot)
    found = bot.analyse(view, legal)
    by_action = {m.action: m for m in found.moves}
    assert found.playouts >= 200
    assert by_action[found.action].playouts == max(m.playouts for m in found.moves)
    assert len({m.playouts for m in found.moves}) > 1  # the worse half stopped early


def test_the_search_plays_its_policy_move_unless_another_proves_better(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The heuristic's move stands unless another beats it in the same worlds; the hint says
    how sure the search is."""
    game = all_games()["via-gladiola"]
    config, seat, view, legal = decision(game, 3, skip=2)
    theirs = make_bot("heuristic", game, config, seat, b"").choose(view, legal)
    other = next(a for a in legal if isinstance(a, Walk) and a != theirs)
    # Playouts judged by a referee of our own: the imagined game as it stands after the move.
    monkeypatch.setattr(search_bot, "play_out", lambda game, state, bots, stop_at: state)

    def analyse() -> Any:
        bot = make_bot("search:120", game, config, seat, make_seed(2))
        assert isinstance(bot, SearchBot)
        return bot.analyse(view, legal)

    monkeypatch.setattr(search_bot, "result_for", lambda state, seat: Result(0.5, 0.5))
    even = analyse()
    assert even.action == theirs and even.sureness == "close"

    def other_wins(state: Any, seat: int) -> Result:
        won = 1.0 if other.card in state.walk else 0.0
        return Result(won, won)

    monkeypatch.setattr(search_bot, "result_for", other_wins)
    better = analyse()
    assert better.action == other and better.sureness == "clear"
    assert better.win_chance == 1.0


def test_a_single_legal_move_is_the_only_move() -> None:
    game = all_games()["auf-achse"]
    config, seat, view, legal = decision(game, 2, skip=1)
    bot = make_bot("search:10", game, config, seat, make_seed(1))
    assert isinstance(bot, SearchBot)
    found = bot.analyse(view, legal[:1])
    assert found.action == legal[0] and found.sureness == "only"


@pytest.mark.parametrize(
    ("level", "problem"),
    [
        ("search:0", "1 to 1000000 playouts"),
        ("search:fast", "bad search budget 'fast'"),
        ("search:0s", "more than 0"),
        ("heuristic:3", "takes no setting"),
        ("clever", "unknown bot level 'clever'"),
    ],
)
def test_a_bad_level_or_budget_is_refused_with_its_reason(level: str, problem: str) -> None:
    game = all_games()["via-gladiola"]
    with pytest.raises(BadConfig, match=problem):
        make_bot(level, game, game.make_config(2), 0, b"seed")
    with pytest.raises(BadConfig, match=problem):
        check_level(level)


def test_budgets_in_playouts_and_seconds() -> None:
    game = all_games()["auf-achse"]
    config = game.make_config(2)
    for level, playouts, seconds in [("search", 400, None), ("search:25", 25, None)]:
        bot = make_bot(level, game, config, 0, b"s")
        assert isinstance(bot, SearchBot)
        assert (bot.budget.playouts, bot.budget.seconds) == (playouts, seconds)
    timed = make_bot("search:0.2s", game, config, 0, b"s")
    assert isinstance(timed, SearchBot) and timed.budget.seconds == 0.2
    # Velonimo's playouts cost the most: its default thinks less, to answer as quickly.
    velonimo = all_games()["velonimo"]
    config4, seat, view, legal = decision(velonimo, 4, skip=2)
    default = make_bot("search", velonimo, config4, seat, b"s")
    assert isinstance(default, SearchBot) and default.budget.playouts == 300
    assert 300 <= default.analyse(view, legal).playouts < 300 + len(legal)
    config, seat, view, legal = decision(game, 2, skip=1)
    timed = make_bot("search:0.2s", game, config, seat, b"s")
    assert isinstance(timed, SearchBot)
    found = timed.analyse(view, legal)
    assert 0.2 <= found.seconds < 2.0 and found.action in legal


def test_a_search_bot_stands_in_for_a_dropped_player() -> None:
    game = all_games()["via-gladiola"]
    table = Table(game, game.make_config(2), "t", b"h" * 32)
    ann = table.claim_seat("Ann", "tok-ann")
    table.contribute(ann.index, b"a" * 32)
    table.set_ready(ann.index, True)
    table.add_bot("search:5")
    table.set_stand_in_level("search:5")
    with pytest.raises(BadConfig):
        table.set_stand_in_level("search:nope")
    table.start()
    table.disconnect(0)
    table.set_stand_in(0, True)
    for _ in range(400):
        seats = table.bot_seats_to_act()
        if not seats:
            break
        table.submit(seats[0], table.bot_action(seats[0]))
    assert table.outcome() is not None
    assert {seat for seat, _ in table.actions} == {0, 1}
    assert table.seats[1].name == "Bot 2" and table.seats[1].bot_level.startswith("search")
