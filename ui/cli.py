"""The `netcards` command: the one place that wires the engine, the protocol and the UI together.

Every failure a user can cause (an unknown game, a bad option, a missing deck file) ends in one
line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any, NoReturn

from netcards.errors import BadConfig, GameError
from netcards.game import Game, TableConfig
from netcards.options import parse_option_assignments
from netcards.registry import all_games, get_game
from netcards.table import Table, clean_name
from protocol.address import DEFAULT_PORT, DEFAULT_SSH_PORT, AddressError
from protocol.journal_file import JournalError
from protocol.limits import MAX_TURN_CLOCK
from protocol.settings import DISCOVERY_PORT
from ui.journals import new_journal_path

EXIT_USAGE = 2
PASSWORD_VARIABLE = "NETCARDS_PASSWORD"
PASSWORD_HELP = (
    "anyone on this computer can read a command line (ps): prefer --ask-password or the "
    f"{PASSWORD_VARIABLE} environment variable"
)
OPTION_HELP = (
    "a game option, e.g. first_player=0 or variant_last_card=true (repeatable; "
    "`netcards rules GAME` lists them)"
)


class UsageError(Exception):
    """A mistake in what the user asked for; reported as one line, exit status 2."""


def seconds(text: str) -> float:
    """A time on the command line: a number of seconds, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 <= value < math.inf:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds (0 or more)")
    return value


