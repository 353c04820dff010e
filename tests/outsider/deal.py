"""The deal, from docs/protocol.md sections 7.3 and 12 alone (no engine code): the seed from
the published parts, the generator, and each game's deal."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

COMMIT_LABEL = b"netcards deal commit v1"
PLEDGE_LABEL = b"netcards deal pledge v1"
SEED_LABEL = b"netcards deal seed v1"


class Generator:
    """Keyed BLAKE2b with an 8-byte digest over a big-endian counter (section 12)."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.counter = 0

    def block(self) -> int:
        data = self.counter.to_bytes(8, "big")
        self.counter += 1
        return int.from_bytes(hashlib.blake2b(data, key=self.key, digest_size=8).digest(), "big")

    def below(self, n: int) -> int:
        limit = 2**64 - (2**64 % n)
        while True:
            x = self.block()
            if x < limit:
                return x % n

    def shuffle(self, items: list[int]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


@dataclass
class Deal:
    first_player: int
    hands: list[list[int]]
    pile: list[int]
    """The draw pile (or the set-aside cards), top last."""
    reward: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    generator: Generator | None = None
    """The generator as the deal left it: what a later reshuffle carries on with."""


def deal_one_at_a_time(pile: list[int], players: int, size: int) -> list[list[int]]:
    hands: list[list[int]] = [[] for _ in range(players)]
    for _ in range(size):
        for hand in hands:
            if pile:
                hand.append(pile.pop())
    return hands


def deal(game: str, players: int, options: dict[str, Any], seed: bytes) -> Deal:
    """What `seed` deals at a table of `game` with these options (section 12)."""
    g = Generator(seed)
    first = options.get("first_player")
    if game == "via-gladiola":
        pile = list(range(63))
        g.shuffle(pile)
        hands = deal_one_at_a_time(pile, players, 8)
        if first is None:
            first = g.below(players)
        return Deal(first, hands, pile, generator=g)
    if first is None:
        first = g.below(players)
    if game == "velonimo":
        pile = list(range(55))
        g.shuffle(pile)
        hands = deal_one_at_a_time(pile, players, 11)
        if players == 2:
            reward = pile.pop()
            return Deal(first, hands, pile, reward)
        return Deal(first, hands, pile)
    if game == "auf-achse":
        pile = list(range(109))
        g.shuffle(pile)
        return Deal(first, deal_one_at_a_time(pile, players, 10), pile, generator=g)
    raise ValueError(f"no deal known for {game!r}")


def commitment(host_part: bytes) -> bytes:
    return hashlib.sha256(COMMIT_LABEL + host_part).digest()


def pledge(seat: int, part: bytes) -> bytes:
    return hashlib.sha256(PLEDGE_LABEL + bytes([seat]) + part).digest()


def seed_of(host_part: bytes, contributions: dict[int, bytes]) -> bytes:
    h = hashlib.sha256(SEED_LABEL + host_part)
    for seat in sorted(contributions):
        h.update(bytes([seat]) + contributions[seat])
    return h.digest()


def check_deal(
    *,
    game: str,
    players: int,
    options: dict[str, Any],
    seat: int,
    commit: bytes,
    pledges: dict[int, bytes],
    contributions: dict[int, bytes],
    my_part: bytes,
    host_part: bytes,
    seed: bytes,
    first_view: dict[str, Any],
) -> list[str]:
    """Everything an outside client checks about the deal once the audit is in (sections 7.3,
    7.8 and 12): the host's part matches the first commitment, the published parts are exactly
    the pledged ones, ours among them, the seed is the one they make, and it deals the hand and
    first player our first view showed. Empty when all holds."""
    problems = []
    if commitment(host_part) != commit:
        problems.append("the host's part does not match its commitment")
    if set(contributions) != set(pledges):
        problems.append("the published parts are not those of the published pledges")
    for s, part in contributions.items():
        if pledges.get(s) != pledge(s, part):
            problems.append(f"seat {s}'s part is not the one it pledged")
    if contributions.get(seat) != my_part:
        problems.append("our part is not among the published ones")
    if seed_of(host_part, contributions) != seed:
        problems.append("the revealed seed is not the one the published parts make")
    dealt = deal(game, players, options, seed)
    if sorted(dealt.hands[seat]) != first_view["hand"]:
        problems.append("the seed does not deal the hand we were shown")
    if dealt.first_player != first_view["first_player"]:
        problems.append("the seed does not choose the first player we were shown")
    if dealt.reward is not None and dealt.reward != first_view.get("reward"):
        problems.append("the seed does not turn up the reward we were shown")
    return problems
