"""The end-of-game audit: every seat reveals its secrets and anyone recomputes every step.

Every mask-and-shuffle and re-key step was proved when it was made (`shuffle_proof`,
`rekey_proof`), so a deck that reached the table is a true one. The audit is the second,
independent check, and what lets every program know every card once the game is over (the
replay, the claims): each seat publishes its secrets of every round (mask, permutation,
re-key scalars), and the audit replays the round from its starting list, judging each step
against its author's own secrets and the list it was given, in the order the steps were made.
The first step that does not follow names its seat:

- bad_secrets / withheld: the revealed secrets are not a mask, a permutation and one scalar
  per position, or the seat revealed none;
- wrong_key: the revealed mask is not the one its mask step's key A = a·G committed to;
- substituted: an output element is no element of the input under the seat's revealed scalars
  (a card swapped, or a mask other than the one revealed);
- duplicated: an output position carries another position's card;
- wrong_mask / wrong_rekey: the right elements in an order or under scalars other than the
  revealed ones;
- wrong_commitment: a commitment that is not commit(y_ij) of the revealed y_ij;
- wrong_scalar: a scalar published at an opening that is not the revealed y_ij;
- false_claim: a seat said it held, or played, a card its position does not hold.

Because each step is checked against the list its author was given (as published, and
signed), one seat's cheating is never blamed on the seats after it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from protocol.sealed.deck import SealedRound
from protocol.sealed.errors import Finding
from protocol.sealed.group import commit, commit_many, inverse, mul, mul_each, mul_many, product
from protocol.sealed.shuffle import SeatSecrets, mask_and_shuffle, rekey_scalars


def _mismatch(
    seat: int,
    pass_name: str,
    given: Sequence[bytes],
    published: Sequence[bytes],
    unmasked: Sequence[bytes],
    in_place: bool,
) -> Finding:
    """Why `published` is not the step its author's secrets make from `given`. `unmasked` is
    `published` with the author's revealed scalars taken off again; `in_place` when each
    position should come back to the same position of `given` (the re-key pass)."""
    inputs = set(given)
    for j, x in enumerate(unmasked):
        if x not in inputs:
            return Finding(seat, "substituted", f"{pass_name} position {j} is no input element")
    if len(set(unmasked)) != len(unmasked):
        return Finding(seat, "duplicated", f"{pass_name}: a card at two positions")
    if in_place:
        for j, (x, y) in enumerate(zip(unmasked, given, strict=True)):
            if x != y:
                return Finding(seat, "duplicated", f"{pass_name} position {j} holds another's card")
    kind = "wrong_rekey" if in_place else "wrong_mask"
    return Finding(seat, kind, f"{pass_name}: not the order its revealed permutation makes")


def audit(round_: SealedRound, secrets: Mapping[int, SeatSecrets | None]) -> Finding | None:
    """The first seat whose published steps of this round do not follow from its secrets."""
    for seat in round_.seats:
        mine = secrets.get(seat)
        if mine is None:
            return Finding(seat, "withheld", "revealed no secrets")
        problems = mine.problems(round_.size)
        if problems:
            return Finding(seat, "bad_secrets", "; ".join(problems))
    given: Sequence[bytes] = round_.start
    for seat, published in zip(round_.seats, round_.masked, strict=False):
        s = secrets[seat]
        assert s is not None
        if round_.keys.get(seat) != commit(s.mask):
            return Finding(seat, "wrong_key", "its revealed mask is not the one its key commits to")
        if tuple(mask_and_shuffle(given, s.mask, s.permutation)) != published:
            unmasked = mul_many(published, inverse(s.mask))
            return _mismatch(seat, "mask", given, published, unmasked, in_place=False)
        given = published
    for seat, published in zip(round_.seats, round_.rekeyed, strict=False):
        s = secrets[seat]
        assert s is not None
        if tuple(commit_many(s.rekeys)) != round_.commitments[seat]:
            return Finding(seat, "wrong_commitment", "a commitment is not its revealed scalar's")
        scalars = rekey_scalars(s.mask, s.rekeys)
        if tuple(mul_each(given, scalars)) != published:
            unmasked = mul_each(published, [inverse(k) for k in scalars])
            return _mismatch(seat, "rekey", given, published, unmasked, in_place=True)
        given = published
    for seat in round_.seats:
        s = secrets[seat]
        assert s is not None
        for position, y in sorted(round_.scalars.get(seat, {}).items()):
            if y != s.rekeys[position]:
                return Finding(seat, "wrong_scalar", f"position {position}: not its revealed y")
    return None


def final_cards(round_: SealedRound, secrets: Mapping[int, SeatSecrets]) -> list[int | None]:
    """Every position's card, unmasked with everyone's secrets (None: no card of the round)."""
    start = set(round_.start)
    out: list[int | None] = []
    for position, x in enumerate(round_.rekeyed[-1]):
        element = mul(x, inverse(product(secrets[s].rekeys[position] for s in round_.seats)))
        out.append(round_.book.card(element) if element in start else None)
    return out


def check_claims(
    round_: SealedRound,
    secrets: Mapping[int, SeatSecrets],
    claims: Mapping[int, tuple[int, int]],
) -> Finding | None:
    """`claims` maps a position to (seat, card): the card that seat said the position held
    (its hand, a card it played). The first claim the audited deck contradicts names its seat;
    so does a card claimed at two positions."""
    cards = final_cards(round_, secrets)
    seen: dict[int, int] = {}
    for position, (seat, card) in sorted(claims.items()):
        if cards[position] != card:
            return Finding(seat, "false_claim", f"position {position} does not hold card {card}")
        if seen.setdefault(card, position) != position:
            return Finding(seat, "duplicated", f"card {card} claimed at two positions")
    return None
