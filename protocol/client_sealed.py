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
"""

from __future__ import annotations

import contextlib
import os
from typing import Any

from netcards.action import Action as GameAction
from netcards.errors import GameError
from netcards.fairdeal import NOT_CHECKED, Verdict
from netcards.game import Outcome
from netcards.registry import get_game
from netcards.sealed_cards import HiddenCardNeeded
from netcards.sealed_game import public_seed, sealed_engine
from protocol.client_notices import DealChecked, Fatal, Notice, TableSays, ViewChanged
from protocol.errors import RemoteProtocolError
from protocol.messages import Message, Sealed, Start
from protocol.sealed.errors import Caught, DeckTampered, Finding
from protocol.sealed.messages import SealActed, decode, encode
from protocol.sealed_play.audit import describe
from protocol.sealed_play.progress import HOST
from protocol.sealed_play.seat import SealedSeat

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

    def _notify(self, notice: Notice) -> None:
        raise NotImplementedError  # protocol/client.py

    async def _send(self, message: Message) -> None:
        raise NotImplementedError  # protocol/client.py

    def _sealed_finished(self) -> None:
        raise NotImplementedError  # protocol/client.py

    async def _sealed_start(self, start: Start) -> None:
        """A sealed game starts: this seat's engine and driver, and its signing key to the host."""
        if start.seat is None:
            return
        engine = sealed_engine(start.game)
        config = engine_config(start)
        seed = public_seed(start.commitment, {c.seat: c.part for c in start.contributions})
        self.sealed = SealedSeat(engine, config, seed, start.seat, self.random_bytes or os.urandom)
        self.sealed_verdict = None
        await self._send(Sealed(encode(self.sealed.hello())))

    async def _on_sealed(self, message: Sealed) -> None:
        seat = self.sealed
        if seat is None:
            return
        try:
            msg = decode(message.message)
            replies = seat.receive(msg)
        except RemoteProtocolError as exc:
            await self._caught(f"the host: malformed ({exc.text})")
            return
        except Caught as exc:
            await self._caught(describe(exc.finding))
            return
        except DeckTampered as exc:
            await self._caught(f"deal NOT verified: the deck was tampered with ({exc})")
            return
        for reply in replies:
            await self._send(Sealed(encode(reply)))
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
        ready = state.ledger.ready() and engine.outcome(state) is None and not state.over
        with contextlib.suppress(HiddenCardNeeded):  # a card drawn last, not opened: kept as was
            self.view = seat.view()
        self.to_act = tuple(sorted(engine.to_act(state))) if ready else ()
        if isinstance(msg, SealActed):
            self.seq = msg.seq
            if msg.seat == self.seat:
                self.awaiting = False
        self._notify(ViewChanged(()))
        if seat.verdict is not None and self.sealed_verdict is None:
            self.sealed_verdict = seat.verdict
            problems = [] if seat.finding is None else [seat.verdict.removeprefix(NOT_VERIFIED)]
            self.verdict = Verdict(problems)
            self._notify(DealChecked(self.verdict))  # the results came first, in `result`
            self._sealed_finished()

    async def _sealed_act(self, action: GameAction | dict[str, Any], game: Any) -> None:
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
            for msg in seat.act(chosen):
                await self._send(Sealed(encode(msg)))
        except Exception:
            self.awaiting = False
            raise

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
        self._not_checked(self._unpublished())

    def _not_checked(self, why: list[str]) -> Verdict:
        self.verdict = verdict = Verdict(unchecked=why)
        self.sealed_verdict = verdict.headline
        return verdict

    def _unpublished(self) -> list[str]:
        """Whose secrets are missing, as far as this program can tell: the seats the host said
        left (or were away, or waited for) and never came back, which had not published."""
        published = set(self.sealed.secrets) if self.sealed is not None else set()
        away: set[int] = set()
        for said in self.notices:
            who = said.args.get("seat")
            if type(who) is not int:
                continue
            if said.code in ("left", "away", "waiting"):
                away.add(who)
            elif said.code == "back":
                away.discard(who)
        why = []
        for who in sorted(away - published - {self.seat}):
            name = self.names[who] if 0 <= who < len(self.names) else "?"
            why.append(f"seat {who + 1} ({name}) left before publishing its secrets")
        return why or ["the game ended before every seat published its secrets"]


def engine_config(start: Start) -> Any:
    return get_game(start.game).make_config(start.players, dict(start.options))


__all__ = ["HOST", "NOT_CHECKED", "SealedClient"]
