"""A private transfer that failed, proved to everyone (docs/sealed.md, section 7, `wrong_pass`).

Only the receiver of a `pass` can open it (`protocol.sealed.transfer`): if the keeper sealed a
scalar that fails its commitment, the receiver alone sees it, and its word alone would let any
seat end a game by calling an honest pass wrong. So the receiver publishes its secret b of the
`pass_key` those positions answered, and every program judges the pass itself: commit(b) must
be the `pass_key`'s B; each sealed scalar is opened with x(b·E) and checked against the keeper's
commitment. A scalar that fails names the keeper (`wrong_scalar`); a b that is not the pass
key's, or a pass whose every scalar opens its commitment, names the receiver (`false_alarm`).
Publishing b shows the cards of that pass to everyone, which no longer matters: the game stops.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from protocol.sealed.errors import Finding
from protocol.sealed.group import N, commit
from protocol.sealed.transfer import open_scalar

Sealed = tuple[int, bytes, bytes]
"""A position passed, as the `pass` step carried it: (its keeper, the pass's E, the sealed
scalar)."""


def judge(
    claimer: int,
    round_no: int,
    positions: Sequence[int],
    secret: int,
    keys: Mapping[int, bytes],
    sealed: Mapping[int, Sealed],
    commitments: Mapping[int, Sequence[bytes]],
) -> Finding:
    """Who is at fault for the pass of `positions` to `claimer`, given its published `secret`:
    `keys` and `sealed` are the `pass_key` elements and the passed scalars of the positions
    passed to it, by position; `commitments` every seat's re-key commitments of the round."""
    if not positions or len(set(positions)) != len(positions):
        return Finding(claimer, "false_alarm", "a wrong pass of no position or of one twice")
    for p in positions:
        key, passed = keys.get(p), sealed.get(p)
        if key is None or passed is None:
            return Finding(claimer, "false_alarm", f"position {p} was never passed to it")
        if not 1 <= secret < N or commit(secret) != key:
            return Finding(claimer, "false_alarm", f"its secret does not open its key of {p}")
        keeper, their_key, scalar = passed
        y = open_scalar(scalar, their_key, secret, round_no, p)
        if not 1 <= y < N or commit(y) != commitments[keeper][p]:
            return Finding(
                keeper,
                "wrong_scalar",
                f"passed position {p} to seat {claimer + 1}: fails its "
                "commitment (proved by the receiver's key)",
            )
    return Finding(claimer, "false_alarm", "every scalar it was passed opens its commitment")
