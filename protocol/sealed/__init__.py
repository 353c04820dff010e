"""The sealed deck's cryptography (protocol version 5): pure, no I/O.

A sealed table deals cards that nobody, the host included, can see unless they may: every seat
masks and shuffles the deck in turn with commutative encryption (Shamir, Rivest and Adleman's
mental poker, 1979, here on the points of secp256k1), then swaps its single mask for one
scalar per position so that positions can be opened one at a time, to one seat or to all.
Every step is proved correct when it is made, in zero knowledge, and checked by every party
before it goes on; every step is signed by its seat, each seat keeps a digest of the steps it
was shown, and at the end every seat reveals its secrets so that anyone can recompute every
step and name the first seat that cheated.

One concept per module: `group` (the group), `cards` (card elements), `shuffle` (what one seat
computes, and the proofs it makes), `shuffle_proof` and `rekey_proof` (the two proofs),
`challenge` (their Fiat-Shamir hashing), `checked` (the proofs a process checked already),
`deck` (the public round state every party keeps), `signing` (signed steps), `transcript` (the
equivocation check), `audit` (the recomputation), `canonical` (the signed encoding), `errors`
(findings that name a seat), `messages` (the round's messages), `moves` (signed moves), `draws`,
`transfer`, `passing` and `pass_proof` (public random draws and private transfers), and the
round's two halves, `seat_driver` and `relay_driver`, with `round_steps` (what they share) and
`round_driver` (both, for whoever drives a round). docs/sealed.md is the specification and holds
test vectors.
"""
