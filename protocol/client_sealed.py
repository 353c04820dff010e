"""A player's side of a sealed table (docs/sealed.md, section 7, "A sealed game").

The host never knows this seat's cards, so it cannot send this seat its view: the client runs
its own engine instance beside its own `SeatDriver` (`protocol/sealed_play/seat.py`), learns
its cards from the openings and works out its view and whose turn it is itself. `view`,
`to_act` and `legal_actions` read as at any table (the view is the classic view of the seat), so
the screen and `netcards bot` play a sealed table unchanged; a move goes out as the engine's
sealed action after the step that shows its card. At the end the client audits the game and
its verdict reads `deal verified` or `deal NOT verified: ...`, naming a seat or the host.

A game that ends before every seat published its secrets (its host closed the table while it
waited for a player who dropped) cannot be audited: the verdict says `deal not checked: ` and
why, naming the seats that left first, never `deal verified`. A spectator is fed the public view
as at any table (`update`, `snapshot`) and holds no seat's secrets nor any sealing step, so its
verdict says the deal was not checked by it: the players' programs check it.

All of the seat's randomness comes from one seed per game (`protocol/sealed/seed_stream.py`),
written to `seed_file` before the signing key is sent. A player who comes back (a dropped link,
a restarted program) is sent its seat's whole sealed history: the client rebuilds its seat from
the seed and replays it, and only then plays. Without the seed it cannot take the seat back,
and says so. What the host told the seat is kept beside the seed (`SealedSeedFile.told`), one
line per message taken, and a restarted program reads it back before it replays the history:
a history that goes otherwise than the game did names the host (`protocol/sealed_play/told.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Mapping
from typing import Any

from netcards.action import Action as GameAction
from netcards.errors import GameError
from netcards.fairdeal import NOT_CHECKED, Verdict
from netcards.game import Outcome
from netcards.registry import get_game
from netcards.replay import Replay
from netcards.sealed_cards import HiddenCardNeeded, seat_event
from netcards.sealed_game import public_seed, sealed_engine
from protocol.client_notices import DealChecked, Fatal, Notice, TableSays, ViewChanged
from protocol.errors import RemoteProtocolError
from protocol.messages import EndGame, Message, Sealed, Start
from protocol.sealed.errors import Caught, DeckTampered, Finding
from protocol.sealed.messages import SealAct, SealActed, decode, encode
from protocol.sealed.seed_stream import SEED_BYTES, SeedStream
from protocol.sealed_play.audit import describe
from protocol.sealed_play.awaited import (
    Awaited,
    Unchecked,
    from_data,
    reasons_in_words,
    why_unchecked,
)
from protocol.sealed_play.progress import HOST
from protocol.sealed_play.replay import sealed_replay
from protocol.sealed_play.seat import SealedSeat
from protocol.sealed_play.stand_in import stand_in_move
from protocol.seat_tokens import SealedSeedFile

NOT_VERIFIED = "deal NOT verified: "
"""How a verdict that names a cheat begins (`Verdict.problems` hold what follows it, as a screen
or `netcards bot` print them after these words)."""

SPECTATOR_UNCHECKED = (
    "a spectator holds no seat's secrets and sees none of the sealing steps: "
    "each player's program checks the deal"
)


class SealedClient:
    """The sealed part of `TableClient` (a mixin: it reads and sets the client's fields)."""

    sealed: SealedSeat | None = None
    sealed_verdict: str | None = None
    """`deal verified`, or `deal NOT verified: ...` naming whom, once the audit ran."""
    awaited: tuple[Awaited, ...] = ()
    """Whom the sealed game waits for now, and for what (`protocol/sealed_play/awaited.py`):
    a player's program works it out from its own seat's state, a spectator's takes the host's
    word (its `awaited` notice). Empty while nothing but a move is awaited."""
    unchecked_why: tuple[Unchecked, ...] = ()
    """Why a game closed halfway was not checked (a screen words these reasons in its player's
    language where the verdict says exactly their English words)."""
    _sealed_back = False
    """The host said we are back at a sealed game under way (`sealed_history`)."""
    _sealed_catching_up = 0
    """Messages of our seat's history still to replay: we do not play before they are in."""
    _seed_note: dict[str, Any] | None = None
    """The seed of our seat in the game being played, and which game (as `seed_file` keeps it)."""
    _sealed_logged = 0
    """How many of our engine's events are in `log` (the game's log is our own engine's)."""
    stand_in_moves = 0
    """How many of our moves our stand-in made when our time ran out (`_sealed_time_up`)."""
    _stand_in_number: int | None = None
    """Our seat's move number (`seal_act`'s `number`) that our stand-in made last: its
    `seal_acted` marks it the bot's."""

    # Provided by TableClient.
    seat: int | None
    view: dict[str, Any] | None
    to_act: tuple[int, ...]
    seq: int
    awaiting: bool
    verdict: Verdict | None
    outcome: Outcome | None
    lobby: Any
    random_bytes: Any
    names: tuple[str, ...]
    notices: list[TableSays]
    standings: Outcome | None
    seed_file: SealedSeedFile | None
    log: list[dict[str, Any]]
    steps: list[tuple[int, tuple[dict[str, Any], ...]]]
    moves: Any
    game: Any
    config: Any

    def _notify(self, notice: Notice) -> None:
        raise NotImplementedError  # protocol/client.py

    async def _send(self, message: Message) -> None:
        raise NotImplementedError  # protocol/client.py

    def _sealed_finished(self) -> None:
        raise NotImplementedError  # protocol/client.py

    async def _sealed_start(self, start: Start) -> None:
        """A sealed game starts (or we are back at one): this seat's engine and driver, their
        randomness from the game's seed, and its signing key to the host (the same key again,
        when back: the host ignores it). A fresh seed is on disk before the key leaves."""
        if start.seat is None:
            return
        back, self._sealed_back = self._sealed_back, False
        if not back:  # a new game: its moves are numbered afresh
            self._stand_in_number = None
            self.moves.by_bot.clear()
        seed = self._kept_seed(start)
        kept = seed is not None
        if seed is None:
            if back:
                self._sealed_catching_up = 0
                raise Fatal(
                    f"cannot take back seat {start.seat + 1} of this sealed game: its secrets "
                    "were kept on the machine that played it, and are not on this one",
                    "no_secrets",
                )
            seed = self._new_seed(start)
        engine = sealed_engine(start.game)
        config = engine_config(start)
        public = public_seed(start.commitment, {c.seat: c.part for c in start.contributions})
        previous = self.sealed
        self.sealed = SealedSeat(engine, config, public, start.seat, SeedStream(seed))
        if previous is not None and (previous.seat, previous.public_seed) == (start.seat, public):
            # Back at the game we were playing: the host is held to what it told us then.
            self.sealed.remember(previous)
        elif kept:
            self._recall_told(start)
        self.sealed_verdict = None
        self.awaited = self.sealed.awaited()  # the first round, until the host begins it
        # A seat rebuilt replays the game from its start.
        self.log, self.steps, self._sealed_logged = [], [], 0
        # Nor is a move of ours still on its way: one the host took comes back in the history
        # (its `seal_acted`), and one it never took (a host that crashed before reading it) is
        # lost, so our engine asks for it again. Waiting for its answer would wait for ever.
        self.awaiting = False
        if self.seed_file is not None:
            await self.seed_file.saved()  # a new seed is on the disk before the key leaves
        await self._send(Sealed(encode(self.sealed.hello())))

    def _sealed_history(self, args: Mapping[str, Any]) -> None:
        """The host says we are back at a sealed game, and how many of its messages follow the
        start: we replay them before we play."""
        count = args.get("count")
        self._sealed_back = True
        self._sealed_catching_up = count if type(count) is int and count > 0 else 0

    def _kept_seed(self, start: Start) -> bytes | None:
        """The seed kept for this game and seat: in memory, or on disk for a restarted program."""
        mine = _seed_note(start)
        kept = self._seed_note
        if kept is None and self.seed_file is not None:
            with contextlib.suppress(OSError):
                kept = self.seed_file.load()
        if kept is None or any(kept.get(k) != v for k, v in mine.items()):
            return None
        try:
            seed = bytes.fromhex(str(kept.get("seed")))
        except ValueError:
            return None
        return seed if len(seed) == SEED_BYTES else None

    def _new_seed(self, start: Start) -> bytes:
        seed = (self.random_bytes or os.urandom)(SEED_BYTES)
        self._seed_note = {**_seed_note(start), "seed": seed.hex()}
        if self.seed_file is not None:
            # Without it a dropped player cannot come back; the game itself goes on.
            with contextlib.suppress(OSError):
                self.seed_file.save(self._seed_note)
            with contextlib.suppress(OSError):
                self.seed_file.told.begin(_seed_note(start))
        return seed

    def _recall_told(self, start: Start) -> None:
        """A program started again at the game its kept seed is for: what the host told the seat
        before, so that the history it sends now is held to it (none kept: kept from now on)."""
        seat = self.sealed
        if self.seed_file is None or seat is None:
            return
        with contextlib.suppress(OSError):
            places = self.seed_file.told.load(_seed_note(start))
            if places is None:
                self.seed_file.told.begin(_seed_note(start))
            else:
                seat.told.places.update(places)

    def _keep_told(self, seat: SealedSeat) -> None:
        lines = seat.told.fresh_lines()
        if self.seed_file is not None:
            with contextlib.suppress(OSError):
                self.seed_file.told.append(lines)

    def _forget_seed(self) -> None:
        self._seed_note = None
        if self.seed_file is not None:
            with contextlib.suppress(OSError):
                self.seed_file.forget()

    async def _on_sealed(self, message: Sealed) -> None:
        seat = self.sealed
        if seat is None:
            return
        try:
            msg = decode(message.message)
            replies = seat.receive(msg)
            self._keep_told(seat)  # on the disk before anything is answered
        except RemoteProtocolError as exc:
            await self._caught(f"the host: malformed ({exc.text})")
            return
        except Caught as exc:
            await self._caught(describe(exc.finding))
            return
        except DeckTampered as exc:
            await self._caught(f"deal NOT verified: the deck was tampered with ({exc})")
            return
        if self._sealed_catching_up > 0:
            self._sealed_catching_up -= 1
        for reply in replies:
            await self._send(Sealed(encode(reply)))
        if seat.broken and seat.verdict is not None:
            # The deck was found tampered with and every seat's secrets are in: the audit
            # named who did it (or who said so of a whole deck). The game ends there.
            self._forget_seed()
            await self._caught(seat.verdict)
            return
        self._sealed_refresh(msg)

    async def _sealed_result(self, said: Outcome) -> None:
        """The host's results, against this seat's own engine: the results screen shows the
        game's as this program played it, and a host that says other results (or results
        before the game is over) is named, so that `deal verified` never stands beside them."""
        seat = self.sealed
        assert seat is not None
        own = seat.engine.outcome(seat.state)
        if own is None:
            await self._caught(
                describe(Finding(HOST, "false_result", "results of a game not over"))
            )
        elif own.to_data() != said.to_data():
            self.outcome = own
            detail = f"said the results {said.to_data()}, the game's are {own.to_data()}"
            await self._caught(describe(Finding(HOST, "false_result", detail)))

    async def _caught(self, verdict: str) -> None:
        if not verdict.startswith(NOT_VERIFIED):
            verdict = NOT_VERIFIED + verdict
        self.sealed_verdict = verdict
        self.verdict = Verdict([verdict.removeprefix(NOT_VERIFIED)])
        self._notify(DealChecked(self.verdict))
        raise Fatal(verdict, "cheated")

    def _sealed_refresh(self, msg: Any) -> None:
        seat = self.sealed
        assert seat is not None
        state = seat.state
        engine = seat.engine
        self.awaited = seat.awaited()
        ready = (
            state.ledger.ready()
            and engine.outcome(state) is None
            and not state.over
            and self._sealed_catching_up == 0
            and not seat.stopped
            and not self.awaited  # a step first: no move is offered meanwhile
        )
        with contextlib.suppress(HiddenCardNeeded):  # a card drawn last, not opened: kept as was
            self.view = seat.view()
        self.to_act = tuple(sorted(engine.to_act(state))) if ready else ()
        if isinstance(msg, SealActed):
            self.seq = msg.seq
            if msg.seat == self.seat:
                self.awaiting = False
                # Our move, made by our user or by our stand-in (`_sealed_time_up`): the
                # screen words the stand-in's as its own, as at an open table.
                if msg.number == self._stand_in_number:
                    self.moves.not_made(msg.seq)
        # The game's log is what our own engine saw happen, never the host's word. Cards on
        # their way to us (drawn, dealt, taken) are named once they are opened to us, a moment
        # later: until then the log waits, so that it says "You drew 20 km", not "2 cards".
        knowledge = seat.mirror.knowledge
        opening = any(to == seat.seat for to, _ in engine.to_open(state))
        upto = self._sealed_logged if opening and not seat.stopped else len(seat.mirror.events)
        events = tuple(
            seat_event(e, seat.seat, knowledge)
            for e in seat.mirror.events[self._sealed_logged : upto]
        )
        self._sealed_logged = upto
        self.log.extend(events)
        if events:  # the log in steps, each with the move it came after (`moves.by_bot`)
            self.steps.append((self.seq, events))
        self._notify(ViewChanged(events))
        if seat.verdict is not None and self.sealed_verdict is None:
            self.sealed_verdict = seat.verdict
            problems = [] if seat.finding is None else [seat.verdict.removeprefix(NOT_VERIFIED)]
            self.verdict = Verdict(problems)
            self._notify(DealChecked(self.verdict))  # the results came first, in `result`
            self._forget_seed()  # the game is checked: its secrets are published
            self._sealed_finished()

    async def _sealed_act(
        self, action: GameAction | dict[str, Any], game: Any, *, stand_in: bool = False
    ) -> None:
        """Send our move (`stand_in`: our stand-in's, `_sealed_time_up`)."""
        seat = self.sealed
        assert seat is not None
        chosen: GameAction
        if isinstance(action, dict):
            try:
                chosen = game.decode_action(action)
            except GameError:
                chosen = seat.engine.codec.decode(action)
        else:
            chosen = action
        self.awaiting = True
        try:
            out = seat.act(chosen)
            if stand_in:  # known before it leaves: its `seal_acted` may come at once
                self._stand_in_number = next(m.number for m in out if isinstance(m, SealAct))
            for msg in out:
                await self._send(Sealed(encode(msg)))
        except Exception:
            self.awaiting = False
            raise

    async def _classic_audit_at_sealed_table(self) -> None:
        """A sealed table has no classic audit: its deal is checked from every seat's secrets
        alone. A host that sends one (as it closes the table halfway, say) would have the
        trusted dealer's check pass on a game that dealt nothing the classic way, and a screen
        read `deal verified` where nothing was checked: the host is named instead."""
        detail = "sent a trusted dealer's audit at a sealed table, whose deal it cannot check"
        await self._caught(describe(Finding(HOST, "unexpected", detail)))

    def _sealed_replay(self) -> Replay | None:
        """The game's replay, once its audit found every round and move sound: every card is
        known then (`protocol/sealed_play/replay.py`). None before, or when it never will be
        (a game stopped before every seat published its secrets, a cheat named)."""
        seat, game = self.sealed, self.game
        if seat is None or seat.truth is None or game is None or self.config is None:
            return None
        return sealed_replay(
            game.id,
            self.config,
            seat.seat,
            self.names,
            seat.public_seed,
            seat.truth,
            seat.actions,
            seat.driver.draws.values,
            seat.openings,
        )

    # -- a sealed game that cannot be audited -----------------------------------------------------

    @property
    def sealed_table(self) -> bool:
        return self.lobby is not None and bool(self.lobby.sealed)

    def _sealed_watched(self) -> None:
        """A spectator of a sealed table has the results: its word on the deal, and done."""
        self._notify(DealChecked(self._not_checked([SPECTATOR_UNCHECKED])))
        self._sealed_finished()

    def _sealed_closed(self) -> None:
        """The host closed a sealed table before its audit: the results so far where the title
        scores from public cards only (Via Gladiola's need the hands: none), and why the deal
        could not be checked."""
        seat = self.sealed
        if seat is not None:
            with contextlib.suppress(GameError, HiddenCardNeeded, NotImplementedError):
                self.standings = seat.engine.standings(seat.state)
        if seat is not None and seat.driver.proved is not None:
            # This seat proved a pass to it wrong, and the host closed the table without
            # relaying the proof back: the cheat is named all the same.
            verdict = describe(seat.driver.proved)
            self.sealed_verdict = verdict
            self.verdict = Verdict([verdict.removeprefix(NOT_VERIFIED)])
            return
        self._not_checked(self._unpublished())

    def _not_checked(self, why: list[str]) -> Verdict:
        self.verdict = verdict = Verdict(unchecked=why)
        self.sealed_verdict = verdict.headline
        return verdict

    def _sealed_awaited_said(self, args: Mapping[str, Any]) -> None:
        """The host tells a spectator whom the game waits for (a player's program works it out
        itself, and takes no such word): the status line says it."""
        if self.sealed is not None:
            return
        found = from_data(args.get("steps"), len(self.names))
        if found is not None:
            self.awaited = found
            self._notify(ViewChanged(()))

    def _unpublished(self) -> list[str]:
        """Why the game was not checked, as far as this program can tell: whom the table waited
        for and for what (`awaited`: the silent seat and its step), and the seats the host said
        left (or were away, or waited for, or did not play when their time ran out) and never
        came back, which had not published."""
        published = set(self.sealed.secrets) if self.sealed is not None else set()
        away, unanswered = self._absent()
        self.unchecked_why = tuple(
            why_unchecked(self.awaited, self.seat, away, published, unanswered)
        )
        return reasons_in_words(self.unchecked_why, self.names, self.seat)

    def _absent(self) -> tuple[set[int], set[int]]:
        """The seats the host said are away (gone, or left, or waited for) and those whose
        program did not play when their time ran out, as its notices tell it until now."""
        away: set[int] = set()
        unanswered: set[int] = set()
        for said in self.notices:
            who = said.args.get("seat")
            if type(who) is not int:
                continue
            if said.code in ("left", "away", "waiting"):
                away.add(who)
            elif said.code == "unanswered":
                unanswered.add(who)
            elif said.code == "back":
                away.discard(who)
                unanswered.discard(who)
        return away, unanswered

    def absent_seats(self) -> set[int]:
        """The seats a sealed game under way waits for in vain, as the host said: while there
        are any, this player may end the game (`end_game`). Empty anywhere else."""
        if self.sealed is None or self.outcome is not None or self.verdict is not None:
            return set()
        away, unanswered = self._absent()
        return (away | unanswered) - {self.seat}

    async def end_game(self) -> None:
        """Ask the host to end the sealed game, which waits for an absent player: the table
        closes with the results so far (the host refuses while nobody is absent)."""
        await self._send(EndGame())

    async def _sealed_time_up(self, level: object) -> None:
        """Our time ran out at a sealed table: no program but ours holds our keys, so ours
        plays our stand-in's move (`protocol/sealed_play/stand_in.py`), unless our own move is
        on its way already. The bot thinks in a thread: the link stays alive meanwhile."""
        seat = self.sealed
        if seat is None or self.seat is None or self.seat not in self.to_act or self.awaiting:
            return
        view, game, config = self.view, self.game, self.config
        if view is None or game is None or config is None:
            return
        seed = self.random_bytes(32)
        action = await asyncio.to_thread(stand_in_move, game, config, self.seat, view, level, seed)
        still = self.seat in self.to_act and not self.awaiting and self.view is not None
        if action is None or not still or action not in game.legal_actions_in_view(self.view):
            return  # our user moved while it thought (theirs stands), or the game moved on
        self.stand_in_moves += 1
        with contextlib.suppress(GameError, ConnectionError):
            await self._sealed_act(action, game, stand_in=True)


def _seed_note(start: Start) -> dict[str, Any]:
    """Which game and seat a kept seed is for: a seed is never used for another game."""
    return {"game": start.game, "commitment": start.commitment.hex(), "seat": start.seat}


def engine_config(start: Start) -> Any:
    return get_game(start.game).make_config(start.players, dict(start.options))


__all__ = ["HOST", "NOT_CHECKED", "SealedClient"]
