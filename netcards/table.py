"""The table: seats, names, bots, the game, its history and its journal records; no sockets.

The host's network code is an adapter around this object: it turns messages into calls here and
the returned events into per-seat messages. Everything a table does is decided here, so it is
tested with plain calls, and a crashed host is rebuilt from its journal by replaying the same
calls.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal, TypeVar

from netcards.action import Action
from netcards.bots.registry import make_bot
from netcards.errors import FutureMove, GameError, NotYourTurn, StaleMove
from netcards.event import Event
from netcards.fairdeal import PART_BYTES, combine, commitment
from netcards.game import Game, Outcome, TableConfig
from netcards.registry import get_game
from netcards.sealed_game import public_seed, sealed_engine

SeatKind = Literal["open", "human", "bot"]
Phase = Literal["lobby", "playing", "over"]
JOURNAL_FORMAT = 1
T = TypeVar("T")
MAX_NAME = 24


DEFAULT_BOT_NAME = re.compile(r"Bot \d+( \(\d+\))?")
"""The names a bot gets from its seat ("Bot 3", or "Bot 3 (2)" beside a player of that name)."""


class LobbyError(GameError):
    """A lobby request that cannot be granted (table full, unknown token, game started...)."""


@dataclass
class Seat:
    index: int
    kind: SeatKind = "open"
    name: str = ""
    bot_level: str | None = None
    token: str | None = None
    ready: bool = False
    connected: bool = False
    stand_in: bool = False
    contribution: bytes | None = None

    def public(self) -> dict[str, Any]:
        """What everyone at the table may know about this seat (never its token)."""
        return {
            "seat": self.index,
            "kind": self.kind,
            "name": self.name,
            "bot_level": self.bot_level,
            "ready": self.ready or self.kind == "bot",
            "connected": self.connected or self.kind == "bot",
            "stand_in": self.stand_in,
        }


def clean_name(name: str) -> str:
    """Names are shown in every player's terminal: printable, one line, short."""
    text = "".join(ch for ch in name if ch.isprintable()).strip()
    if not text:
        raise LobbyError("a name must have at least one visible character")
    return text[:MAX_NAME]


