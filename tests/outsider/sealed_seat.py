"""A seat of a sealed table, written from docs/sealed.md and the game pages alone: it sends its
key, masks, re-keys and proves, opens its scalars to the seats the host names, passes cards it
keeps, commits to and opens public random draws and its choices, shows the cards it plays in
its moves, follows every relayed step in its transcript, and at the end publishes its secrets
and audits the game from everyone's. Every message it sends or receives is held to the page's
formats (tests/outsider/formats.py) and every host request to what the rules ask
(tests/outsider/sealed_titles.py); anything else fails the test, naming what."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from tests.outsider.curve import b32, commit, mul
from tests.outsider.formats import Checker, move_formats
from tests.outsider.sealed_titles import AufAchse, Model, is_slot
from tests.outsider.sealing import (
    Chain,
    Round,
    Secrets,
    Signer,
    canonical,
    choice_commitment,
    draw_commitment,
    draw_value,
    pass_pad,
    random_scalar,
    scalar_of,
    secrets_body,
    secrets_of,
    signed_bytes,
    verify,
    xor,
)

Send = Callable[[dict[str, Any]], None]


class SealedSeat:
    def __init__(self, seat: int, players: int, model: Model, title: str, send: Send) -> None:
        self.me, self.players, self.model, self._send = seat, players, model, send
        self.formats = Checker()
        self.moves = move_formats(title, players, len(model.cards))
        self.signer = Signer()
        self.table = b""
        self.game = b""
        self.chain: Chain | None = None
        self.keys: dict[int, bytes] = {}
        self.rounds: dict[int, Round] = {}
        self.mine: dict[int, Secrets] = {}
        self.pass_secret: dict[tuple[int, int], int] = {}
        self.pass_keys: dict[tuple[int, int], bytes] = {}
        self.passing: dict[tuple[int, int], int] = {}
        self.learnt: dict[tuple[int, int], int] = {}
        self.draw_commits: dict[int, dict[int, bytes]] = {}
        self.draw_nonces: dict[int, dict[int, bytes]] = {}
        self.my_draws: dict[int, bytes] = {}
        self.opened_draws: set[int] = set()
        self.values: list[bytes] = []
        self.applied: list[tuple[int, dict[str, Any]]] = []
        self.awaiting = False
        self.opened_choices: set[int] = set()
        self.secrets: dict[int, list[Secrets]] = {}
        self.digests: dict[int, bytes] = {}
        self.published = False
        self.verdict: str | None = None
        self.shown_cards: dict[int, int] = {}
        """Every card this seat saw shown or opened to it, by slot: the audit holds it to."""

    # -- sending ---------------------------------------------------------------------------

    def send(self, msg: dict[str, Any]) -> None:
        self.formats.check_message(msg, "sent")
        self._send(msg)

    def hello(self) -> None:
        self.send({"type": "seal_key", "key": self.signer.public})

    def step(self, round_no: int, kind: str, body: dict[str, Any]) -> None:
        data = signed_bytes(self.table, round_no, kind, self.me, body)
        self.send(
            {
                "type": "seal_step",
                "round": round_no,
                "kind": kind,
                "seat": self.me,
                "body": body,
                "signature": self.signer.sign(data),
            }
        )

    # -- the tables a model reads --------------------------------------------------------------

    def sealed(self, number: int) -> bool:
        return number in self.rounds and self.rounds[number].sealed

    def _at(self, slot: int) -> tuple[int, int, Round]:
        number, p = self.model.where(slot)
        return number, p, self.rounds[number]

    def opened_to(self, seat: int, slot: int) -> bool:
        _, p, r = self._at(slot)
        if seat in r.passed.get(p, ()):
            return True
        others = [s for s in r.seats if s != seat]
        return r.keepers.get(p) == seat and p not in r.passed and r.published(p, others)

    def shown(self, slot: int) -> int | None:
        _, p, r = self._at(slot)
        if not r.published(p, r.seats):
            return None
        card = r.unmask(p)
        self.shown_cards[slot] = card
        return card

    def own(self, slot: int) -> int:
        number, p, r = self._at(slot)
        if (number, p) in self.learnt:
            card = r.unmask(p, {r.keepers[p]: self.learnt[(number, p)]})
        else:
            card = r.unmask(p, {self.me: self.mine[number].rekeys[p]})
        self.shown_cards[slot] = card
        return card

    def draw_value(self, draw: int) -> bytes | None:
        return self.values[draw] if draw < len(self.values) else None

    def _my_y(self, number: int, p: int) -> int:
        """This seat's scalar of a card it plays: its own, or the keeper's it was passed."""
        return self.learnt.get((number, p), self.mine[number].rekeys[p])

    # -- receiving ---------------------------------------------------------------------------

    def receive(self, msg: dict[str, Any]) -> None:
        self.formats.check_message(msg, "received")
        kind = msg["type"]
        if kind == "seal_round":
            self._round(msg)
        elif kind == "seal_open":
            self._open(msg)
        elif kind == "seal_reveal":
            self._reveal(msg)
        elif kind == "seal_acted":
            self._acted(msg)
        else:
            assert kind == "seal_step", f"the host sent {kind}"
            self._step(msg)
        self.model.settle(self)
        self._next()

    def _round(self, msg: dict[str, Any]) -> None:
        model = self.model
        assert self.chain is None or msg["table"] == self.table
        assert msg["round"] == model.unsealed == len(self.rounds), "not the round the game seals"
        first, cards = model.rounds[msg["round"]]
        assert list(msg["cards"]) == cards, "not the cards the game seals"
        assert list(msg["seats"]) == list(range(self.players)), "every seat, in seat order"
        keys = {k["seat"]: k["key"] for k in msg["keys"]}
        assert keys[self.me] == self.signer.public and all(
            self.keys.get(s, k) == k for s, k in keys.items()
        )
        if self.chain is None:
            self.table, self.game, self.chain = msg["table"], msg["game"], Chain(msg["table"])
        assert msg["game"] == self.game
        self.keys.update(keys)
        self.chain.add(canonical(msg))
        r = Round(self.table, msg["round"], self.game, list(msg["seats"]), cards, first)
        self.rounds[msg["round"]] = r
        self.mine[msg["round"]] = Secrets.draw(r.size)
        self._my_turn(r)

    def _my_turn(self, r: Round) -> None:
        turn = r.turn
        if turn is None or turn[1] != self.me:
            return
        mine = self.mine[r.number]
        body = r.mask_body(self.me, mine) if turn[0] == "mask" else r.rekey_body(self.me, mine)
        self.step(r.number, turn[0], body)

    def _open(self, msg: dict[str, Any]) -> None:
        number, to, positions = msg["round"], msg["to"], list(msg["positions"])
        r = self.rounds[number]
        assert r.sealed and len(set(positions)) == len(positions)
        asked = {(s, x) for s, x in self.model.to_open}
        assert all((to, self.model.slot(number, p)) in asked for p in positions), "unrequested"
        fresh = [p not in r.keepers for p in positions]
        assert all(fresh) or not any(fresh), "dealt and passed positions in one seal_open"
        if all(fresh):
            for p in positions:
                r.keepers[p] = to
            if to != self.me:
                ys = [[p, b32(self.mine[number].rekeys[p])] for p in positions]
                self.step(number, "scalars", {"to": to, "scalars": ys})
            return
        for p in positions:
            self.passing[(number, p)] = to
        if to == self.me:
            b = random_scalar()
            for p in positions:
                self.pass_secret[(number, p)] = b
            self.step(number, "pass_key", {"positions": positions, "key": commit(b)})

    def _reveal(self, msg: dict[str, Any]) -> None:
        number, positions = msg["round"], list(msg["positions"])
        shown = {*self.model.to_show, *self.model.to_reveal}
        assert all(self.model.slot(number, p) in shown for p in positions), "unrequested"
        mine = self.rounds[number].scalars.get(self.me, {})
        fresh = [p for p in positions if p not in mine]
        if fresh:
            ys = [[p, b32(self.mine[number].rekeys[p])] for p in fresh]
            self.step(number, "reveal", {"scalars": ys})

    def _publish_reveal(self, r: Round, seat: int, pairs: list[Any]) -> None:
        """A reveal's scalars: for a position passed to its signer, its keeper's."""
        for p, y in pairs:
            keeper = r.keepers.get(p, seat)
            whose = keeper if keeper != seat and seat in r.passed.get(p, ()) else seat
            r.publish(whose, p, scalar_of(y))

    def _step(self, msg: dict[str, Any]) -> None:
        number, kind, seat, body = msg["round"], msg["kind"], msg["seat"], msg["body"]
        data = signed_bytes(self.table, number, kind, seat, body)
        assert verify(self.keys[seat], msg["signature"], data), f"seat {seat}'s {kind}: forged"
        assert self.chain is not None
        if kind == "secrets":  # not chained (docs/sealed.md section 5)
            assert self.model.over and seat not in self.secrets
            self.secrets[seat], self.digests[seat] = secrets_of(body), body["digest"]
            if len(self.secrets) == self.players:
                self._audit()
            return
        assert kind not in ("broken", "wrong_pass"), f"seat {seat} says {kind}: {body}"
        self.chain.add(data + msg["signature"])
        if kind in ("draw_commit", "draw_open"):
            return self._draw(seat, kind, body)
        if kind == "choice":
            assert isinstance(self.model, AufAchse)
            return self.model.take_choice(seat, body)
        r = self.rounds[number]
        if kind in ("mask", "rekey"):
            r.take(kind, seat, body)
            return self._my_turn(r)
        if kind == "scalars":
            assert body["to"] != seat
            for p, y in body["scalars"]:
                assert r.keepers[p] == body["to"], "scalars of a position not dealt to that seat"
                r.publish(seat, p, scalar_of(y))
        elif kind == "reveal":
            self._publish_reveal(r, seat, body["scalars"])
        elif kind == "pass_key":
            for p in body["positions"]:
                assert self.passing[(number, p)] == seat
                self.pass_keys[(number, p)] = body["key"]
            held = [p for p in body["positions"] if r.keepers[p] == self.me]
            if held:
                e = random_scalar()
                sealed = [
                    [
                        p,
                        xor(
                            b32(self.mine[number].rekeys[p]),
                            pass_pad(mul(body["key"], e), number, p),
                        ),
                    ]
                    for p in held
                ]
                self.step(number, "pass", {"to": seat, "key": commit(e), "scalars": sealed})
        elif kind == "pass":
            to = body["to"]
            for p, sealed in body["scalars"]:
                assert r.keepers[p] == seat and self.passing.pop((number, p)) == to
                r.passed.setdefault(p, set()).add(to)
                if to == self.me:
                    b = self.pass_secret[(number, p)]
                    y = scalar_of(xor(sealed, pass_pad(mul(body["key"], b), number, p)))
                    assert commit(y) == r.commitments[seat][p], f"seat {seat} passed a wrong scalar"
                    self.learnt[(number, p)] = y

    def _draw(self, seat: int, kind: str, body: dict[str, Any]) -> None:
        draw = body["draw"]
        assert draw == len(self.values) and draw == self.model.draw_due(), "a draw not due"
        if kind == "draw_commit":
            self.draw_commits.setdefault(draw, {})[seat] = body["digest"]
            return
        assert len(self.draw_commits[draw]) == self.players, "opened before every commitment"
        assert draw_commitment(draw, seat, body["nonce"]) == self.draw_commits[draw][seat]
        self.draw_nonces.setdefault(draw, {})[seat] = body["nonce"]
        if len(self.draw_nonces[draw]) == self.players:
            self.values.append(draw_value(draw, self.draw_nonces[draw]))

    def _acted(self, msg: dict[str, Any]) -> None:
        seat, action, number = msg["seat"], msg["action"], msg["number"]
        assert msg["seq"] == len(self.applied) + 1
        assert number == sum(1 for s, _ in self.applied if s == seat) + 1
        body = {"number": number, "action": action, "reveal": msg["reveal"]}
        data = signed_bytes(self.table, 0, "move", seat, body)
        assert verify(self.keys[seat], msg["signature"], data), f"seat {seat}'s move: forged"
        self.moves[action["kind"]](action, action["kind"])
        shown: dict[int, int] = {}
        for round_no, p, y in msg["reveal"]:
            r = self.rounds[round_no]
            self._publish_reveal(r, seat, [[p, y]])
            shown[self.model.slot(round_no, p)] = r.unmask(p)
        claimed = dict(zip(action.get("slots", []), action.get("cards", []), strict=True))
        assert shown == {x: c for x, c in claimed.items() if is_slot(x)}, (
            "a card its reveal did not show"
        )
        assert self.chain is not None
        self.chain.add(data + msg["signature"])
        self.model.apply(seat, action)
        self.applied.append((seat, action))
        if seat == self.me:
            self.awaiting = False

    # -- what this seat does on its own -------------------------------------------------------

    def _next(self) -> None:
        model = self.model
        due = model.draw_due()
        if due is not None and due not in self.my_draws and self.chain is not None:
            self.my_draws[due] = os.urandom(32)
            self.step(
                0,
                "draw_commit",
                {"draw": due, "digest": draw_commitment(due, self.me, self.my_draws[due])},
            )
        commits = self.draw_commits.get(due, {}) if due is not None else {}
        if due is not None and len(commits) == self.players and due not in self.opened_draws:
            self.opened_draws.add(due)
            self.step(0, "draw_open", {"draw": due, "nonce": self.my_draws[due]})
        if (
            isinstance(model, AufAchse)
            and self.me in model.choices_due()
            and not model.steps_ahead()
        ):
            step = model.step
            assert step is not None
            if step["index"] not in self.opened_choices:
                self.opened_choices.add(step["index"])
                slots, nonce = model.my_openings[step["index"]]
                self.step(0, "choice", {"step": step["index"], "slots": slots, "nonce": nonce})
        if model.over and not self.published:
            self.published = True
            assert self.chain is not None
            self.step(
                0,
                "secrets",
                secrets_body(self.chain.digest, [self.mine[n] for n in sorted(self.mine)]),
            )
        if self.me in model.acting() and not self.awaiting:
            self.act(model.choose())

    def act(self, action: dict[str, Any]) -> None:
        model = self.model
        if action["kind"] == "choose":
            assert isinstance(model, AufAchse) and model.step is not None
            index, nonce = model.step["index"], os.urandom(32)
            model.my_openings[index] = (list(action["slots"]), nonce)
            digest = choice_commitment(index, self.me, action["slots"], nonce)
            action = {"kind": "commit", "commitment": list(digest)}
        self.moves[action["kind"]](action, action["kind"])
        reveal = []
        for x in action.get("slots", []) if action["kind"] == "play" else []:
            if is_slot(x):
                number, p = model.where(x)
                reveal.append([number, p, b32(self._my_y(number, p))])
        number = sum(1 for s, _ in self.applied if s == self.me) + 1
        body = {"number": number, "action": action, "reveal": reveal}
        signature = self.signer.sign(signed_bytes(self.table, 0, "move", self.me, body))
        self.awaiting = True
        self.send(
            {
                "type": "seal_act",
                "action": action,
                "number": number,
                "reveal": reveal,
                "signature": signature,
            }
        )

    # -- the audit (docs/sealed.md section 4, and section 7, "A sealed game", step 6) --------

    def _audit(self) -> None:
        assert self.chain is not None
        for seat, digest in self.digests.items():
            assert digest == self.chain.digest, f"seat {seat} was shown other steps"
        truth: dict[int, int] = {}
        for number, r in self.rounds.items():
            cards = r.audit({s: self.secrets[s][number] for s in r.seats})
            truth.update((r.first + p, c) for p, c in enumerate(cards))
        for slot, card in self.shown_cards.items():
            assert truth[slot] == card, f"slot {slot} showed {card}, holds {truth[slot]}"
        for seat, action in self.applied:
            for x, card in zip(action.get("slots", []), action.get("cards", []), strict=True):
                assert not is_slot(x) or truth[x] == card, f"seat {seat} claimed {card} at {x}"
        for draw, nonces in self.draw_nonces.items():
            assert draw_value(draw, nonces) == self.values[draw]
        self.truth = truth
        self.verdict = "deal verified"
