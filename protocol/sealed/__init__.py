"""The sealed deck's cryptography (protocol version 4, step "sealed hands"): pure, no I/O.

A sealed table deals cards that nobody, the host included, can see unless they may: every seat
masks and shuffles the deck in turn with commutative encryption (Shamir, Rivest and Adleman's
mental poker, 1979, here on the x-coordinates of P-256), then swaps its single mask for one
scalar per position so that positions can be opened one at a time, to one seat or to all.
Every step is signed by its seat, each seat keeps a digest of the steps it was shown, and at
the end every seat reveals its secrets so that anyone can recompute every step and name the
first seat that cheated.

One concept per module: `group` (the commutative group), `cards` (card elements),
`shuffle` (what one seat computes), `deck` (the public round state every party keeps),
`signing` (signed steps), `transcript` (the equivocation check), `audit` (the recomputation),
`canonical` (the signed encoding), `errors` (findings that name a seat), `messages` (the
round's version-4 messages) and `round_driver` (a seat and the relay, messages in and out).
docs/sealed.md is the specification and holds test vectors. Not yet wired into the table:
sealed tables are not playable yet.
"""
