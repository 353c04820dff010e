"""Simultaneous committed choices at a sealed table: the `choice` step that opens one.

A title with simultaneous choices (`netcards.sealed_game.SimultaneousChoices`: Auf Achse's run
cards and Free roads) takes each asked seat's choice as a move, `seal_act`, holding only its
commitment; the nonce inside it is derived from the seat's own secret seed and the step's
number (`SealedSeat._nonce`), so it is never reused and a rebuilt seat finds it again.
Once every asked seat has committed, every program's engine lists the seats that must open
(`choice_openings`): each sends a signed `choice` step (`{step, slots, nonce}`, signed as
round 0, like `secrets`: it belongs to no sealing round). The host checks it before it relays
it, every seat checks it again, and every program applies it with `reveal_choice` in the order
the host relayed them, so that their public states stay the same; each records it in its
transcript, and the audit replays the openings in that order between the moves.

Who is named. The host names the sender for an opening out of turn (before every asked seat
has committed, of another step, a second time), one that does not match its commitment
(`wrong_opening`) and one that names a slot not in its hand (`bad_choice`). A seat names the
host for each of these: the host had to refuse them before relaying.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from netcards.action import Action
from netcards.errors import GameError
from netcards.sealed_cards import Knowledge
from netcards.sealed_choices import NONCE_BYTES, ChoiceRefused, CommitmentMismatch, Opening
from netcards.sealed_game import SealedGame, SimultaneousChoices, choices_of
from protocol.sealed.errors import Caught
from protocol.sealed.group import RandomBytes
from protocol.sealed.signing import Step

CHOICE = "choice"
"""The kind of the signed step that opens a committed choice."""

Opened = tuple[int, Mapping[str, Any]]
"""An opening as every program keeps it, in the order relayed: (seat, the step's body)."""


def seal_action(
    engine: SealedGame,
    state: Any,
    seat: int,
    action: Action,
    knowledge: Knowledge,
    random_bytes: RandomBytes,
) -> Action:
    """The sealed action for `action`; a title with simultaneous choices gets a fresh nonce
    from the seat's own randomness, for the commitment the action may become."""
    choices = choices_of(engine)
    if choices is None:
        return engine.seal_action(state, seat, action, knowledge)
    return choices.seal_action(state, seat, action, knowledge, nonce=random_bytes(NONCE_BYTES))


def step_of(engine: SealedGame, state: Any) -> int | None:
    """The simultaneous choice step under way, if the title has them and one is."""
    choices = choices_of(engine)
    return None if choices is None else choices.choice_step(state)


def recall(
    engine: SealedGame, state: Any, seat: int, knowledge: Knowledge, nonce: RandomBytes
) -> None:
    """A seat rebuilt from its kept seed after it committed (a dropped link, a restarted
    program) must still open its choice, but the choice itself was kept in memory only. Its
    nonce is found again (`nonce`: derived from the seed and the step), so the choice is found
    by trying each set of as many slots of its hand as the step asked against its commitment:
    a few hundred hashes at most."""
    if _to_open_now(engine, state, seat) is None:
        return
    step = state.choices.current
    if step is None or (step.index, seat) in knowledge.openings:
        return
    digest, count = step.commitments.get(seat), step.asked.get(seat, 0)
    once = nonce(NONCE_BYTES)
    hand = [x for x in state.hands[seat] if x not in step.opened.get(seat, ())]
    for chosen in itertools.permutations(hand, count):
        opening = Opening(step.index, seat, tuple(chosen), once)
        if opening.commitment() == digest:
            knowledge.openings[(step.index, seat)] = opening
            return


def due(engine: SealedGame, state: Any, seat: int, knowledge: Knowledge) -> dict[str, Any] | None:
    """The body of `seat`'s `choice` step if it must open now and this program holds its
    opening (its own seat, or the host's bot), else None."""
    choices = _to_open_now(engine, state, seat)
    if choices is None:
        return None
    try:
        opening = choices.opening(state, seat, knowledge)
    except GameError:  # a commitment this program did not make: it has nothing to open
        return None
    return {"step": opening.step, "slots": list(opening.items), "nonce": opening.nonce}


def take(engine: SealedGame, state: Any, knowledge: Knowledge, step: Step, blame: int) -> list[Any]:
    """Check `step` (a `choice` step whose signature was checked) against this program's
    state and apply it; its events. `blame` is named for whatever is wrong with it: the sender
    at the host, the host at a seat."""
    choices = _choices(engine, blame)
    body = step.body
    current = choices.choice_step(state)
    if current is None or body["step"] != current:
        raise Caught(
            blame, "out_of_turn", f"an opening of choice step {body['step']}, not {current}"
        )
    if step.seat not in choices.choice_openings(state):
        raise Caught(
            blame,
            "out_of_turn",
            f"seat {step.seat + 1} opened its choice of step {current} before every asked seat "
            "committed, or a second time",
        )
    try:
        return choices.reveal_choice(
            state, step.seat, tuple(body["slots"]), bytes(body["nonce"]), knowledge
        )
    except CommitmentMismatch as exc:
        raise Caught(blame, "wrong_opening", str(exc)) from None
    except ChoiceRefused as exc:
        raise Caught(blame, "bad_choice", str(exc)) from None
    except GameError as exc:
        raise Caught(blame, "out_of_turn", str(exc)) from None


def replay(
    engine: SealedGame,
    state: Any,
    knowledge: Knowledge,
    queue: list[Opened],
    events: list[Any] | None = None,
) -> tuple[int, str] | None:
    """The audit's replay: the next relayed openings, as long as the engine asks for one (their
    events go to `events`). None, or (seat, what is wrong) for an opening the replay refuses."""
    choices = choices_of(engine)
    if choices is None:
        return None
    while queue and choices.choice_openings(state):
        seat, body = queue.pop(0)
        try:
            taken = take(engine, state, knowledge, _as_step(seat, body), seat)
            if events is not None:
                events += taken
        except Caught as exc:
            return seat, f"{exc.kind}: {exc.finding.detail}"
    return None


def kept(step: Step) -> Opened:
    """An accepted opening as every program keeps it (the same data whichever way it came)."""
    body = step.body
    return step.seat, {
        "step": int(body["step"]),
        "slots": [int(x) for x in body["slots"]],
        "nonce": bytes(body["nonce"]),
    }


def _to_open_now(engine: SealedGame, state: Any, seat: int) -> SimultaneousChoices | None:
    """The title's choices if `seat` must open its choice now (no step pending), else None."""
    choices = choices_of(engine)
    if choices is None or not state.ledger.ready() or seat not in choices.choice_openings(state):
        return None
    return choices


def _as_step(seat: int, body: Mapping[str, Any]) -> Step:
    return Step(b"", 0, CHOICE, seat, body)


def _choices(engine: SealedGame, blame: int) -> SimultaneousChoices:
    choices = choices_of(engine)
    if choices is None:
        raise Caught(blame, "unexpected", "a choice opening in a game without simultaneous choices")
    return choices


def pending(engine: SealedGame, state: Any) -> Sequence[int]:
    """The seats whose openings the engine waits for now."""
    choices = choices_of(engine)
    return [] if choices is None else choices.choice_openings(state)
