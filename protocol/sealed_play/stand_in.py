"""A sealed seat's stand-in, run by that seat's own program when its turn clock runs out.

At an open table the host's bot plays a late player's decision. At a sealed table no program
but the seat's own holds its cards and keys, so the host only says the time ran out (the
`clock` notice) and the seat's program picks the move with a bot of the table's stand-in level,
from its own view, and sends it as any move of its own (docs/sealed.md, section 7, "The turn
clock"). Nothing of this is checked by anyone: a move is a move, whoever in the program made it.
"""

from __future__ import annotations

from typing import Any

from netcards.action import Action
from netcards.bots.registry import make_bot
from netcards.errors import BadConfig
from netcards.game import Game, TableConfig

FALLBACK_LEVEL = "random"
"""The bot used when the host names a level this program does not have for the game."""


def stand_in_move(
    game: Game[Any],
    config: TableConfig,
    seat: int,
    view: dict[str, Any],
    level: object,
    seed: bytes,
) -> Action | None:
    """The move a bot of `level` makes for `seat` from its view (None: it has none to make);
    `seed` is the bot's randomness (the program's own)."""
    legal = game.legal_actions_in_view(view)
    if not legal:
        return None
    name = level if isinstance(level, str) else FALLBACK_LEVEL
    try:
        bot = make_bot(name, game, config, seat, seed)
    except BadConfig:
        bot = make_bot(FALLBACK_LEVEL, game, config, seat, seed)
    return bot.choose(view, legal, [])