def some_seconds(text: str) -> float:
    """A time to wait for something: more than 0 seconds."""
    value = seconds(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be more than 0 seconds")
    return value


def turn_clock(text: str) -> float:
    """A turn clock: 0 for none, or 0.001 (the wire's millisecond) to a day, in seconds. A
    clock under a millisecond would be announced as 0 ("no clock") while bots played at once."""
    value = seconds(text)
    if value and not 0.001 <= value <= MAX_TURN_CLOCK:
        raise argparse.ArgumentTypeError(
            f"a turn clock is 0 (none) or 0.001 to {MAX_TURN_CLOCK} seconds, not {text}"
        )
    return value


def port_number(text: str, lowest: int = 0) -> int:
    """A TCP or UDP port: 0 (where allowed: any free one, or off) to 65535."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not lowest <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from {lowest} to 65535, not {value}")
    return value


def host_port(text: str) -> int:
    """The port a host asks about: 1 to 65535."""
    return port_number(text, lowest=1)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="netcards",
        description="Card games with friends over a LAN or SSH, in the terminal.",
    )
    parser.add_argument(
        "--ascii", action="store_true", help="draw with ASCII only (automatic without UTF-8)"
    )
    parser.add_argument(
        "--lang",
        choices=["en", "fr", "nl"],
        help="language of the app and the rules (default: your settings, else the locale)",
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
        help="bot level per seat (random, heuristic, search, search:N playouts, search:Xs), "
        "comma-separated; a shorter list repeats (default: random)",
    )
    sim.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help=OPTION_HELP
    )
    sim.add_argument("--deck", type=Path, help="a deck file (TOML) instead of the house deck")
    sim.add_argument("--log", type=Path, help="write the omniscient log (JSON Lines) here")
    sim.add_argument("--json", action="store_true", help="print the summary as one JSON object")

    rules = sub.add_parser("rules", help="print the rules of a game")
    rules.add_argument("game", help=f"one of: {', '.join(sorted(all_games()))}")

    host = sub.add_parser("host", help="open a table for others to join")
    host.add_argument("--game", help=f"one of: {', '.join(sorted(all_games()))}")
    host.add_argument(
        "--players", type=int, help="seats at the table (default: the game's minimum)"
    )
    host.add_argument("--bots", type=int, default=0, help="how many seats bots take (default 0)")
    host.add_argument(
        "--stand-in",
        default="heuristic",
        help="level of the bot that plays a dropped player's seat after the grace",
    )
    host.add_argument(
        "--bot-level",
        default="heuristic",
        help="level of those bots (random, heuristic, search...)",
    )
    host.add_argument(
        "--port", type=port_number, help=f"TCP port (default {DEFAULT_PORT}; 0 = any free)"
    )
    host.add_argument("--bind", default="0.0.0.0", help="address to listen on (default 0.0.0.0)")
    _password_options(host, "players must give this password to join")
    host.add_argument("--name", help="the table's name (default: the host's, e.g. \"Ann's table\")")
    host.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help=OPTION_HELP
    )
    host.add_argument("--deck", type=Path, help="a deck file (TOML) instead of the house deck")
    host.add_argument("--headless", action="store_true", help="no screen: print what happens")
    host.add_argument(
        "--sealed",
        action="store_true",
        help="a sealed table: nobody, the host included, sees a card they may not (docs/sealed.md)",
    )
    host.add_argument(
        "--owner",
        metavar="NAME",
        help="with --headless: the player who joins under this name owns the table "
        "(adds bots, changes options)",
    )
    host.add_argument("--resume", type=Path, metavar="JOURNAL", help="continue a crashed game")
    host.add_argument("--journal", type=Path, help="where to write the journal")
    host.add_argument(
        "--grace",
        type=seconds,
        default=30.0,
        help="seconds before a bot plays for an absent player (default 30)",
    )
    host.add_argument(
        "--bot-delay", type=seconds, default=0.0, help="seconds each bot waits before it plays"
    )
    host.add_argument(
        "--turn-clock",
        type=turn_clock,
        default=0.0,
        metavar="SECONDS",
        help="time for each decision; then a bot plays it (default: no clock)",
    )
    host.add_argument(
        "--ssh",
        nargs="?",
        type=port_number,
        const=DEFAULT_SSH_PORT,
        metavar="PORT",
        help=f"open an SSH door: friends join with nothing but ssh "
        f"(port {DEFAULT_SSH_PORT} if not given; 0 = any free)",
    )
    host.add_argument(
        "--ssh-keys",
        type=Path,
        metavar="FILE",
        help="let only these keys through the SSH door (an OpenSSH authorized_keys file)",
    )
    host.add_argument(
        "--discovery-port",
        type=port_number,
        help=f"UDP port to answer LAN queries on (default {DISCOVERY_PORT}; 0 = off)",
    )

    join = sub.add_parser("join", help="join a table (opens its lobby)")
    join.add_argument("address", help="host[:port], e.g. 192.0.2.7 or [::1]:47474")
    join.add_argument("--name", help="your name at the table (default: from your settings)")
    _password_options(join, "the table's password, if it has one")
    join.add_argument("--spectate", action="store_true", help="watch instead of playing")
    join.add_argument(
        "--guest",
        action="store_true",
        help=argparse.SUPPRESS,  # how the SSH door starts a guest's app: this table only, nothing saved
    )

    bot = sub.add_parser("bot", help="join a table as a bot player, without a screen")
    bot.add_argument("address", help="host[:port], e.g. 192.0.2.7 or [::1]:47474")
    bot.add_argument(
        "--level", default="heuristic", help="random, heuristic, search, search:N or search:Xs"
    )
    bot.add_argument(
        "--name",
        help="the bot's name at the table (default: Bot, or Bot 2, Bot 3... when another bot "
        "of yours is at the table as Bot already)",
    )
    _password_options(bot, "the table's password, if it has one")
    bot.add_argument("--delay", type=seconds, default=0.0, help="seconds to wait before each move")
    bot.add_argument("--log", type=Path, help="append every message received (decrypted) here")

    find = sub.add_parser("discover", help="list the tables open on the LAN")
    find.add_argument(
        "--timeout",
        type=some_seconds,
        default=1.5,
        help="seconds to wait for answers (default 1.5)",
    )
    find.add_argument(
        "--target", help="where the query goes (default: NETCARDS_DISCOVERY_TARGET or broadcast)"
    )
    find.add_argument(
        "--port", type=host_port, help=f"UDP port of the hosts (default {DISCOVERY_PORT})"
    )
    find.add_argument("--json", action="store_true", help="print the tables found as one JSON list")

    replay = sub.add_parser("replay", help="watch a saved game again")
    replay.add_argument("file", type=Path, help="a .replay.json file (saved from the results)")

    deck = sub.add_parser("deck", help="print a game's house deck file, to start your own from")
    # Those that take a deck option have a house deck; asked without reading the deck files,
    # which every command would pay for as the parser is built.
    decks = sorted(
        g for g, game in all_games().items() if any(s.kind == "deck" for s in game.option_specs)
    )
    deck.add_argument("game", help=f"one of: {', '.join(decks)} (the games with a deck file)")
    return parser


def _password_options(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--password", help=f"{what} ({PASSWORD_HELP})")
    parser.add_argument(
        "--ask-password",
        action="store_true",
        help="ask for the password on the terminal (or read its first line from standard "
        f"input when that is not a terminal); without either option, {PASSWORD_VARIABLE} is used "
        "if it is set",
    )


def resolve_password(args: argparse.Namespace, stdin: IO[str] | None = None) -> str | None:
    """The password from --password, else the prompt of --ask-password, else the environment."""
    if args.password is not None and args.ask_password:
        raise UsageError("give --password or --ask-password, not both")
    if args.password is not None:
        return str(args.password)
    if args.ask_password:
        stream = stdin or sys.stdin
        if stream.isatty():
            import getpass

            return getpass.getpass("Table password: ")
        line = stream.readline()
        if not line:
            raise UsageError("--ask-password: no password on standard input")
        return line.rstrip("\r\n")
    return os.environ.get(PASSWORD_VARIABLE) or None


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
    from netcards.bots.registry import make_bot
    from netcards.simulate import simulate

    game = get_game(args.game)
    config = table_config(game, args.players, args.option, args.deck)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    levels = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not levels:
        raise UsageError("--bots needs at least one bot level")
    for level in levels:
        try:
            make_bot(level, game, config, 0, b"check")
        except BadConfig as exc:
            raise UsageError(str(exc)) from exc
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
    from ui.i18n import from_locale

    game = get_game(args.game)
    text = rules_text(game.id, args.lang or from_locale())
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


def _app(args: argparse.Namespace, **start: Any) -> int:
    from ui.app import NetcardsApp, make_app
    from ui.i18n import from_locale, use
    from ui.user_settings import UserSettings

    settings = UserSettings.load()
    use(args.lang or settings.language or from_locale())
    name = getattr(args, "name", None)
    if args.command == "join" and name:
        settings.name = clean_name(name)
    ascii_mode = True if args.ascii else None
    app: NetcardsApp
    if getattr(args, "guest", False):
        from ui.guest_app import make_guest_app, quiet_tracebacks

        quiet_tracebacks(sys.stderr)
        app = make_guest_app(settings, start["join"], ascii_mode)
    else:
        app = make_app(settings=settings, ascii_mode=ascii_mode, **start)
    # The window's own size: exported COLUMNS and LINES (a shell's, a test runner's) would
    # override it, and a table laid out for 80x24 in a smaller window is cut to pieces.
    for variable in ("COLUMNS", "LINES"):
        os.environ.pop(variable, None)
    app.run()
    return app.return_code or 0


def _ssh_door_options(args: argparse.Namespace) -> Any:
    """The SSH door's port and allowed keys, checked before anything opens (None: no door)."""
    if args.ssh is None:
        if args.ssh_keys is not None:
            raise UsageError("--ssh-keys needs --ssh (the door it guards)")
        return None
    if args.ssh_keys is None:
        return None
    from ui.ssh_door import DoorError, read_authorized_keys

    try:
        return read_authorized_keys(args.ssh_keys)
    except DoorError as exc:
        raise UsageError(str(exc)) from None


def _check_sealed(args: argparse.Namespace, game_id: str) -> None:
    """--sealed for a title without a sealed engine is refused in one line, before anything opens
    (a turn clock is welcome: each seat's own program plays its stand-in's move)."""
    if args.sealed:
        from netcards.sealed_game import sealed_engine

        try:
            sealed_engine(game_id)
        except BadConfig as exc:
            raise UsageError(str(exc)) from None


def _host(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    from ui import headless

    ssh_keys = _ssh_door_options(args)
    if not args.headless:
        if args.resume is not None:
            raise UsageError("--resume works with --headless only")
        if args.owner is not None:
            raise UsageError("--owner works with --headless only (the app's host owns its table)")
        if args.game is None:
            raise UsageError("host needs --game")
        from ui.session import TablePlan

        game = get_game(args.game)
        config = table_config(game, args.players, args.option, args.deck)
        _check_sealed(args, game.id)
        table_plan = TablePlan(
            game.id, config.players, dict(config.options),
            bots=args.bots, bot_level=args.bot_level, stand_in_level=args.stand_in,
            name=args.name or "", password=resolve_password(args),
            bind=args.bind, port=DEFAULT_PORT if args.port is None else args.port,
            discovery=args.discovery_port != 0, discovery_port=args.discovery_port,
            grace=args.grace, turn_clock=args.turn_clock,
            ssh_port=args.ssh, ssh_keys=args.ssh_keys, sealed=args.sealed,
        )  # fmt: skip
        if not 0 <= args.bots < config.players:
            raise UsageError(
                f"--bots must be between 0 and {config.players - 1} (one seat is yours)"
            )
        return _app(args, host=table_plan)
    if args.resume is not None:
        table, port = headless.load_resumed_table(args.resume)
        journal = args.resume
    else:
        if args.game is None:
            raise UsageError("host needs --game (or --resume JOURNAL)")
        game = get_game(args.game)
        config = table_config(game, args.players, args.option, args.deck)
        name = args.name or (f"{args.owner}'s table" if args.owner else "netcards table")
        _check_sealed(args, game.id)
        table = Table(game, config, clean_name(name), os.urandom(32), sealed=args.sealed)
        if not 0 <= args.bots <= config.players:
            raise UsageError(f"--bots must be between 0 and {config.players}")
        for seat in range(config.players - args.bots, config.players):
            table.add_bot(args.bot_level, seat)
        table.set_stand_in_level(args.stand_in)
        port, journal = None, args.journal or new_journal_path(game.id)
    if args.port is not None:
        port = args.port
    if port is None:
        port = DEFAULT_PORT
    if not 0 <= port <= 65535:  # (one from a journal: --port is checked as it is read)
        raise UsageError("--port must be between 0 and 65535")
    plan = headless.HostPlan(
        table, args.bind, port, resolve_password(args), journal, args.resume is not None, args.grace,
        args.discovery_port, args.bot_delay, args.turn_clock,
        clean_name(args.owner) if args.owner is not None else None, args.ssh, ssh_keys,
        journal_named=args.resume is None and args.journal is None,
    )  # fmt: skip
    return headless.main_loop(headless.run_host(plan, out, err))


def _bot(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    from netcards.bots.registry import check_level
    from protocol.address import parse_address
    from ui import headless

    parse_address(args.address)
    try:
        check_level(args.level)
    except BadConfig as exc:
        raise UsageError(str(exc)) from exc
    return headless.main_loop(
        headless.run_bot(
            args.address,
            args.level,
            args.name or "Bot",
            resolve_password(args),
            out,
            err,
            args.log,
            args.delay,
            numbered=args.name is None,
        )
    )


def _join(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    from protocol.address import parse_address
    from ui.app import JoinPlan

    parse_address(args.address)
    return _app(args, join=JoinPlan(args.address, resolve_password(args), args.spectate))


def _replay(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    from ui.replay import load_replay

    return _app(args, replay=load_replay(args.file))


def _discover(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    from ui import headless

    return headless.main_loop(
        headless.run_discover(args.target, args.port, args.timeout, args.json, out)
    )


def run(argv: Sequence[str], out: IO[str], err: IO[str]) -> int:
    parser = _build_parser()
    try:
        args = parser.parse_args(list(argv))
        if args.command is None:
            return _app(args)
        if args.command in ("host", "bot", "discover", "join", "replay"):
            network = {
                "host": _host,
                "bot": _bot,
                "discover": _discover,
                "join": _join,
                "replay": _replay,
            }[args.command]
            return network(args, out, err)
        handler = {"simulate": _simulate, "rules": _rules, "deck": _deck}[args.command]
        return handler(args, out)
    except (UsageError, GameError, AddressError, JournalError, OSError) as exc:
        message = str(exc).replace("\n", " ")
        prefix = "" if message.startswith("netcards") else "netcards: error: "
        err.write(f"{prefix}{message}\n")
        return EXIT_USAGE


def main() -> None:
    sys.exit(run(sys.argv[1:], sys.stdout, sys.stderr))
