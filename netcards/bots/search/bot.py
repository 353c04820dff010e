"""The search bot: information-set Monte Carlo search over the moves its seat can make now.

Each iteration deals one world the seat cannot tell from the real one (the game's sampler:
unseen cards at random, known cards where the seat knows they are), then plays every move still
in contention in that same world and plays each out to the end. Evaluating all candidates on
the same worlds ("paired worlds") removes the luck of the deal from their comparison, which is
what lets a few hundred playouts separate close moves. The budget is spent by sequential halving
(Karnin, Koren and Somekh, 2013): in each of log2(n) rounds every surviving move gets an equal
share of playouts, then the worse half is dropped, so the budget goes to the moves that matter.

The bot never sees the state: it gets its view and its history like any client, and the worlds
it imagines are built from them alone, so it cannot cheat whoever runs it.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from netcards.action import Action
from netcards.bots.base import Bot, History, View
from netcards.bots.search.budget import Budget
from netcards.bots.search.playout import (
    play_out,
    policy_bots,
    policy_level,
    reseed,
    result_for,
)
from netcards.game import Game, TableConfig


@dataclass(slots=True)
class MoveStats:
    action: Action
    playouts: int = 0
    reward: float = 0.0
    wins: float = 0.0
    gain: float = 0.0  # summed over worlds: this move's reward minus the policy's move's
    gain_squares: float = 0.0

    def beats_by(self) -> tuple[float, float]:
        """The mean gain over the policy's own move in the same worlds, and its standard error."""
        n = self.playouts
        if n < 2:
            return 0.0, math.inf
        mean = self.gain / n
        variance = max(0.0, (self.gain_squares - n * mean * mean) / (n - 1))
        return mean, math.sqrt(variance / n)

    @property
    def mean(self) -> float:
        return self.reward / self.playouts if self.playouts else 0.0

    @property
    def win_chance(self) -> float:
        return self.wins / self.playouts if self.playouts else 0.0


@dataclass(slots=True)
class Work:
    searches: int = 0
    playouts: int = 0
    seconds: float = 0.0

    def add(self, playouts: int, seconds: float) -> None:
        self.searches += 1
        self.playouts += playouts
        self.seconds += seconds


@dataclass(slots=True)
class Analysis:
    """What a search found: the move, its estimated chance of winning, and the work done."""

    action: Action
    win_chance: float
    playouts: int
    worlds: int
    seconds: float
    moves: list[MoveStats] = field(default_factory=list)
    lead: float = math.inf  # standard errors by which the move beat its closest rival

    @property
    def playouts_per_second(self) -> float:
        return self.playouts / self.seconds if self.seconds > 0 else 0.0

    @property
    def sureness(self) -> str:
        """How sure the search is of its move: "only" (no other move), "clear" (it beat every
        rival in the last round's shared worlds by two standard errors or more), "likely" (by
        one or more), "close" (less: another move may be as good)."""
        if self.lead == math.inf and len(self.moves) < 2:
            return "only"
        if self.lead >= 2:
            return "clear"
        return "likely" if self.lead >= 1 else "close"


# Playouts stop at the end of the current round or stage (where a game has several) and judge by
# the standings there: five times cheaper than playing to the end, and the round being played is
# where this move's consequences are; later rounds are a fresh deal the move barely touches.
HORIZON = 1

# How many standard errors (of the paired gain, one-sided) a move must beat the policy's own move
# by to be played instead of it. 1.0: a move that only looks better in a few hundred noisy
# playouts is not trusted over a good player's choice.
CONFIDENCE = 1.0


