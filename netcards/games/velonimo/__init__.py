"""Velonimo (2-5 players): climb-the-ladder card game of cycling animals; 2 players is the duel."""

from netcards.games.velonimo.rules import Velonimo

GAME = Velonimo()

__all__ = ["GAME", "Velonimo"]
