"""A host that makes one player stop for a broken deck, then rewinds it past the stop.

A `broken` step makes a seat publish its secrets mid-game: every card of its hand is then known
to whoever reads them. A modified host has its own bot sign one and relays it to one player
alone, drops that player's link, and sends back its history without the `broken` step: the
player's program, rebuilt from its seed, would play on with a hand the host reads. A seat keeps
the places it was told of (`told.py`), the `broken` step's too, so a seat rebuilt after a
stop stays stopped and, in its audit, names who said the deck was broken."""

from __future__ import annotations

from netcards.games.via_gladiola import GAME
from protocol.sealed.audit import final_cards
from protocol.sealed.messages import SealStep
from protocol.sealed_play import told
from protocol.sealed_play.seat import BROKEN, SealedSeat, secrets_body, secrets_of
from tests.protocol.sealed_table import stream
from tests.protocol.test_sealed_game_wire import ENGINE, SEED, wire
from tests.protocol.test_sealed_rewind import BOT, PLAYER, _listened, _one_move, _rebuilt


def test_a_player_stopped_by_a_broken_step_and_rewound_past_it_plays_no_more() -> None:
    table, heard = _listened()
    table.start()
    for _ in range(3):
        _one_move(table)
    # The host's bot says the deck is broken, to the player alone (not through `send`, so the
    # history the host keeps for the player, `heard`, leaves it out).
    claim = table.host.bots[BOT].sign(BROKEN, {}, 0)
    published = table.seats[PLAYER].receive(wire(claim))
    secrets = next(m for m in published if isinstance(m, SealStep) and m.kind == "secrets")
    # With the player's secrets and its bot's, the host reads the player's hand.
    kept = table.host.relay.rounds[0].round
    both = {PLAYER: secrets_of(secrets.body)[0], BOT: table.host.bots[BOT].rounds[0].secrets}
    cards = final_cards(kept, both)
    hand = table.seats[PLAYER].driver.rounds[0].hand
    assert hand and {p: cards[p] for p in hand} == hand
    # The player comes back; the history leaves the broken step out.
    seat = _rebuilt(table)
    for msg in heard:
        seat.receive(wire(msg))
    assert seat.state.to_data() == table.host.state.to_data()
    assert seat.broken and seat.legal_actions() == []
    # Every seat's secrets in (the host's, then the player's again): the audit names the bot.
    bot_secrets = table.host.bots[BOT].sign("secrets", secrets_body(table.host.bots[BOT]), 0)
    seat.receive(wire(bot_secrets))
    seat.receive(wire(secrets))
    assert seat.finding is not None
    assert (seat.finding.seat, seat.finding.kind) == (BOT, "false_alarm")


def test_a_player_rebuilt_in_a_fresh_program_after_a_stop_stays_stopped() -> None:
    """The same with the record read back from the disk (a program started again)."""
    table, heard = _listened()
    table.start()
    _one_move(table)
    claim = table.host.bots[BOT].sign(BROKEN, {}, 0)
    table.seats[PLAYER].receive(wire(claim))
    lines = table.seats[PLAYER].told.fresh_lines()
    seat = SealedSeat(ENGINE, GAME.make_config(2, {}), SEED, PLAYER, stream(b"seat 1 1"))
    read = told.read(told.header({"g": 1}) + lines, {"g": 1})
    assert read is not None
    seat.told.places.update(read[0])
    for msg in heard:
        seat.receive(wire(msg))
    assert seat.broken and seat.legal_actions() == []
