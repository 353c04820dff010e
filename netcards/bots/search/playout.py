"""One imagined game played to its end: every seat played by its game's fast bot, on its view.

The playout policy sees only each seat's view of the imagined state, like any bot; a strong,
cheap policy (the heuristic bot where the game has one) makes each playout say more about a
move than random play would, which is what lets a few hundred playouts beat that same policy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from netcards.bots.base import NO_VIEW, Bot
from netcards.bots.registry import make_bot
from netcards.errors import BadConfig
from netcards.game import Game, Outcome, TableConfig

MAX_STEPS = 20_000  # far beyond any real game: a guard against a rules bug looping forever


@dataclass(frozen=True, slots=True)
class Result:
    """What one playout was worth to the searching seat."""

    win: float  # 1 for a sole win, 1/k for a k-way tie, else 0
    reward: float  # the win plus a little for a good place, so that losing well still counts


def policy_level(game: Game[Any], config: TableConfig) -> str:
    """The playout policy: the game's heuristic bot, or random play where it has none."""
    try:
        make_bot("heuristic", game, config, 0, b"check")
    except BadConfig:
        return "random"
    return "heuristic"


def policy_bots(game: Game[Any], config: TableConfig, level: str) -> list[Bot]:
    """One playout bot per seat, built once and given each imagined game's seed (`reseed`)."""
    return [make_bot(level, game, config, s, b"") for s in range(config.players)]


def reseed(bots: list[Bot], seed: bytes) -> list[Bot]:
    """The bots as if built for a new game with `seed` (each seat's seed ends with its number)."""
    for seat, bot in enumerate(bots):
        bot.new_game(seed + bytes([seat]))
    return bots


def play_out(game: Game[Any], state: Any, bots: list[Bot], stop_at: int | None) -> Outcome:
    """Play `state` (changed in place) to its end, or until `game.progress` reaches `stop_at`,
    and return the outcome, or the standings at that point. Bots read lazy views: a playout
    asks for one at every decision, and the policy reads a few of its fields."""
    to_act, legal_actions, lazy_view, apply = (
        game.to_act,
        game.legal_actions,
        game.lazy_view,
        game.apply,
    )
    for _ in range(MAX_STEPS):
        seats = to_act(state)
        if not seats:
            outcome = game.outcome(state)
            assert outcome is not None
            return outcome
        if stop_at is not None and game.progress(state) >= stop_at:
            return game.standings(state)
        for seat in sorted(seats) if len(seats) > 1 else seats:
            legal = legal_actions(state, seat)
            if len(legal) == 1:
                action = legal[0]
            else:
                bot = bots[seat]
                action = bot.choose(lazy_view(state, seat) if bot.reads_view else NO_VIEW, legal)
            apply(state, seat, action)
    raise RuntimeError(f"a playout of {game.name} did not end after {MAX_STEPS} moves")


def result_for(outcome: Outcome, seat: int) -> Result:
    """Winning counts most; a better place and a better score against the best other seat
    count a little, so that a playout that is won (or lost) anyway still tells moves apart."""
    players = len(outcome.places)
    win = 1 / len(outcome.winners) if seat in outcome.winners else 0.0
    place = (players - outcome.places[seat]) / (players - 1) if players > 1 else 1.0
    mine = outcome.scores[seat]
    others = [s for i, s in enumerate(outcome.scores) if i != seat]
    margin = 0.0
    if others:
        best = min(others) if outcome.lower_is_better else max(others)
        diff = best - mine if outcome.lower_is_better else mine - best
        margin = diff / (abs(mine) + abs(best) + 1)
    return Result(win, 0.6 * win + 0.2 * place + 0.1 * (1 + margin))
