"""The table's timings and limits (`HostSettings`), read by the session and by its adapter."""

from __future__ import annotations

from dataclasses import dataclass

from protocol.limits import CHAT_MEMORY


@dataclass
class HostSettings:
    """Timings and limits; the defaults suit people, tests shorten them."""

    grace: float = 30.0
    bot_delay: float = 0.0
    handshake_timeout: float = 10.0
    join_timeout: float = 15.0
    pledge_timeout: float = 10.0
    contribute_timeout: float = 10.0
    queue_limit: int = 512
    max_waiting: int = 64
    """Connections that have not joined yet; beyond this the oldest are shed (see admission)."""
    max_waiting_per_address: int = 8
    max_spectators: int = 32
    max_spectators_per_address: int = 4
    chat_burst: int = 8
    chat_per_second: float = 1.0
    chat_abuse_limit: int = 20
    chat_memory: int = CHAT_MEMORY
    """The last lines of chat a player who sits down, watches or comes back is sent first."""
    ping_interval: float = 5.0
    ping_timeout: float = 20.0
    refusal_log_interval: float = 10.0
    """An address turned away again and again is logged once, then counted for this long."""
    turn_clock: float = 0.0
    """Seconds a player has for each decision (0: no clock); then a bot plays that turn (at a
    sealed table, the player's own program plays its stand-in's move)."""
    clock_answer: float = 10.0
    """Seconds a sealed seat's program has, once its time ran out, to send its stand-in's move;
    then the seat counts as absent and the other players may end the game."""
    journal_sync_delay: float = 0.002
    """Seconds after an action's updates leave before the journal is synced to the disk: one
    sync then covers every action of a quick burst, and the next action rarely waits for one."""
    one_game: bool = False
    """The table closes once its game is over (a headless host's does). Its players are told
    with the results, so that none of them comes back to this address for another game."""
