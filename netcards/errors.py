"""Exceptions of the rules engine.

Every refusal is a specific exception whose message says why, so that a client, a bot or the
command line can show it as one line. Raising one never changes the state it was raised for.
"""


class GameError(Exception):
    """Base of every error the engine raises on bad input."""


class UnknownGame(GameError):
    """A game id that is not in the registry."""


class BadConfig(GameError):
    """A table configuration the game cannot be set up with (player count, options)."""


class BadOption(BadConfig):
    """An unknown option, or a value of the wrong type or out of range."""


class BadDeck(BadOption):
    """A deck file that does not describe a valid deck for its game."""


class BadAction(GameError):
    """Action data that does not decode to any action of the game (wrong shape or type)."""


class IllegalAction(GameError):
    """A well-formed action the rules do not allow now (out of turn, wrong card, ...)."""


class StepPending(IllegalAction):
    """An action while a sealing round or an opening the engine asked for is still to be done
    (sealed tables: the seals, openings and choices of `netcards/sealed_cards.py` and
    `netcards/sealed_choices.py` both refuse with it, so it lives below them)."""


class NotYourTurn(IllegalAction):
    """An action from a seat that is not asked to act."""


class GameOver(IllegalAction):
    """An action after the game has ended."""


class StaleMove(IllegalAction):
    """A move that answers an older update than the one that asked the seat its current
    decision: the table moved on (a bot may have played that decision), so it is not applied."""


class FutureMove(IllegalAction):
    """A move that names an update the table has not produced yet."""
