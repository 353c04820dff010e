"""The end-of-game audit of a sealed table: every round replayed, then every move, knowing all.

Every program runs it once every seat has published its secrets of every round and the digest
of the steps it was shown (a `secrets` step). The first thing that does not hold names its
author: a digest unlike this program's names the host (it showed the seats different steps); a
round's step its author's secrets do not make names that seat (`protocol.sealed.audit`); a card
a seat played or revealed that its slot does not hold names that seat; a result other than the
one the replay gives names the host. Every public random draw is recomputed from the
commitments and nonces the seats published (one that does not open names its seat) and the
replay takes with it what the draw took (a turtle's steal).

A game stopped by a `broken` step is judged as the alarm found it (docs/sealed.md, section 3):
the host relays nothing after the first one but the alarms and the secrets, so every program
holds what was relayed before it, and only what was complete then is judged. A round not yet
sealed, a draw not every seat opened, an opening, a reveal, a private transfer or a choice under
way counts against nobody: the replay ends at the first round or draw the game asks for that
was not done.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from netcards.errors import GameError
from netcards.game import TableConfig
from netcards.sealed_cards import SLOT_BASE, Knowledge
from netcards.sealed_game import SealedGame, public_chances
from protocol.sealed.audit import audit, final_cards
from protocol.sealed.deck import SealedRound
from protocol.sealed.draws import Draws, replay_draws
from protocol.sealed.errors import Finding
from protocol.sealed.shuffle import SeatSecrets
from protocol.sealed_play import choices
from protocol.sealed_play.progress import HOST


def describe(finding: Finding | None) -> str:
    """The verdict a player reads."""
    if finding is None:
        return "deal verified"
    who = "the host" if finding.seat == HOST else f"seat {finding.seat + 1}"
    return f"deal NOT verified: {who}: {finding.kind} ({finding.detail})"


def audit_game(
    engine: SealedGame,
    config: TableConfig,
    public_seed: bytes,
    rounds: Mapping[int, SealedRound],
    secrets: Mapping[int, Sequence[SeatSecrets]],
    digests: Mapping[int, bytes],
    own_digest: bytes,
    actions: Sequence[tuple[int, Mapping[str, Any]]],
    outcome: Mapping[str, Any] | None,
    draws: Draws | None = None,
    openings: Sequence[choices.Opened] = (),
    claims: Collection[int] = (),
    earlier: Collection[bytes] = (),
) -> Finding | None:
    """`draws`: the public random draws made (a title with draws); `openings`: the choice
    openings relayed, in order (a title with simultaneous choices), replayed between the moves
    when the engine asks for them; `claims`: the seats that said the deck was tampered with
    (`broken`), which stopped the game before its end: each seat published its digest when it
    stopped, so a digest need only be one this program's chain had (`earlier`: every one it
    had). If every round and move checks out, the deck was whole: the first of the seats that
    said so (by seat) raised a false alarm and is named."""
    values: list[bytes] = []
    if draws is not None:
        values, caught = replay_draws(draws.seats, draws.commitments, draws.nonces)
        if caught is not None:
            return caught.finding
    for seat, digest in sorted(digests.items()):
        if digest != own_digest and not (claims and digest in earlier):
            return Finding(HOST, "equivocated", f"seat {seat + 1} was shown other steps")
    truth = Knowledge()
    sealed = {number for number, r in rounds.items() if r.phase == "sealed"}
    for number in sorted(sealed):
        # A round the game stopped in before its every step was made (a `broken` step) is not
        # judged: each of its steps was proved when it was made, and it opened nothing.
        r = rounds[number]
        mine = {
            s: (secrets[s][number] if number < len(secrets.get(s, ())) else None) for s in r.seats
        }
        finding = audit(r, mine)
        if finding is not None:
            return finding
        cards = final_cards(r, {s: x for s, x in mine.items() if x is not None})
        truth.cards.update(
            (slot_base(engine, number, rounds) + p, c) for p, c in enumerate(cards) if c is not None
        )
    finding = _replay(
        engine,
        config,
        public_seed,
        truth,
        sealed,
        actions,
        outcome,
        values,
        list(openings),
        bool(claims),
    )
    if claims and finding is None:
        return Finding(
            min(claims), "false_alarm", "said the deck was tampered with; every step was sound"
        )
    return finding


def slot_base(engine: SealedGame, number: int, rounds: Mapping[int, SealedRound]) -> int:
    """The first slot of round `number`: the rounds' slots follow one another."""
    return SLOT_BASE + sum(rounds[k].size for k in range(number))


