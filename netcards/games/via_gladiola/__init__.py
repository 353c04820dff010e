"""Via Gladiola (2-5 players): walk the Nijmegen Four Days without collecting blisters."""

from netcards.games.via_gladiola.rules import ViaGladiola

GAME = ViaGladiola()

__all__ = ["GAME", "ViaGladiola"]
