"""A host that lies about the game outside its update events is caught at the end, over sockets.

The host is a `TableHost` that rewrites some of what it sends (the first snapshot, a snapshot
after everyone reconnected, one update's view, the scores in a round's end shown live and then
told truly in the history after a reconnect, the result), while the deal and the actions stay
honest: the replay of the audit is the real game. Its players are `netcards bot` processes and
it has a spectator (the shipped `TableClient`); every one of them must say "deal NOT verified"
and name what differed. An honest host is verified by all of them, in every title.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from netcards.table import Table
from protocol.client import TableClient
from protocol.connection import Packed
from protocol.host import HostSettings, Peer, TableHost
from protocol.identity import IdentityKey
from protocol.known_hosts import KnownHosts
from protocol.messages import Message, Result, Snapshot, Update
from protocol.table_session import Effect, TableSession
from tests.network.processes import Proc, bot

SHORT_VELONIMO = {"difficulties": [1, 2]}
"""Two rounds: a round's end comes, and another round follows it."""


def _cheat_totals(view: dict[str, Any]) -> dict[str, Any]:
    return {**view, "totals": [t + 7 for t in view["totals"]]}


class DroppingSession(TableSession):
    """The table's decisions, which say when the liar is to cut everyone off."""

    lie = "honest"
    drop_due = False

    def _after_action(self, events: list[Any]) -> None:
        super()._after_action(events)
        last_kinds = {e.kind for e in events}
        if (self.lie in ("later_snapshot", "honest_drop") and len(self.table.actions) == 4) or (
            self.lie == "score_notice" and "round_end" in last_kinds
        ):
            self.drop_due = True


class Liar(TableHost):
    """An honest table that tells its connections something else than the game it plays."""

    session_class = DroppingSession
    lie = "honest"
    dropped = False

    def _send(self, peer: Peer, message: Message | Packed) -> None:
        said = message.message if isinstance(message, Packed) else message
        told = self._told(said)
        super()._send(peer, message if told is said else told)

    def _told(self, message: Message) -> Message:
        lie = self.lie
        if isinstance(message, Snapshot):
            if lie == "first_snapshot" and message.seq == 0:
                view = _cheat_totals(message.view)
                return Snapshot(message.seq, {**view, "reward": 54}, message.to_act)
            if lie == "later_snapshot" and message.seq > 0:
                return Snapshot(message.seq, _cheat_totals(message.view), message.to_act)
        elif isinstance(message, Update):
            if lie == "update_view" and message.seq == 3:
                return _with(message, view=_cheat_totals(message.view))
            if lie == "score_notice" and not self.dropped:
                ends = [e for e in message.events if e.get("kind") == "round_end"]
                if ends:
                    events = tuple(
                        {**e, "totals": [t + 7 for t in e["totals"]]} if e in ends else e
                        for e in message.events
                    )
                    return _with(message, events=events)
        elif isinstance(message, Result) and lie == "result":
            winners = message.outcome["winners"]
            return Result({**message.outcome, "winners": [1] if winners == [0] else [0]})
        return message

    def _perform(self, effects: Iterable[Effect]) -> None:
        super()._perform(effects)
        session = self.session
        assert isinstance(session, DroppingSession)
        if session.drop_due and not self.dropped:
            # Everyone is cut off a moment later (the updates out first) and comes back to
            # a `history` and a `snapshot`.
            self.dropped = True
            asyncio.get_running_loop().call_later(0.3, self._drop_everyone)

    def _drop_everyone(self) -> None:
        for peer in list(self.peers.values()):
            if peer.joined:
                self._close(peer)


def _with(update: Update, **change: Any) -> Update:
    fields = {
        "seq": update.seq,
        "actor": update.actor,
        "events": update.events,
        "view": update.view,
        "to_act": update.to_act,
    }
    return Update(**{**fields, **change})


async def play(
    tmp_path: Path, lie: str, game: str = "velonimo", options: dict[str, Any] | None = None
) -> tuple[list[Proc], TableClient]:
    """Two bot players and one spectator at a two-seat table of `game`, to the end."""
    chosen = SHORT_VELONIMO if options is None and game == "velonimo" else options or {}
    table = Table.create(game, 2, chosen, name="t", host_part=os.urandom(32))
    server = Liar(table, IdentityKey.generate(os.urandom), settings=HostSettings(grace=20))
    server.lie = lie
    assert isinstance(server.session, DroppingSession)
    server.session.lie = lie
    port = await server.start()
    address = f"127.0.0.1:{port}"
    watcher = TableClient(address, "Sam", KnownHosts(tmp_path / "sam-hosts"), spectator=True)
    watching = asyncio.create_task(watcher.run())
    players = [
        bot(tmp_path, port, name, "--level", "random", "--delay", "0.02") for name in ("Ann", "Bea")
    ]
    try:
        for proc in players:
            await asyncio.to_thread(proc.wait, 180)
        await asyncio.wait_for(watcher.wait_done(), 60)
    finally:
        watching.cancel()
        await server.close()
    return players, watcher


LIES = {
    "first_snapshot": r"the first snapshot differs from the replay \(reward, totals\)",
    "later_snapshot": r"the snapshot at update \d+ differs from the replay \(totals\)",
    "update_view": r"the view after update 3 differs from the replay \(totals\)",
    "score_notice": r"the events of update \d+ as it was played differ from the replay",
    "result": r"the result differs from the replay \(winners\)",
}


@pytest.mark.parametrize("lie", sorted(LIES))
async def test_a_host_lying_outside_the_events_is_caught_by_every_player_and_spectator(
    tmp_path: Path, lie: str
) -> None:
    players, watcher = await play(tmp_path, lie)
    reason = re.compile(LIES[lie])
    for proc in players:
        out = proc.stdout()
        assert "result " in out, proc.name + ":\n" + out + proc.stderr()
        verdicts = [ln for ln in out.splitlines() if ln.startswith("deal ")]
        assert len(verdicts) == 1 and verdicts[0].startswith("deal NOT verified: "), (
            proc.name + ":\n" + out + proc.stderr()
        )
        assert reason.search(verdicts[0]), proc.name + ":\n" + out
    assert watcher.verdict is not None and not watcher.verdict.ok
    assert any(reason.search(p) for p in watcher.verdict.problems), watcher.verdict.problems
    if lie in ("later_snapshot", "score_notice"):  # they did come back and get a history
        assert "link down" in players[0].stderr()


@pytest.mark.parametrize("game", ["via-gladiola", "velonimo", "auf-achse"])
async def test_an_honest_host_is_verified_by_every_player_and_spectator(
    tmp_path: Path, game: str
) -> None:
    players, watcher = await play(tmp_path, "honest", game)
    for proc in players:
        assert proc.popen.returncode == 0, proc.stdout() + proc.stderr()
        assert "deal verified" in proc.stdout()
    assert watcher.verdict is not None and watcher.verdict.ok, watcher.verdict


async def test_an_honest_host_that_drops_everyone_is_still_verified(tmp_path: Path) -> None:
    """Coming back (a new `start`, the `history`, a `snapshot` mid-game) is no lie in itself."""
    players, watcher = await play(tmp_path, "honest_drop")
    for proc in players:
        assert "link down" in proc.stderr(), proc.stderr()
        assert "deal verified" in proc.stdout(), proc.stdout() + proc.stderr()
    assert watcher.verdict is not None and watcher.verdict.ok, watcher.verdict
