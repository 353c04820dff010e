"""Playing whole games headless: the simulator behind `netcards simulate`, the benchmarks and tests.

Each game is driven exactly as a host drives it: the seats asked to act each get their view and
legal actions and answer through their bot. With a log sink, every game writes the omniscient log.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from netcards.bots.base import NO_VIEW, Bot
from netcards.bots.registry import make_bot
from netcards.game import Game, Outcome, TableConfig
from netcards.oplog import GameLog

LogSink = Callable[[dict[str, Any]], None]


def game_seed(base_seed: int, index: int) -> bytes:
    """The seed of game `index` of a run started with `base_seed`."""
    return hashlib.blake2b(f"{base_seed}:{index}".encode(), digest_size=32).digest()


def play_game(
    game: Game[Any],
    config: TableConfig,
    seed: bytes,
    bots: Sequence[Bot],
    *,
    log: LogSink | None = None,
    bot_names: Sequence[str] = (),
    index: int = 0,
    max_actions: int = 1_000_000,
) -> Outcome:
    state = game.setup(config, seed)
    recorder = GameLog(game, config, seed, list(bot_names), index) if log else None
    if recorder is not None and log is not None:
        for record in recorder.start(state):
            log(record)
    # Only bots that remember get the events as their seat saw them; the rest play faster.
    histories: dict[int, list[dict[str, Any]]] = {
        s: [] for s, bot in enumerate(bots) if bot.wants_history
    }
    history_of = [histories.get(s, ()) for s in range(len(bots))]
    choose = [bot.choose for bot in bots]
    reads_view = [bot.reads_view for bot in bots]
    follow = bool(histories) or recorder is not None
    to_act, legal_actions, lazy_view, apply = (
        game.to_act,
        game.legal_actions,
        game.lazy_view,
        game.apply,
    )
    for _ in range(max_actions):
        seats = to_act(state)
        if not seats:
            break
        for seat in sorted(seats) if len(seats) > 1 else seats:
            legal = legal_actions(state, seat)
            view = lazy_view(state, seat) if reads_view[seat] else NO_VIEW
            action = choose[seat](view, legal, history_of[seat])
            events = apply(state, seat, action)
            if follow:
                for watcher, history in histories.items():
                    history.extend(e.for_seat(watcher) for e in events)
                if recorder is not None and log is not None:
                    log(recorder.action(seat, action, events))
    else:
        raise RuntimeError(f"{game.name} did not end within {max_actions} actions")
    outcome = game.outcome(state)
    assert outcome is not None
    if recorder is not None and log is not None:
        log(recorder.end(outcome))
    return outcome


@dataclass
class Summary:
    game: str
    players: int
    games: int
    bots: list[str]
    wins_by_seat: list[float]
    score_sum_by_seat: list[int]
    seconds: float = 0.0
    wins_by_kind: dict[str, float] = field(default_factory=dict)

    def add(self, outcome: Outcome) -> None:
        self.games += 1
        share = 1.0 / len(outcome.winners)
        for seat in outcome.winners:
            self.wins_by_seat[seat] += share
            self.wins_by_kind[self.bots[seat]] = self.wins_by_kind.get(self.bots[seat], 0.0) + share
        for seat, score in enumerate(outcome.scores):
            self.score_sum_by_seat[seat] += score

    def to_data(self) -> dict[str, Any]:
        n = max(self.games, 1)
        seats_of: dict[str, int] = {}
        for kind in self.bots:
            seats_of[kind] = seats_of.get(kind, 0) + 1
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "bots": list(self.bots),
            "wins_by_seat": [round(w, 3) for w in self.wins_by_seat],
            "win_rate_by_seat": [round(w / n, 4) for w in self.wins_by_seat],
            "wins_by_bot": {k: round(self.wins_by_kind.get(k, 0.0), 3) for k in seats_of},
            "win_rate_per_seat_by_bot": {
                k: round(self.wins_by_kind.get(k, 0.0) / (n * c), 4) for k, c in seats_of.items()
            },
            "mean_score_by_seat": [round(s / n, 3) for s in self.score_sum_by_seat],
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
        }


def simulate(
    game: Game[Any],
    config: TableConfig,
    games: int,
    seed: int,
    levels: Sequence[str],
    *,
    log: LogSink | None = None,
    clock: Callable[[], float] | None = None,
) -> Summary:
    """Play `games` games with one bot level per seat; `clock` (if given) times the run."""
    summary = Summary(
        game.id, config.players, 0, list(levels), [0.0] * config.players, [0] * config.players
    )
    started = clock() if clock else 0.0
    bots = [make_bot(levels[s], game, config, s, b"") for s in range(config.players)]
    for index in range(games):
        seed_bytes = game_seed(seed, index)
        for s, bot in enumerate(bots):
            bot.new_game(seed_bytes + bytes([s]))
        summary.add(
            play_game(game, config, seed_bytes, bots, log=log, bot_names=levels, index=index)
        )
    if clock:
        summary.seconds = clock() - started
    return summary