class SearchBot(Bot):
    level = "search"
    wants_history = True

    def __init__(
        self,
        game: Game[Any],
        config: TableConfig,
        seat: int,
        seed: bytes,
        budget: Budget,
        horizon: int | None = HORIZON,
    ) -> None:
        super().__init__(game, config, seat, seed)
        self.budget = budget
        self.horizon = horizon
        self.policy = policy_level(game, config)  # once: it is asked for in every playout
        self.policy_bots = policy_bots(game, config, self.policy)
        self.searched = Work()  # what every search of this bot cost, for benchmarks

    def choose(self, view: View, legal: list[Action], history: History = ()) -> Action:
        if len(legal) == 1:
            return legal[0]
        return self.analyse(view, legal, history).action

    def analyse(self, view: View, legal: list[Action], history: History = ()) -> Analysis:
        """Search from `view`; also when only one move is legal (a hint still wants its chance)."""
        started = time.perf_counter()
        stats = {action: MoveStats(action) for action in dict.fromkeys(legal)}
        prior = stats[self._policy_move(view, legal)] if len(stats) > 1 else None
        alive = list(stats.values())
        rounds = max(1, math.ceil(math.log2(len(alive))))
        worlds = playouts = 0
        for index in range(rounds):
            left = rounds - index
            stop_at = math.inf
            target = math.inf
            if self.budget.seconds is not None:
                now = time.perf_counter()
                stop_at = now + (started + self.budget.seconds - now) / left
            else:
                assert self.budget.playouts is not None
                target = playouts + max(len(alive), (self.budget.playouts - playouts) // left)
            last_round: list[list[float]] = []
            while True:
                last_round.append(self._one_world(view, history, alive, prior))
                worlds += 1
                playouts += len(alive)
                if playouts >= target or time.perf_counter() >= stop_at:
                    break
            if index < rounds - 1:
                alive.sort(key=lambda m: -m.mean)
                kept = alive[: math.ceil(len(alive) / 2)]
                if prior is not None and prior not in kept:
                    kept.append(prior)  # the policy's move stays, to be measured against
                alive = kept
        best = self._pick(alive, prior)
        seconds = time.perf_counter() - started
        self.searched.add(playouts, seconds)
        return Analysis(
            action=best.action,
            win_chance=best.win_chance,
            playouts=playouts,
            worlds=worlds,
            seconds=seconds,
            moves=sorted(stats.values(), key=lambda m: -m.mean),
            lead=_lead(alive.index(best), last_round),
        )

    def _policy_move(self, view: View, legal: list[Action]) -> Action:
        """What the playout policy would play here: the move the search must prove it beats."""
        bot = self.policy_bots[self.seat]
        bot.new_game(self._seed)
        return bot.choose(view, legal)

    def _pick(self, alive: list[MoveStats], prior: MoveStats | None) -> MoveStats:
        """The best mean; but the policy's own move unless another beat it, in the same worlds,
        by more than `CONFIDENCE` standard errors: with a few hundred noisy playouts, a move
        that merely looks better is as likely to be worse, and the policy is a good player."""
        best = max(alive, key=lambda m: m.mean)
        if prior is None or best is prior:
            return best
        gain, error = best.beats_by()
        return best if gain > CONFIDENCE * error else prior

    def _one_world(
        self, view: View, history: History, alive: list[MoveStats], prior: MoveStats | None
    ) -> list[float]:
        """Deal one world and play every surviving move out in it, with the same policy seeds;
        the rewards, move by move."""
        game, seat = self.game, self.seat
        world_seed = self.random.randbytes(16)
        world = game.sample_state(self.config, view, history, random.Random(world_seed))
        stop_at = None if self.horizon is None else game.progress(world) + self.horizon
        rewards = []
        for move in alive:
            state = game.copy_state(world)
            game.apply(state, seat, move.action)
            outcome = play_out(game, state, reseed(self.policy_bots, world_seed), stop_at)
            result = result_for(outcome, seat)
            move.playouts += 1
            move.reward += result.reward
            move.wins += result.win
            rewards.append(result.reward)
        if prior is not None:
            base = rewards[alive.index(prior)]
            for move, reward in zip(alive, rewards, strict=True):
                move.gain += reward - base
                move.gain_squares += (reward - base) ** 2
        return rewards


def _lead(chosen: int, rows: list[list[float]]) -> float:
    """By how many standard errors move `chosen` beat its closest rival, over worlds whose
    rewards (`rows`, one per world, one reward per move) they shared; inf with no rival."""
    lead = math.inf
    for rival in range(len(rows[0]) if rows else 0):
        if rival == chosen:
            continue
        gains = [row[chosen] - row[rival] for row in rows]
        n = len(gains)
        mean = sum(gains) / n
        variance = sum((g - mean) ** 2 for g in gains) / (n - 1) if n > 1 else 0.0
        error = math.sqrt(variance / n)
        if error > 0:
            lead = min(lead, mean / error)
        elif mean <= 0:  # the same reward in every world, or always worse
            lead = min(lead, 0.0 if mean == 0 else -math.inf)
    return lead
