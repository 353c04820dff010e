"""What a table client does with each message from the host: the seat, the lobby, the view and
the log, chat, notices, the deal it witnesses and the audit it checks at the end."""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Callable
from typing import Any

from netcards.errors import GameError
from netcards.fairdeal import Verdict, combine, verify_game
from netcards.game import Game, Outcome, TableConfig
from netcards.registry import get_game
from netcards.shown import ShownGame
from protocol.client_notices import (
    ChatLine,
    ClockChanged,
    DealChecked,
    Fatal,
    GameOver,
    GameStarted,
    HostRefused,
    JoinAgain,
    LobbyChanged,
    Notice,
    SeatTaken,
    TableClosed,
    TokenRefused,
    ViewChanged,
)
from protocol.client_sealed import SealedClient
from protocol.deal_witness import DealTampered, DealWitness
from protocol.disk_worker import shared
from protocol.errors import STREAM_ERRORS, ErrorCode
from protocol.limits import CHAT_MEMORY
from protocol.messages import (
    Audit,
    Chat,
    Clock,
    Commit,
    Contribute,
    Error,
    History,
    Leave,
    Lobby,
    Message,
    Pledge,
    Pledges,
    Result,
    Sealed,
    Seated,
    Snapshot,
    Start,
    TableNotice,
    Update,
)
from protocol.own_moves import OwnMoves

AUDIT_CHECK_PAUSE = 0.05
"""Seconds between a game's results and the check of its audit (see `_on_message`)."""


