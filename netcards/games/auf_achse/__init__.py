"""Auf Achse (2-5 players): drive five stages and score the longest clean run of km cards."""

from netcards.games.auf_achse.rules import AufAchse

GAME = AufAchse()

__all__ = ["GAME", "AufAchse"]
