"""The door: who may knock (the wrong-password throttle), and the waiting room of those not seated.

A connection becomes a `Member` here when it arrives, unless its address failed the table
password too often lately; a crowd of connections that never join is shed oldest first
(`protocol/admission.py` decides whom) so that a player can always get back in.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from protocol.admission import Waiting, make_room
from protocol.table_session.core import Member, SessionCore
from protocol.table_session.effects import Drop, Effect


@dataclass(frozen=True)
class Arrival:
    """What the door made of a new connection: its member number, or why it is turned away
    (the text and detail of a plaintext `throttled` error), and what to do first."""

    number: int | None
    refusal: tuple[str, dict[str, object]] | None
    effects: list[Effect]


class Door(SessionCore):
    def arrive(self, ip: str, address: str, now: float) -> Arrival:
        """A connection from `ip` (`address`: with its port) was accepted by the socket."""
        self._now = now
        refusal = self.guessing_refusal(ip, now)
        if refusal is not None:  # no handshake at all before the wait is over
            text = refusal[0]
            self._refusals.line(ip, lambda: f"turned {address} away: {text}", now)
            return Arrival(None, refusal, self._take())
        self._make_room(ip)
        self._numbers += 1
        member = Member(
            self._numbers,
            address,
            ip,
            now,
            chat_allowance=float(self.settings.chat_burst),
            chat_checked=now,
        )
        self.members[member.number] = member
        return Arrival(member.number, None, self._take())

    def tick(self, now: float) -> list[Effect]:
        """The adapter's once-a-second call: the counts of addresses turned away lately."""
        self._now = now
        self._refusals.flush(now)
        return self._take()

    def _make_room(self, ip: str) -> None:
        """Shed waiting (not yet joined) connections until one more from `ip` fits."""
        s = self.settings
        while True:
            waiting = [
                Waiting(m.number, m.ip, m.opened)
                for m in self.members.values()
                if not m.joined and not m.closed
            ]
            victim = make_room(
                waiting, ip, limit=s.max_waiting, per_address=s.max_waiting_per_address
            )
            if victim is None:
                return
            member = self.members[victim.number]
            member.closed = True
            self._out.append(
                Drop(
                    member.number,
                    "it has not joined; its place is needed to make room",
                    at_once=True,  # its writer may not have run yet: hung up now
                )
            )

    def guessing_refusal(self, ip: str, now: float) -> tuple[str, dict[str, object]] | None:
        """Why `ip` may not have a password judged now (it failed too often lately), or None."""
        if not self.password_protected:
            return None
        wait = self.throttle.delay(ip, now)
        if wait <= 0:
            return None
        if self.throttle.refused(ip, now):
            text = (
                "too many wrong passwords from your address: it is refused for "
                f"{math.ceil(wait / 60)} more minute(s)"
            )
        else:
            text = f"too many wrong passwords from your address: try again in {math.ceil(wait)} s"
        return text, {"retry_after_ms": max(1, round(wait * 1000))}

    def password_judged(self, ip: str, right: bool, now: float) -> None:
        """The throttle hears how a guess from `ip` went."""
        if right:
            self.throttle.success(ip)
        else:
            self.throttle.failure(ip, now)
