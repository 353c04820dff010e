"""The proofs of docs/sealed.md sections 3.1 (a mask-and-shuffle step) and 3.2 (a re-key step),
made and checked as the page writes them, nothing else read. A proof is the map the step
carries (`ShuffleProof`, `RekeyProof`), scalars as 32-byte big-endian bin."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tests.outsider.curve import (
    N,
    add,
    as_scalar,
    b32,
    base,
    enc,
    generator,
    load,
    neg,
    sha,
    times,
    u32,
)

Nonce = Callable[[], int]
"""The prover's next nonce, a scalar."""


@dataclass(frozen=True)
class Statement:
    """What a step's proof is about: the table, the round, the seat and the digest of the list
    the step was made from (`input`)."""

    table: bytes
    round: int
    seat: int
    input: bytes

    def opening(self, label: bytes) -> bytes:
        return label + u32(len(self.table)) + self.table + u32(self.round) + u32(self.seat)


def list_digest(elements: Sequence[bytes]) -> bytes:
    return sha(b"netcards sealed list v5", u32(len(elements)), *elements)


# -- 3.1 --------------------------------------------------------------------------------------


def _shuffle_s(st: Statement, outputs: Sequence[bytes], key: bytes, u: Sequence[bytes]) -> bytes:
    label = b"netcards sealed shuffle proof v5"
    return sha(st.opening(label), st.input, u32(len(outputs)), *outputs, key, *u)


def prove_shuffle(
    st: Statement,
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    key: bytes,
    mask: int,
    permutation: Sequence[int],
    nonce: Nonce,
) -> dict[str, Any]:
    n = len(inputs)
    sigma = [0] * n
    for j, i in enumerate(permutation):
        sigma[i] = j
    r = [nonce() for _ in range(n)]
    b = [nonce() for _ in range(n)]
    alpha = nonce()
    beta = [nonce() for _ in range(n)]
    gamma, delta = nonce(), nonce()
    eta = [nonce() for _ in range(n)]
    phi = nonce()
    u = [enc(add([base(r[i]), generator(sigma[i])])) for i in range(n)]
    s = _shuffle_s(st, outputs, key, u)
    e = [as_scalar(sha(s, u32(i))) for i in range(n)]
    eps = [e[permutation[j]] for j in range(n)]
    chain, before, d = [], generator(0), 0
    for j in range(n):
        link = add([base(b[j]), times(before, eps[j])])
        chain.append(link)
        d = (b[j] + eps[j] * d) % N
        before = link
    k = sum(ri * ei for ri, ei in zip(r, e, strict=True)) % N
    a_c = add([base(alpha), *(times(generator(j), eta[j]) for j in range(n))])
    b_c = [
        add([base(beta[j]), times(chain[j - 1] if j else generator(0), eta[j])]) for j in range(n)
    ]
    f = add(times(load(x), ei) for x, ei in zip(inputs, e, strict=True))
    f_c = add([*(times(load(y), eta[j]) for j, y in enumerate(outputs)), times(f, N - phi)])
    v = as_scalar(
        sha(
            s,
            *map(enc, chain),
            enc(a_c),
            *map(enc, b_c),
            enc(base(gamma)),
            enc(base(delta)),
            enc(f_c),
            enc(base(phi)),
        )
    )
    return {
        "u": u,
        "B": [enc(x) for x in chain],
        "v": b32(v),
        "k_A": b32(alpha + v * k),
        "k_B": [b32(beta[j] + v * b[j]) for j in range(n)],
        "k_C": b32(gamma + v * sum(r)),
        "k_D": b32(delta + v * d),
        "k_E": [b32(eta[j] + v * eps[j]) for j in range(n)],
        "k_a": b32(phi + v * mask),
    }


