"""The `netcards` command: the one place that wires the engine, the protocol and the UI together.

Every failure a user can cause (an unknown game, a bad option, a missing deck file) ends in one
line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any, NoReturn

from netcards.errors import GameError
from netcards.game import Game, TableConfig
from netcards.options import parse_option_assignments
from netcards.registry import all_games, get_game

EXIT_USAGE = 2


class UsageError(Exception):
    """A mistake in what the user asked for; reported as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="netcards",
        description="Card games with friends over a LAN or SSH, in the terminal.",
    )
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    sim = sub.add_parser("simulate", help="play games between bots, headless, and print a summary")
    sim.add_argument("--game", required=True, help=f"one of: {', '.join(sorted(all_games()))}")
    sim.add_argument("--players", type=int, help="number of players (default: the game's minimum)")
    sim.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    sim.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    sim.add_argument(
        "--bots",
        default="random",
        help="bot level per seat, comma-separated; a shorter list repeats (default: random)",
    )
    sim.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    sim.add_argument("--deck", type=Path, help="a deck file (TOML) instead of the house deck")
    sim.add_argument("--log", type=Path, help="write the omniscient log (JSON Lines) here")
    sim.add_argument("--json", action="store_true", help="print the summary as one JSON object")

    rules = sub.add_parser("rules", help="print the rules of a game")
    rules.add_argument("game", help=f"one of: {', '.join(sorted(all_games()))}")

    deck = sub.add_parser("deck", help="print a game's house deck file, to start your own from")
    deck.add_argument("game", help=f"one of: {', '.join(sorted(all_games()))}")
    return parser


def table_config(
    game: Game[Any], players: int | None, options: list[str], deck: Path | None
) -> TableConfig:
    """A validated config from command-line options; the deck file is read here, not in the engine."""
    given = parse_option_assignments(game.id, game.option_specs, options)
    if deck is not None:
        if not any(s.name == "deck" for s in game.option_specs):
            raise UsageError(f"{game.name} has no deck option")
        try:
            given["deck"] = deck.read_text(encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot read deck file {str(deck)!r}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise UsageError(f"deck file {str(deck)!r} is not UTF-8 text") from None
    return game.make_config(players if players is not None else game.min_players, given)


def _simulate(args: argparse.Namespace, out: IO[str]) -> int:
    from netcards.bots.base import bot_levels
    from netcards.simulate import simulate

    game = get_game(args.game)
    config = table_config(game, args.players, args.option, args.deck)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    levels = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not levels:
        raise UsageError("--bots needs at least one bot level")
    known = bot_levels()
    for level in levels:
        if level not in known:
            raise UsageError(f"unknown bot level '{level}' (known: {', '.join(known)})")
    per_seat = [levels[s % len(levels)] for s in range(config.players)]
    log_file = None
    if args.log is not None:
        try:
            log_file = args.log.open("w", encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write log file {str(args.log)!r}: {exc.strerror}") from None
    try:

        def sink(record: dict[str, Any]) -> None:
            assert log_file is not None
            log_file.write(json.dumps(record, separators=(",", ":")) + "\n")

        summary = simulate(
            game,
            config,
            args.games,
            args.seed,
            per_seat,
            log=sink if log_file else None,
            clock=time.perf_counter,
        )
    finally:
        if log_file is not None:
            log_file.close()
    data = summary.to_data()
    data["seed"] = args.seed
    if args.json:
        out.write(json.dumps(data) + "\n")
        return 0
    out.write(
        f"{game.name}: {config.players} players, {summary.games} games, seed {args.seed}, "
        f"{data['games_per_second']} games/s\n"
    )
    out.write(f"{'seat':<6}{'bot':<12}{'wins':>8}{'win %':>8}  mean {game.score_name}\n")
    for seat in range(config.players):
        out.write(
            f"{seat:<6}{per_seat[seat]:<12}{data['wins_by_seat'][seat]:>8}"
            f"{100 * data['win_rate_by_seat'][seat]:>7.1f}%  {data['mean_score_by_seat'][seat]}\n"
        )
    for kind, rate in data["win_rate_per_seat_by_bot"].items():
        out.write(f"{kind}: {data['wins_by_bot'][kind]} wins, {100 * rate:.1f}% per seat\n")
    return 0


def _rules(args: argparse.Namespace, out: IO[str]) -> int:
    from ui.docs import rules_text

    game = get_game(args.game)
    text = rules_text(game.id)
    if text is None:
        raise UsageError(f"no rules page ships for {game.name}")
    out.write(text)
    return 0


def _deck(args: argparse.Namespace, out: IO[str]) -> int:
    game = get_game(args.game)
    text = game.house_deck()
    if text is None:
        raise UsageError(f"{game.name} has no deck file")
    out.write(text)
    return 0


def run(argv: Sequence[str], out: IO[str], err: IO[str]) -> int:
    parser = _build_parser()
    try:
        args = parser.parse_args(list(argv))
        if args.command is None:
            parser.print_help(out)
            return 0
        handler = {"simulate": _simulate, "rules": _rules, "deck": _deck}[args.command]
        return handler(args, out)
    except (UsageError, GameError) as exc:
        message = str(exc).replace("\n", " ")
        prefix = "" if message.startswith("netcards") else "netcards: error: "
        err.write(f"{prefix}{message}\n")
        return EXIT_USAGE


def main() -> None:
    sys.exit(run(sys.argv[1:], sys.stdout, sys.stderr))