def _replay(
    engine: SealedGame,
    config: TableConfig,
    public_seed: bytes,
    truth: Knowledge,
    sealed: Collection[int],
    actions: Sequence[tuple[int, Mapping[str, Any]]],
    outcome: Mapping[str, Any] | None,
    values: Sequence[bytes],
    openings: list[choices.Opened],
    stopped: bool,
) -> Finding | None:
    """`sealed`: the rounds whose every step was made; `stopped`: the game stopped before its
    end (a broken deck), so it has no results, and the replay ends where the game stopped: at
    the first round or draw the engine asks for that was not done (nobody's fault then). A
    move after such a step was taken while it was under way, which only the host could do."""
    state = engine.setup(config, public_seed)
    made = iter(values)

    def settle() -> Finding | str | None:
        """Every step the engine asks for between two moves, until none is left: a reveal or
        an opening can lead to more (Auf Achse: the next odometer card, a new stage). A str
        says which step was not done, where the replay stops."""
        while True:
            progressed = False
            for request in engine.seal_requests(state):
                if request.index not in sealed:
                    return f"round {request.index} was sealed"
                engine.sealed(state, request.index)
                progressed = True
            by_seat: dict[int, list[int]] = {}
            for seat, slot in engine.to_open(state):
                by_seat.setdefault(seat, []).append(slot)
            for seat, slots in by_seat.items():
                engine.opened(state, seat, slots)
                progressed = True
            chances = public_chances(engine)
            if chances is not None:
                for slot in chances.to_show(state):
                    chances.show(state, slot, truth.resolve(slot), truth)
                    progressed = True
            for seat, slots in sorted(engine.to_reveal(state).items()):
                try:
                    engine.reveal_hand(state, seat, {s: truth.resolve(s) for s in slots}, truth)
                except GameError as exc:
                    return Finding(seat, "false_claim", str(exc))
                progressed = True
            left = len(openings)
            wrong = choices.replay(engine, state, truth, openings)
            if wrong is not None:
                return Finding(wrong[0], "wrong_opening", wrong[1])
            if chances is not None and chances.draw_requests(state):
                value = next(made, None)
                if value is None:
                    return "its draw was made"
                chances.drawn(state, value, truth)  # the steal recomputed from the draw's value
                progressed = True
            if not progressed and len(openings) == left:
                return None

    waiting = settle()
    for n, (seat, data) in enumerate(actions, 1):
        if isinstance(waiting, str):
            return Finding(HOST, "wrong_result", f"move {n} was taken before {waiting}")
        if waiting is not None:
            return waiting
        try:
            engine.apply(state, seat, engine.codec.decode(dict(data)), truth)
        except GameError as exc:
            return Finding(seat, "false_claim", f"move {n}: {exc}")
        waiting = settle()
    if isinstance(waiting, Finding):
        return waiting
    replayed = engine.outcome(state)
    if stopped and replayed is None:
        return None
    if isinstance(waiting, str):
        return Finding(HOST, "wrong_result", f"the game was scored before {waiting}")
    if replayed is None or (outcome is not None and replayed.to_data() != dict(outcome)):
        return Finding(HOST, "wrong_result", "the results are not what the moves make")
    return None