def check_shuffle(
    st: Statement,
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    key: bytes,
    proof: dict[str, Any],
) -> bool:
    n = len(inputs)
    if not all(len(proof[f]) == n for f in ("u", "B", "k_B", "k_E")):
        return False
    try:
        u = [load(x) for x in proof["u"]]
        chain = [load(x) for x in proof["B"]]
        a_key = load(key)
    except ValueError:
        return False
    scalars = [proof[f] for f in ("v", "k_A", "k_C", "k_D", "k_a")] + proof["k_B"] + proof["k_E"]
    if any(int.from_bytes(x, "big") >= N for x in scalars):
        return False
    v, k_a_big, k_c, k_d, k_a = (
        int.from_bytes(proof[f], "big") for f in ("v", "k_A", "k_C", "k_D", "k_a")
    )
    k_b = [int.from_bytes(x, "big") for x in proof["k_B"]]
    k_e = [int.from_bytes(x, "big") for x in proof["k_E"]]
    s = _shuffle_s(st, outputs, key, proof["u"])
    e = [as_scalar(sha(s, u32(i))) for i in range(n)]
    product = 1
    for ei in e:
        product = product * ei % N
    f = add(times(load(x), ei) for x, ei in zip(inputs, e, strict=True))
    a_c = add(
        [
            base(k_a_big),
            *(times(generator(j), k_e[j]) for j in range(n)),
            neg(times(add(times(ui, ei) for ui, ei in zip(u, e, strict=True)), v)),
        ]
    )
    b_c = [
        add(
            [
                base(k_b[j]),
                times(chain[j - 1] if j else generator(0), k_e[j]),
                neg(times(chain[j], v)),
            ]
        )
        for j in range(n)
    ]
    hs = add(generator(i) for i in range(n))
    c_c = add([base(k_c), neg(times(add([add(u), neg(hs)]), v))])
    d_c = add([base(k_d), neg(times(add([chain[-1], neg(times(generator(0), product))]), v))])
    f_c = add([*(times(load(y), k_e[j]) for j, y in enumerate(outputs)), neg(times(f, k_a))])
    m_c = add([base(k_a), neg(times(a_key, v))])
    again = sha(s, *proof["B"], enc(a_c), *map(enc, b_c), enc(c_c), enc(d_c), enc(f_c), enc(m_c))
    return as_scalar(again) == v


# -- 3.2 --------------------------------------------------------------------------------------


def _rekey_s(
    st: Statement, outputs: Sequence[bytes], commitments: Sequence[bytes], key: bytes
) -> bytes:
    label = b"netcards sealed rekey proof v5"
    return sha(st.opening(label), st.input, u32(len(outputs)), *outputs, *commitments, key)


def prove_rekey(
    st: Statement,
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    commitments: Sequence[bytes],
    key: bytes,
    mask: int,
    rekeys: Sequence[int],
    nonce: Nonce,
) -> dict[str, Any]:
    n = len(inputs)
    phi = nonce()
    rho = [nonce() for _ in range(n)]
    t = [base(rj) for rj in rho]
    us = [
        add([times(load(outputs[j]), phi), neg(times(load(inputs[j]), rho[j]))]) for j in range(n)
    ]
    s = _rekey_s(st, outputs, commitments, key)
    v = as_scalar(sha(s, enc(base(phi)), *map(enc, t), *map(enc, us)))
    return {
        "v": b32(v),
        "s_a": b32(phi + v * mask),
        "s": [b32(rho[j] + v * rekeys[j]) for j in range(n)],
    }


def check_rekey(
    st: Statement,
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    commitments: Sequence[bytes],
    key: bytes,
    proof: dict[str, Any],
) -> bool:
    n = len(inputs)
    if len(proof["s"]) != n:
        return False
    v, s_a = int.from_bytes(proof["v"], "big"), int.from_bytes(proof["s_a"], "big")
    s_j = [int.from_bytes(x, "big") for x in proof["s"]]
    if any(x >= N for x in [v, s_a, *s_j]):
        return False
    t_a = add([base(s_a), neg(times(load(key), v))])
    t = [add([base(s_j[j]), neg(times(load(commitments[j]), v))]) for j in range(n)]
    us = [
        add([times(load(outputs[j]), s_a), neg(times(load(inputs[j]), s_j[j]))]) for j in range(n)
    ]
    s = _rekey_s(st, outputs, commitments, key)
    return as_scalar(sha(s, enc(t_a), *map(enc, t), *map(enc, us))) == v