@dataclass
class Table:
    game: Game[Any]
    config: TableConfig
    name: str
    host_part: bytes
    stand_in_level: str = "heuristic"
    seats: list[Seat] = field(default_factory=list)
    sealed: bool = False
    """Nobody, the host included, may see a card they may not (docs/sealed.md); only for a
    title with a sealed engine (`netcards/sealed_game.py`)."""
    phase: Phase = "lobby"
    state: Any = None
    seed: bytes = b""
    actions: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    steps: list[list[Event]] = field(default_factory=list)
    """The events of each action, in order: step n (from 1) is what update n told the table."""
    asked_at: dict[int, int] = field(default_factory=dict)
    """Seat -> the update (number of actions so far) that asked it its current decision."""

    def __post_init__(self) -> None:
        if len(self.host_part) != PART_BYTES:
            raise ValueError("the host's seed part is 32 bytes")
        if not self.seats:
            self.seats = [Seat(i) for i in range(self.config.players)]
        if self.sealed:
            sealed_engine(self.game.id)  # BadConfig for a title that cannot be played sealed

    @classmethod
    def create(
        cls,
        game_id: str,
        players: int,
        options: Mapping[str, Any],
        *,
        name: str,
        host_part: bytes,
        stand_in_level: str = "heuristic",
        sealed: bool = False,
    ) -> Table:
        game = get_game(game_id)
        config = game.make_config(players, options)
        return cls(game, config, clean_name(name), host_part, stand_in_level, sealed=sealed)

    # -- lobby ------------------------------------------------------------------------------------

    @property
    def commit(self) -> bytes:
        return commitment(self.host_part)

    def _lobby_only(self) -> None:
        if self.phase != "lobby":
            raise LobbyError("the game has already started")

    def _seat(self, index: int) -> Seat:
        if not 0 <= index < len(self.seats):
            raise LobbyError(f"there is no seat {index + 1}")
        return self.seats[index]

    def free_seats(self) -> int:
        return sum(1 for s in self.seats if s.kind == "open")

    def claim_seat(self, name: str, token: str, seat: int | None = None) -> Seat:
        """Seat a new human in `seat` or the first open seat; `token` lets them rejoin later."""
        self._lobby_only()
        candidates = [self._seat(seat)] if seat is not None else self.seats
        for s in candidates:
            if s.kind == "open":
                s.kind, s.name, s.token = "human", self._unique(clean_name(name)), token
                s.connected, s.ready = True, False
                return s
        raise LobbyError("that seat is taken" if seat is not None else "the table is full")

    def _unique(self, name: str) -> str:
        """`name`, or `name (2)`, `(3)`... when a seat already has it (in any case): two players
        both called Bob could not tell from the table, the log or the results who is who."""
        taken = {s.name.casefold() for s in self.seats if s.kind != "open"}
        found, n = name, 1
        while found.casefold() in taken:
            n += 1
            suffix = f" ({n})"
            found = name[: MAX_NAME - len(suffix)].rstrip() + suffix
        return found

    def seat_of_token(self, token: str) -> Seat:
        for s in self.seats:
            if s.kind == "human" and s.token is not None and _same(s.token, token):
                return s
        raise LobbyError("unknown resume token")

    def rejoin(self, token: str) -> Seat:
        """A player who dropped comes back to their seat; any stand-in bot steps aside."""
        s = self.seat_of_token(token)
        s.connected, s.stand_in = True, False
        return s

    def disconnect(self, index: int) -> None:
        s = self._seat(index)
        s.connected = False
        if self.phase == "lobby" and s.kind == "human":
            self.seats[index] = Seat(index)

    def set_stand_in(self, index: int, on: bool) -> None:
        s = self._seat(index)
        if s.kind == "human":
            s.stand_in = on

    def set_stand_in_level(self, level: str) -> None:
        """The bot that plays a dropped player's seat until they are back (after the grace)."""
        make_bot(level, self.game, self.config, 0, b"check")  # refuses an unknown level now
        self.stand_in_level = level

    def add_bot(self, level: str, seat: int | None = None, name: str | None = None) -> Seat:
        self._lobby_only()
        make_bot(level, self.game, self.config, 0, b"check")  # refuses an unknown level now
        candidates = [self._seat(seat)] if seat is not None else self.seats
        for s in candidates:
            if s.kind == "open":
                # "Bot 3" reads alike in every language; how hard it plays is the lobby's to say.
                s.name = self._unique(clean_name(name or f"Bot {s.index + 1}"))
                s.kind, s.bot_level, s.ready = "bot", level, True
                return s
        raise LobbyError("that seat is taken" if seat is not None else "the table is full")

    def remove_bot(self, index: int) -> None:
        self._lobby_only()
        if self._seat(index).kind != "bot":
            raise LobbyError(f"seat {index + 1} is not a bot")
        self.seats[index] = Seat(index)

    def set_ready(self, index: int, ready: bool) -> None:
        self._lobby_only()
        self._seat(index).ready = ready

    def contribute(self, index: int, part: bytes) -> None:
        """A player's random part of the seed; only before the deal, once."""
        self._lobby_only()
        s = self._seat(index)
        if len(part) != PART_BYTES:
            raise LobbyError("a seed contribution is 32 bytes")
        s.contribution = part

    def use_contributions(self, parts: Mapping[int, bytes]) -> None:
        """The seed parts of the deal about to start: exactly these seats', nobody else's."""
        self._lobby_only()
        for s in self.seats:
            s.contribution = None
        for index, part in parts.items():
            self.contribute(index, part)

    def reconfigure(self, game_id: str, players: int, options: Mapping[str, Any]) -> None:
        """Change the game, the player count or the options in the lobby, and nobody is ready
        any more. With as many seats as before everyone keeps their seat. With another count
        the players take the first seats and the bots the last ones, as a table opened with
        them has them (the host form says so); bots beyond the new count leave."""
        self._lobby_only()
        game = get_game(game_id)
        config = game.make_config(players, options)
        if self.sealed:
            sealed_engine(game.id)  # a sealed table stays sealed: only to a title that can be
        humans = [s for s in self.seats if s.kind == "human"]
        if len(humans) > players:
            raise LobbyError(f"{len(humans)} players are seated; {players} seats are too few")
        bots = [s for s in self.seats if s.kind == "bot"][: players - len(humans)]
        if players == len(self.seats):
            seats = list(self.seats)
        else:
            seats = [Seat(i) for i in range(players)]
            places = [*range(len(humans)), *range(players - len(bots), players)]
            for i, old in zip(places, humans + bots, strict=True):
                old.index = i
                seats[i] = old
        for s in seats:
            s.ready = s.kind == "bot"
        self.game, self.config, self.seats = game, config, seats
        # A bot named after its seat ("Bot 3") that moved is named after its new one: the
        # digit that chooses a player in the game is the seat's, and must name that bot.
        moved = [s for s in bots if DEFAULT_BOT_NAME.fullmatch(s.name)]
        for s in moved:
            s.name = ""
        for s in moved:
            s.name = self._unique(f"Bot {s.index + 1}")

    def start_problem(self) -> str | None:
        """Why the game cannot start yet, or None."""
        if self.phase != "lobby":
            return "the game has already started"
        open_seats = [s.index for s in self.seats if s.kind == "open"]
        if open_seats:
            return f"{len(open_seats)} seat(s) still open: add bots or wait for players"
        waiting = [s.name for s in self.seats if s.kind == "human" and not s.ready]
        if waiting:
            return f"waiting for {', '.join(waiting)} to be ready"
        return None

    def start(self) -> list[Event]:
        problem = self.start_problem()
        if problem is not None:
            raise LobbyError(problem)
        if self.sealed:
            # No deal here: the seats seal the cards among themselves, and the state holds
            # slots, never a card nobody has shown (docs/sealed.md).
            self.seed = public_seed(self.commit, self.contributions())
            self.state = sealed_engine(self.game.id).setup(self.config, self.seed)
        else:
            self.seed = combine(self.host_part, self.contributions())
            self.state = self.game.setup(self.config, self.seed)
        self.phase = "playing"
        self._track_decisions(None, frozenset())
        return []

    def contributions(self) -> dict[int, bytes]:
        return {s.index: s.contribution for s in self.seats if s.contribution is not None}

    # -- play ---------------------------------------------------------------------------------------

    def _playing(self) -> None:
        if self.phase == "lobby":
            raise LobbyError("the game has not started")

    def to_act(self) -> frozenset[int]:
        self._playing()
        return self.game.to_act(self.state)

    def submit(self, seat: int, data: Mapping[str, Any], seen: int | None = None) -> list[Event]:
        """Apply a seat's action (as data from the wire); GameError says why it was refused.

        `seen` is the update the move answers (a player's; the host's own bots give None): a
        move is taken only against the decision its seat saw, never applied to a later one."""
        self._playing()
        if self.phase == "over":
            raise LobbyError("the game is over")
        if seen is not None:
            self._check_seen(seat, seen)
        action = self.game.decode_action(data)
        return self._apply(seat, action)

    def decision_asked_at(self, seat: int) -> int | None:
        """The update that asked `seat` its current decision; None when it is not asked."""
        return self.asked_at.get(seat)

    def _check_seen(self, seat: int, seen: int) -> None:
        latest = len(self.actions)
        if seen > latest:
            raise FutureMove(f"there is no update {seen} yet: the latest is update {latest}")
        asked = self.asked_at.get(seat)
        if asked is None and seen < latest:
            raise StaleMove(
                f"your move answers update {seen}, but the table is at update {latest} and "
                "does not ask you to act now"
            )
        if asked is not None and seen < asked:
            raise StaleMove(
                f"your move answers update {seen}, but your current decision was asked at "
                f"update {asked}: the table moved on, so the move was not applied"
            )

    def _track_decisions(self, actor: int | None, before: frozenset[int]) -> None:
        """A seat still asked keeps the update of its decision, unless it just acted; a seat
        newly asked (or asked again after its own move) has a new decision at this update."""
        now = self.game.to_act(self.state)
        latest = len(self.actions)
        self.asked_at = {
            s: self.asked_at[s] if s in before and s != actor and s in self.asked_at else latest
            for s in now
        }

    def _apply(self, seat: int, action: Action) -> list[Event]:
        before = self.game.to_act(self.state)
        events = self.game.apply(self.state, seat, action)
        self.actions.append((seat, self.game.encode_action(action)))
        self.steps.append(events)
        if self.game.outcome(self.state) is not None:
            self.phase = "over"
        self._track_decisions(seat, before)
        return events

    def bot_seats_to_act(self) -> list[int]:
        """Seats asked to act now that a bot plays (bot seats, and stand-ins for absent players)."""
        if self.phase != "playing":
            return []
        return [
            s
            for s in sorted(self.to_act())
            if self.seats[s].kind == "bot" or self.seats[s].stand_in
        ]

    def bot_move(self, seat: int, level: str | None = None) -> Callable[[], dict[str, Any]]:
        """The thinking of the bot playing `seat` now, as a function of copies only (the seat's
        view and legal actions), so a host can run it in a worker thread while the table goes on.
        Seeded by the game and the turn, so a resumed host's bots play as they would have.
        `level` overrides the seat's own (a host falls back to `random` when a bot fails).

        NotYourTurn unless `seat` is asked to act now: a bot is never asked to choose from no
        legal action at all."""
        self._playing()
        if self.phase != "playing" or seat not in self.to_act():
            raise NotYourTurn(f"seat {seat + 1} is not asked to act now")
        legal = self.game.legal_actions(self.state, seat)
        if not legal:
            raise NotYourTurn(f"seat {seat + 1} has no legal action now")
        s = self.seats[seat]
        if level is None:
            level = s.bot_level if s.kind == "bot" and s.bot_level else self.stand_in_level
        material = self.seed + seat.to_bytes(2, "big") + len(self.actions).to_bytes(4, "big")
        bot = make_bot(level, self.game, self.config, seat, hashlib.sha256(material).digest())
        view = self.view(seat)
        history = self.history(seat) if bot.wants_history else []
        game = self.game

        def think() -> dict[str, Any]:
            return game.encode_action(bot.choose(view, legal, history))

        return think

    def bot_action(self, seat: int) -> dict[str, Any]:
        """The move a bot makes for `seat` now, as action data."""
        return self.bot_move(seat)()

    # -- what each seat may know -------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        self._playing()
        if seat is None:
            return self.game.public_view(self.state)
        return self.game.view(self.state, seat)

    def legal(self, seat: int) -> list[dict[str, Any]]:
        self._playing()
        return [self.game.encode_action(a) for a in self.game.legal_actions(self.state, seat)]

    def history(self, seat: int | None) -> list[dict[str, Any]]:
        """Every event so far as `seat` saw it, in one list (a bot's memory of the game)."""
        return [e.for_seat(seat) for events in self.steps for e in events]

    def history_steps(self, seat: int | None) -> list[tuple[int, int, list[dict[str, Any]]]]:
        """(update number, actor, events as `seat` saw them) for every action so far: what a
        rejoining player is sent again, numbered so it matches the end-of-game audit."""
        return [
            (n, actor, [e.for_seat(seat) for e in events])
            for n, ((actor, _), events) in enumerate(zip(self.actions, self.steps, strict=True), 1)
        ]

    def outcome(self) -> Outcome | None:
        return None if self.state is None else self.game.outcome(self.state)

    def lobby(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "game": self.game.id,
            "config": self.config.to_data(),
            "phase": self.phase,
            "seats": [s.public() for s in self.seats],
            "commit": self.commit.hex(),
        }

    def audit(self) -> dict[str, Any]:
        """Revealed only when the game is over: what every client needs to verify the deal."""
        if self.phase != "over":
            raise LobbyError("the deal is revealed only when the game is over")
        return {
            "host_part": self.host_part.hex(),
            "contributions": {str(k): v.hex() for k, v in self.contributions().items()},
            "actions": [[seat, data] for seat, data in self.actions],
        }

    # -- journal ---------------------------------------------------------------------------------------

    def journal_start(self) -> dict[str, Any]:
        """The journal's first record, written when the game starts; holds secrets (host part,
        tokens), so the journal file is private to the host."""
        return {
            "type": "start",
            "format": JOURNAL_FORMAT,
            "game": self.game.id,
            "rules_version": self.game.rules_version,
            "config": self.config.to_data(),
            "name": self.name,
            "host_part": self.host_part.hex(),
            "stand_in_level": self.stand_in_level,
            "sealed": self.sealed,
            "seats": [
                {
                    **s.public(),
                    "token": s.token,
                    "contribution": s.contribution.hex() if s.contribution else None,
                }
                for s in self.seats
            ],
        }

    def journal_action(self) -> dict[str, Any]:
        seat, data = self.actions[-1]
        return {"type": "action", "n": len(self.actions), "seat": seat, "action": data}

    @classmethod
    def from_journal(cls, records: Sequence[Mapping[str, Any]]) -> Table:
        """Rebuild a table at the point its journal reached; every player starts disconnected.
        Records of other types (the host's own notes) are skipped. A record that is valid JSON
        but not one this release wrote is a LobbyError naming the record, never a crash."""
        starts = [i for i, r in enumerate(records) if r.get("type") == "start"]
        if not starts:
            raise LobbyError("the journal has no start record: the game never began")
        first = starts[0]
        table = _record(first + 1, lambda: cls._from_start(records[first]))
        for number, record in enumerate(records[first + 1 :], first + 2):
            if record.get("type") != "action":
                continue
            if record.get("n") != len(table.actions) + 1:
                raise LobbyError(f"journal action {record.get('n')} is out of order")
            _record(number, partial(table._replay, record))
        return table

    @classmethod
    def _from_start(cls, head: Mapping[str, Any]) -> Table:
        if head.get("format") != JOURNAL_FORMAT:
            raise LobbyError(f"unsupported journal format {head.get('format')!r}")
        game = get_game(str(head["game"]))
        if head.get("rules_version") != game.rules_version:
            raise LobbyError(
                f"the journal was written for rules {head.get('rules_version')}, "
                f"this netcards has {game.rules_version}"
            )
        config = TableConfig.from_data(head["config"])
        table = cls(
            game,
            config,
            head["name"],
            bytes.fromhex(head["host_part"]),
            head["stand_in_level"],
            sealed=head.get("sealed", False) is True,
        )
        for s, data in zip(table.seats, head["seats"], strict=True):
            s.kind, s.name, s.bot_level = data["kind"], data["name"], data["bot_level"]
            s.token, s.ready = data["token"], True
            s.contribution = bytes.fromhex(data["contribution"]) if data["contribution"] else None
        table.start()
        return table

    def _replay(self, record: Mapping[str, Any]) -> None:
        seat, data = record["seat"], record["action"]
        if type(seat) is not int or not isinstance(data, dict):
            raise TypeError("an action record needs an integer seat and an action map")
        self.submit(seat, data)


def _record(number: int, step: Callable[[], T]) -> T:
    """Run one journal record's `step`; any failure becomes one line naming the record."""
    try:
        return step()
    except GameError as exc:
        raise LobbyError(f"journal record {number}: {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        detail = f"{type(exc).__name__}: {exc}".replace("\n", " ")[:200]
        raise LobbyError(
            f"the journal is damaged: record {number} is malformed ({detail})"
        ) from None


def _same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())