class HostMessages(SealedClient):
    """The reading half of `TableClient` (`protocol/client.py`), whose fields these are."""

    trace: Any
    seat: int | None
    owner: bool
    token: bytes | None
    lobby: Lobby | None
    log: list[dict[str, Any]]
    steps: list[tuple[int, tuple[dict[str, Any], ...]]]
    view: dict[str, Any] | None
    to_act: tuple[int, ...]
    seq: int
    awaiting: bool
    chat: list[ChatLine]
    host_closed: bool
    last_game: bool
    turn_clock_ms: int
    clock: dict[int, float]
    deal: DealWitness
    keep_deal: Callable[[DealWitness], None] | None
    moves: OwnMoves
    keep_moves: Callable[[OwnMoves], None] | None
    shown: ShownGame
    outcome: Outcome | None
    verdict: Verdict | None
    standings: Outcome | None
    game: Game[Any] | None
    config: TableConfig | None
    names: tuple[str, ...]
    cards: list[dict[str, Any]]
    random_bytes: Any
    _acted_at: int | None
    _answer_due: bool
    _claimed: tuple[int, int] | None
    _linked: bool
    _shown_before: Counter[ChatLine] | None
    _heard_taken_back: set[tuple[object, int]]
    _leaving: bool
    _contributions: dict[int, bytes]
    _audit: list[tuple[int, dict[str, Any]]]
    _audit_part: bytes | None
    _audit_seed: bytes | None
    _done: asyncio.Event
    _told_sealed: bool | None
    """What the lobby said of `sealed` once we were seated: the table is held to it."""
    fingerprint: str
    pin_name: str

    def _notify(self, notice: Notice) -> None:
        raise NotImplementedError  # protocol/client.py

    def _notify_table(self, code: str, **args: Any) -> None:
        raise NotImplementedError  # protocol/client.py

    async def _send(self, message: Message) -> None:
        raise NotImplementedError  # protocol/client.py

    # -- messages from the host ------------------------------------------------------------------------

    async def _on_message(self, message: Message) -> None:
        if self.trace is not None:
            self.trace(message)
        if isinstance(message, Seated):
            self.seat, self.owner = message.seat, message.owner
            if message.token is not None:
                self.token = message.token
            if not self._linked:  # a `seated` later on this link is the lobby renumbering seats
                self._linked = True
                self.deal.on_link(resumed=message.resumed)
            self._notify(SeatTaken(message.seat, message.owner, message.resumed))
        elif isinstance(message, Lobby):
            await self._hold_to_sealed(message.sealed, "lobby")
            self.lobby = message
            self._notify(LobbyChanged(message))
        elif isinstance(message, Commit | Pledges | Start):
            if not isinstance(message, Pledges):  # before any pledge or part of ours goes out
                await self._hold_to_sealed(message.sealed, message.TYPE)
            try:
                await self._witness(message)
            except DealTampered as exc:
                await self._refuse_deal(str(exc))
        elif (
            isinstance(message, Snapshot | Update | History)
            and self.seat is not None
            and self._sealed_said()
        ):
            # Our view and log at a sealed table are our own engine's, never the host's word.
            await self._hold_to_sealed(False, message.TYPE)
        elif isinstance(message, History):
            if message.offset == 0:
                self.log, self.steps = [], []
            for step in message.steps:
                if step.actor == self.seat:
                    self.moves.seen(step.seq)
                self.steps.append((step.seq, step.events))
                self.log.extend(step.events)
                self.shown.on_events(step.seq, step.events, history=True)
        elif isinstance(message, Snapshot):
            self.view, self.to_act, self.seq = message.view, message.to_act, message.seq
            self.shown.on_view(message.seq, message.view, message.to_act, snapshot=True)
            self.awaiting = self._answer_due = False
            self._notify(ViewChanged(()))
        elif isinstance(message, Update):
            self.view, self.to_act, self.seq = message.view, message.to_act, message.seq
            if message.actor == self.seat:
                self._our_seat_moved(message.seq)
                self.awaiting = False
            self.steps.append((message.seq, message.events))
            self.log.extend(message.events)
            self.shown.on_events(message.seq, message.events, history=False)
            self.shown.on_view(message.seq, message.view, message.to_act, snapshot=False)
            self._notify(ViewChanged(message.events))
        elif isinstance(message, Sealed):
            await self._on_sealed(message)
        elif isinstance(message, Chat):
            line = ChatLine(message.seat, message.name, message.text)
            if message.earlier and self._shown_already(line):
                return
            self.chat.append(line)
            self._notify(line)
        elif isinstance(message, TableNotice) and message.code == "taken_back":
            self._taken_back(message.args.get("seq"), message.args.get("run"))
        elif isinstance(message, TableNotice) and message.code == "sealed_history":
            self._sealed_history(message.args)
        elif isinstance(message, TableNotice) and message.code == "awaited":
            self._sealed_awaited_said(message.args)
        elif isinstance(message, TableNotice) and message.code == "closed":
            self.host_closed = True
        elif isinstance(message, TableNotice) and message.code == "last_game":
            self.last_game = True
        elif isinstance(message, TableNotice):
            self._notify_table(message.code, **message.args)
            if message.code == "clock_own" and message.args.get("seat") == self.seat:
                await self._sealed_time_up(message.args.get("level"))
        elif isinstance(message, Clock):
            now = asyncio.get_running_loop().time()
            self.turn_clock_ms = message.per_turn_ms
            self.clock = {e.seat: now + e.ms / 1000 for e in message.left}
            self._notify(ClockChanged())
        elif isinstance(message, Error) and message.code == "bad_token" and self.token:
            # The deal notes stay: they are of the table, not of the seat. A host that saw our
            # part and now forgets our seat is making the deal again (`DealWitness.on_link`).
            self.token = None
            self._notify(TokenRefused(message.text))
            raise JoinAgain()
        elif isinstance(message, Error):
            if message.detail.get("seq", self._acted_at) == self._acted_at:
                # Our latest move was refused (a refusal naming an older one leaves it waiting).
                # The host sent every update before its refusal, so the view is the fresh one.
                self.awaiting = self._answer_due = False
            self._disclaim(message)
            self._notify(
                HostRefused(message.code, message.text, message.fatal, dict(message.detail))
            )
            if message.fatal and message.code in STREAM_ERRORS:  # damaged on the way: again
                raise ConnectionError(f"the host dropped us: {message.text} [{message.code}]")
            if message.fatal:
                over = message.code == ErrorCode.TABLE_FULL and message.detail.get("over") is True
                raise Fatal(
                    f"the host refused: {message.text}", "table_over" if over else message.code
                )
        elif isinstance(message, Result):
            try:
                self.outcome = Outcome.from_data(message.outcome)
            except (KeyError, TypeError, ValueError):
                raise Fatal("the host sent a malformed result") from None
            if self.sealed is not None:
                await self._sealed_result(self.outcome)
            self.shown.on_result(message.outcome)
            self._notify(GameOver(self.outcome))
            # The audit follows: a replay of the whole game that nobody waits for. A pause first,
            # so that the last update is shown everywhere before that work (by the other clients
            # of this program, and by a slow screen) and is not held up by it.
            await asyncio.sleep(AUDIT_CHECK_PAUSE)
            if self.seat is None and self.sealed_table:  # no audit follows: nothing to check
                self._sealed_watched()
        elif isinstance(message, Audit) and self._sealed_said():
            await self._classic_audit_at_sealed_table()
        elif isinstance(message, Audit):
            self._on_audit(message)
        elif isinstance(message, Leave):
            if self.host_closed and self.sealed_table and self.game and self.verdict is None:
                self._sealed_closed()  # before its audit: no classic audit comes instead
            if self.host_closed:
                self._closed_by_host()
                return
            raise ConnectionError(f"the host left: {message.reason or 'no reason given'}")

    def _our_seat_moved(self, seq: int) -> None:
        """An update of our seat's move: ours if it is the first since our action was sent,
        otherwise a bot's (the stand-in, or the turn clock's)."""
        if not self._answer_due or self._acted_at is None:
            self.moves.not_made(seq)
            return
        self._answer_due = False
        self._claimed = (self._acted_at, seq)
        self.moves.made(seq)
        self._keep_moves()

    def _disclaim(self, error: Error) -> None:
        """Our action was refused as stale after an update of our seat we took for its answer:
        the turn clock's bot had played that decision first."""
        claimed = self._claimed
        if claimed is None or error.code != ErrorCode.STALE_SEQ:
            return
        if error.detail.get("seq") == claimed[0]:
            self._claimed = None
            self.moves.not_made(claimed[1])
            self._keep_moves()

    def _keep_moves(self) -> None:
        if self.keep_moves is not None:
            with contextlib.suppress(OSError):  # a full disk costs only the words of a restart
                self.keep_moves(self.moves)

    def _shown_already(self, line: ChatLine) -> bool:
        """Whether an `earlier` line is one we showed before our link dropped. The host sends
        its last lines to every connection that joins; only those said while we were away are
        news. Counted, so that a line said twice is shown twice."""
        if self._shown_before is None:
            self._shown_before = Counter(self.chat[-CHAT_MEMORY:])
        if self._shown_before[line] > 0:
            self._shown_before[line] -= 1
            return True
        return False

    def _taken_back(self, first: object, run: object) -> None:
        """The host came back from a crash without action `first` and those after it: if we
        saw them, our user hears that they are taken back (they will be decided again)."""
        if type(first) is not int or first < 1:
            return
        # Heeded once per run of the host: it tells everyone who comes back for as long as it
        # runs, and a later return may find us past `first` by actions played since; a later
        # restart that loses the same number again is news again.
        heard = (run if type(run) is int else None, first)
        if heard in self._heard_taken_back:
            return
        self._heard_taken_back.add(heard)
        self.moves.taken_back(first)
        if self.seq >= first:
            self.shown.taken_back(first)
            self._notify_table("taken_back", count=self.seq - first + 1)

    async def _witness(self, message: Commit | Pledges | Start) -> None:
        """The deal being made: pledge, reveal, then hold the host to what we saw."""
        if isinstance(message, Commit):
            mine = self.deal.on_commit(
                message.commitment, message.seats, self.seat, self.random_bytes
            )
            self._keep_deal()
            if mine is not None:
                await shared().settled()  # the notes on the disk first
                await self._send(Pledge(mine))
        elif isinstance(message, Pledges):
            part = self.deal.on_pledges({p.seat: p.commitment for p in message.pledges}, self.seat)
            self._keep_deal()  # on disk before the host can know our part
            if part is not None:
                await shared().settled()  # the notes on the disk first
                await self._send(Contribute(part))
        else:
            parts = {c.seat: c.part for c in message.contributions}
            if len(parts) != len(message.contributions):
                raise DealTampered("the host published two seed parts for one seat")
            self.deal.on_start(message.commitment, parts)
            self._keep_deal()
            self._on_start(message)
            if message.sealed:
                await self._sealed_start(message)

    def _sealed_said(self) -> bool:
        """Whether the table said it is sealed (its lobby once we sat, or the latest lobby)."""
        if self._told_sealed is not None:
            return self._told_sealed
        return self.lobby is not None and self.lobby.sealed

    async def _hold_to_sealed(self, sealed: bool, said_in: str) -> None:
        """A table that said it is sealed must deal sealed, and one that said it is not must
        not, from the first lobby we read once seated to the end (docs/security.md, "Sealed
        tables"). A host that announces a sealed table and deals as a trusted dealer would see
        every hand, ours too: we leave before sending anything of its deal."""
        if said_in == "lobby":
            if not self._linked:
                return  # not seated yet: nothing was said to us as a player
            if self._told_sealed is None:
                self._told_sealed = sealed
                return
        elif self._told_sealed is None and self.lobby is None:
            return  # told nothing: the message's own word stands
        said = self._sealed_said()
        if sealed == said:
            return
        if said_in == "lobby":
            what = (
                "the table said sealed, then that it is not"
                if said
                else "the table said it is not sealed, then that it is"
            )
        elif said:
            what = (
                f"the table said sealed but deals as a trusted dealer (its {said_in} is not sealed)"
            )
            if said_in in ("snapshot", "update"):
                what = "the table said sealed but deals as a trusted dealer (it sent our hand)"
        else:
            what = f"the table said it is not sealed but deals sealed (its {said_in} is sealed)"
        await self._refuse_sealing(f"the host {self.pin_name} ({self.fingerprint}) lies: {what}")

    async def _refuse_sealing(self, reason: str) -> None:
        """Leave before taking part in a deal the table did not announce, and say why."""
        self.verdict = Verdict([reason])
        self._notify(DealChecked(self.verdict))
        self._leaving = True
        with contextlib.suppress(Exception):
            await self._send(Leave("the deal is not the one announced: " + reason[:160]))
        raise Fatal(f"deal NOT verified: {reason}", "sealed_lie")

    def _keep_deal(self) -> None:
        """Have the notes saved (`keep_deal`); what must not go out before they are on the disk
        awaits the program's disk thread first
        (`protocol.disk_worker.shared().settled()`, which does not block the loop)."""
        if self.keep_deal is not None:
            with contextlib.suppress(OSError):  # a full disk costs only the memory of a restart
                self.keep_deal(self.deal)

    async def _refuse_deal(self, reason: str) -> None:
        """Leave before playing a card of a deal the host may have chosen, and say why."""
        self.verdict = Verdict([reason])
        self._notify(DealChecked(self.verdict))
        self._leaving = True
        with contextlib.suppress(Exception):
            await self._send(Leave("the deal is not fair: " + reason[:170]))
        raise Fatal(f"deal NOT verified: {reason}")

    def _on_start(self, start: Start) -> None:
        try:
            game = get_game(start.game)
            config = game.make_config(start.players, dict(start.options))
        except GameError as exc:
            raise Fatal(f"the host's table cannot be played here: {exc}") from None
        if start.rules_version != game.rules_version:
            raise Fatal(
                f"the host plays {game.name} rules {start.rules_version}, this netcards has "
                f"{game.rules_version}: both need the same release"
            )
        self.game, self.config, self.names = game, config, start.names
        self.cards = [dict(c) for c in start.cards]
        facts = {
            "game": start.game,
            "rules_version": start.rules_version,
            "players": start.players,
            "options": start.options,
            "seat": start.seat,
            "commitment": start.commitment,
            "parts": {c.seat: c.part for c in start.contributions},
        }
        self.shown.on_start(facts, start.cards)
        self.seat = start.seat
        self.moves.for_game(start.commitment)
        self._contributions = {c.seat: c.part for c in start.contributions}
        self._notify(GameStarted(config, start.seat, start.names))

    def _on_audit(self, audit: Audit) -> None:
        if audit.offset == 0:
            self._audit = []
        if audit.offset != len(self._audit):
            raise Fatal("the host's audit arrived out of order")
        self._audit.extend((e.seat, e.action) for e in audit.actions)
        self._audit_part = audit.host_part
        self._audit_seed = audit.seed
        if len(self._audit) < audit.total:
            return
        game, config, deal = self.game, self.config, self.deal
        if game is None or config is None or deal.host_commitment is None:
            raise Fatal("the host sent an audit before the game started")
        self.verdict = verify_game(
            game,
            config,
            seat=self.seat,
            commit=deal.host_commitment,
            host_part=audit.host_part,
            contributions=self._contributions,
            my_contribution=deal.contribution,
            actions=self._audit,
            received=self.steps,
            pledges=deal.pledges if deal.saw_the_deal else None,
            claimed_seed=audit.seed,
            finished=not self.host_closed,
            shown=self.shown,
        )
        self.verdict.problems.extend(deal.problems(self.seat))
        self.verdict.caveats.extend(deal.caveats())
        if self.host_closed:
            self.standings = self._standings_so_far(game, config, audit.host_part)
            self._closed_by_host()
            return
        self._notify(DealChecked(self.verdict))
        self._done.set()

    def _standings_so_far(
        self, game: Game[Any], config: TableConfig, host_part: bytes
    ) -> Outcome | None:
        """The results of a game the host stopped, from the actions it revealed."""
        try:
            state = game.setup(config, combine(host_part, self._contributions))
            for seat, data in self._audit:
                game.apply(state, seat, game.decode_action(data))
            return game.outcome(state) or game.standings(state)
        except (GameError, ValueError, NotImplementedError):
            return None

    def _closed_by_host(self) -> None:
        if not self._done.is_set():
            self._notify(TableClosed(self.standings, self.verdict))
            self._done.set()
